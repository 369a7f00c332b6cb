! A migration plan's export and import lists, and moving records with it. hpart_migration_move
! is generic over the record's type: one real(c_double), integer(c_int32_t) or
! integer(c_int64_t) per object (rank-1 arrays), or a column of reals per object (rank-2:
! in(:, i) is object i's record); `out` needs room for hpart_migration_num_imports records.
module hpart_moves
  use, intrinsic :: iso_c_binding
  use mpi_f08, only: MPI_Comm, MPI_Comm_size, MPI_COMM_NULL, operator(==)
  use hpart_c_types
  use hpart_c
  use hpart_base
  implicit none
  private
  public :: hpart_migration_send_counts, hpart_migration_recv_counts, hpart_migration_destinations, &
    hpart_migration_move

  interface hpart_migration_move
    module procedure move_d1, move_d2, move_i32, move_i64
  end interface

contains

  ! Records sent to each rank (counts(r + 1) for rank r, self included): a copy.
  subroutine hpart_migration_send_counts(plan, counts, stat, errmsg)
    type(hpart_migration), intent(in) :: plan
    integer, allocatable, intent(out) :: counts(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: p
    integer(c_int) :: rc
    rc = hpartc_migration_send_counts(plan%h, p)
    call copy_counts(plan, rc, p, counts, stat, errmsg)
  end subroutine
  ! Records received from each rank; imports arrive grouped by source rank, in its local order.
  subroutine hpart_migration_recv_counts(plan, counts, stat, errmsg)
    type(hpart_migration), intent(in) :: plan
    integer, allocatable, intent(out) :: counts(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: p
    integer(c_int) :: rc
    rc = hpartc_migration_recv_counts(plan%h, p)
    call copy_counts(plan, rc, p, counts, stat, errmsg)
  end subroutine

  subroutine copy_counts(plan, rc, p, counts, stat, errmsg)
    type(hpart_migration), intent(in) :: plan
    integer(c_int), intent(in) :: rc
    type(c_ptr), intent(in) :: p
    integer, allocatable, intent(out) :: counts(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int), pointer :: view(:)
    type(MPI_Comm) :: comm
    integer :: nranks
    nranks = 0
    comm%MPI_VAL = plan%comm
    if (rc == HPART_OK .and. .not. (comm == MPI_COMM_NULL)) call MPI_Comm_size(comm, nranks)
    allocate (counts(nranks))
    if (nranks > 0) then
      call c_f_pointer(p, view, [nranks])
      counts = int(view)
    end if
    call finish(rc, stat, errmsg)
  end subroutine

  ! The destination rank (0-based) of each local object (self included): the export list, a copy
  ! of as many values as the plan has local objects (the sum of its send counts).
  subroutine hpart_migration_destinations(plan, ranks, stat, errmsg)
    type(hpart_migration), intent(in) :: plan
    integer(c_int32_t), allocatable, intent(out) :: ranks(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer, allocatable :: counts(:)
    integer(c_int32_t), pointer :: view(:)
    type(c_ptr) :: p
    integer(c_int) :: rc
    integer :: code
    call hpart_migration_send_counts(plan, counts, code)
    rc = int(code, c_int)
    if (rc == HPART_OK) rc = hpartc_migration_destinations(plan%h, p)
    allocate (ranks(0))
    if (rc == HPART_OK .and. sum(counts) > 0) then
      call c_f_pointer(p, view, [sum(counts)])
      ranks = view
    end if
    call finish(rc, stat, errmsg)
  end subroutine

  subroutine move_d1(plan, in, out, stat, errmsg)
    type(hpart_migration), intent(in) :: plan
    real(c_double), intent(in), target, contiguous :: in(:)
    real(c_double), intent(inout), target, contiguous :: out(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_migration_move(plan%h, c_addr(in), size(in, kind=c_int64_t), c_sizeof(0.0_c_double), &
                                      c_addr(out), size(out, kind=c_int64_t)), stat, errmsg)
  end subroutine
  subroutine move_d2(plan, in, out, stat, errmsg)
    type(hpart_migration), intent(in) :: plan
    real(c_double), intent(in), target, contiguous :: in(:, :)
    real(c_double), intent(inout), target, contiguous :: out(:, :)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_size_t) :: record
    integer(c_int) :: code
    character(:), allocatable :: msg
    record = c_sizeof(0.0_c_double) * size(in, 1)
    code = HPART_OK
    msg = ''
    if (size(out, 1) /= size(in, 1)) code = HPART_ERR_SIZE_MISMATCH
    if (code /= HPART_OK) msg = 'hpart_migration_move: out: records (columns) of the size of in''s'
    call agree(plan%comm, code, msg)
    if (code /= HPART_OK) then
      call fail(code, msg, stat, errmsg)
      return
    end if
    call finish(hpartc_migration_move(plan%h, c_addr(in), size(in, 2, kind=c_int64_t), record, c_addr(out), &
                                      size(out, 2, kind=c_int64_t)), stat, errmsg)
  end subroutine
  subroutine move_i32(plan, in, out, stat, errmsg)
    type(hpart_migration), intent(in) :: plan
    integer(c_int32_t), intent(in), target, contiguous :: in(:)
    integer(c_int32_t), intent(inout), target, contiguous :: out(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_migration_move(plan%h, c_addr(in), size(in, kind=c_int64_t), c_sizeof(0_c_int32_t), &
                                      c_addr(out), size(out, kind=c_int64_t)), stat, errmsg)
  end subroutine
  subroutine move_i64(plan, in, out, stat, errmsg)
    type(hpart_migration), intent(in) :: plan
    integer(c_int64_t), intent(in), target, contiguous :: in(:)
    integer(c_int64_t), intent(inout), target, contiguous :: out(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_migration_move(plan%h, c_addr(in), size(in, kind=c_int64_t), c_sizeof(0_c_int64_t), &
                                      c_addr(out), size(out, kind=c_int64_t)), stat, errmsg)
  end subroutine
end module hpart_moves
