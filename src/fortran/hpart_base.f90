! What every Fortran wrapper shares: the handle types, the status pattern (stat / errmsg), C
! strings, C addresses of Fortran arrays, and the agreement of checks made in Fortran before a
! collective call.
!
! Status pattern (the one of Fortran's own ALLOCATE): every wrapper is a subroutine with the
! optional arguments `stat` (integer: HPART_OK = 0 or an HPART_ERR_* code) and `errmsg` (a
! character variable of any length: the message, truncated to it; blank on success); the whole
! message is always hpart_last_error(), a character(:), allocatable. Without `stat`, a failure
! stops the program with the message (error stop); collective calls fail alike on every rank.
! (errmsg is not a deferred-length allocatable: gfortran 12 mishandles optional ones passed on.)
module hpart_base
  use, intrinsic :: iso_c_binding
  use mpi_f08, only: MPI_Comm, MPI_COMM_NULL, MPI_Comm_rank, MPI_Allreduce, MPI_Bcast, MPI_MIN, &
    MPI_INTEGER, MPI_CHARACTER, operator(==)
  use hpart_c_types
  use hpart_c
  implicit none
  private
  public :: hpart_points, hpart_grid, hpart_graph, hpart_partition, hpart_rebalancer, hpart_migration, &
    hpart_map
  public :: hpart_last_error, hpart_status_string, finish, fail, agree, c_string, f_string, &
    c_addr, ok_contiguous

  ! Opaque handles: h is the C handle (c_null_ptr before create and after free). The
  ! rebalancer and the migration plan remember their communicator, so that checks made in
  ! Fortran can be agreed on before the collective C call.
  type :: hpart_points
    type(c_ptr) :: h = c_null_ptr
  end type
  type :: hpart_grid
    type(c_ptr) :: h = c_null_ptr
  end type
  type :: hpart_graph
    type(c_ptr) :: h = c_null_ptr
  end type
  type :: hpart_partition
    type(c_ptr) :: h = c_null_ptr
  end type
  type :: hpart_rebalancer
    type(c_ptr) :: h = c_null_ptr
    integer :: comm = 0
  end type
  type :: hpart_migration
    type(c_ptr) :: h = c_null_ptr
    integer :: comm = 0
  end type
  type :: hpart_map
    type(c_ptr) :: h = c_null_ptr
  end type

  ! The message of the last failure found in Fortran (unallocated once a wrapper calls C again).
  ! One per process, unlike C's per-thread message: call the wrappers from one thread at a time.
  character(:), allocatable, save :: last_message

  interface c_addr
    module procedure addr_d1, addr_d2, addr_i32, addr_i64, addr_i32_2
  end interface

contains

  ! The message of the last failing call ("" if none): of a check made in Fortran when that was
  ! the last wrapper's failure, else C's hpart_last_error() (this thread's last failing C call).
  function hpart_last_error() result(msg)
    character(:), allocatable :: msg
    if (allocated(last_message)) then
      msg = last_message
    else
      msg = f_string(hpartc_last_error())
    end if
  end function

  ! The constant name of a status: "HPART_OK", "HPART_ERR_IO", ...
  function hpart_status_string(status) result(name)
    integer, intent(in) :: status
    character(:), allocatable :: name
    name = f_string(hpartc_status_string(int(status, c_int)))
  end function

  ! Ends a wrapper: rc is the C call's status (its message is C's hpart_last_error()).
  subroutine finish(rc, stat, errmsg)
    integer(c_int), intent(in) :: rc
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    if (allocated(last_message)) deallocate (last_message)
    if (rc == HPART_OK) then
      if (present(stat)) stat = HPART_OK
      if (present(errmsg)) errmsg = ''
      return
    end if
    call report(rc, f_string(hpartc_last_error()), stat, errmsg)
  end subroutine

  ! Ends a wrapper with a failure found in Fortran, before any C call: hpart_last_error() gives
  ! its message until the next wrapper calls C.
  subroutine fail(code, msg, stat, errmsg)
    integer(c_int), intent(in) :: code
    character(*), intent(in) :: msg
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    last_message = msg
    call report(code, msg, stat, errmsg)
  end subroutine

  ! Hands code and message back, or stops without `stat`.
  subroutine report(code, msg, stat, errmsg)
    integer(c_int), intent(in) :: code
    character(*), intent(in) :: msg
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    if (present(errmsg)) errmsg = msg
    if (present(stat)) then
      stat = code
    else
      error stop 'hpart: ' // msg
    end if
  end subroutine

  ! Collective over fcomm: every rank ends with the code and message of the lowest rank whose
  ! code is not HPART_OK, the message led by "rank r: " as the C API's (unchanged when every
  ! rank's code is HPART_OK). Checks made in Fortran before a
  ! collective C call go through here, so that no rank returns while others enter the call.
  ! With MPI_COMM_NULL nothing is exchanged and the codes are cleared: the C call refuses it.
  subroutine agree(fcomm, code, msg)
    integer, intent(in) :: fcomm
    integer(c_int), intent(inout) :: code
    character(:), allocatable, intent(inout) :: msg
    type(MPI_Comm) :: comm
    integer :: rank, mine(1), first(1), meta(2)
    character(24) :: lead
    comm%MPI_VAL = fcomm
    if (comm == MPI_COMM_NULL) then
      code = HPART_OK
      return
    end if
    call MPI_Comm_rank(comm, rank)
    mine(1) = merge(rank, huge(rank), code /= HPART_OK)
    call MPI_Allreduce(mine, first, 1, MPI_INTEGER, MPI_MIN, comm)
    if (first(1) == huge(rank)) return
    if (.not. allocated(msg)) msg = ''
    meta = [int(code), len(msg)]
    call MPI_Bcast(meta, 2, MPI_INTEGER, first(1), comm)
    code = int(meta(1), c_int)
    if (rank /= first(1)) then
      deallocate (msg)
      allocate (character(meta(2)) :: msg)
    end if
    call MPI_Bcast(msg, meta(2), MPI_CHARACTER, first(1), comm)
    write (lead, '(a, i0, a)') 'rank ', first(1), ': '
    msg = trim(lead) // ' ' // msg
  end subroutine

  ! A NUL-terminated copy of s for C.
  function c_string(s) result(c)
    character(*), intent(in) :: s
    character(kind=c_char, len=:), allocatable :: c
    c = trim(s) // c_null_char
  end function

  ! A Fortran copy of a C string ("" for NULL).
  function f_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: n
    if (.not. c_associated(p)) then
      s = ''
      return
    end if
    call c_f_pointer(p, chars, [1073741823])
    n = 0
    do while (chars(n + 1) /= c_null_char)
      n = n + 1
    end do
    allocate (character(n) :: s)
    s = transfer(chars(1:n), s)
  end function

  ! Whether an array the C side will borrow is contiguous (else code and msg say so).
  subroutine ok_contiguous(contiguous, name, code, msg)
    logical, intent(in) :: contiguous
    character(*), intent(in) :: name
    integer(c_int), intent(inout) :: code
    character(:), allocatable, intent(inout) :: msg
    if (contiguous .or. code /= HPART_OK) return
    code = HPART_ERR_INVALID_ARGUMENT
    msg = name // ': the arrays must be contiguous (hpart reads them in place)'
  end subroutine

  ! C addresses of arrays: c_null_ptr for an empty one (C's "none"), else the first element.
  function addr_d1(a) result(p)
    real(c_double), intent(in), target :: a(:)
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(a) > 0) p = c_loc(a(1))
  end function
  function addr_d2(a) result(p)
    real(c_double), intent(in), target :: a(:, :)
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(a) > 0) p = c_loc(a(1, 1))
  end function
  function addr_i32(a) result(p)
    integer(c_int32_t), intent(in), target :: a(:)
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(a) > 0) p = c_loc(a(1))
  end function
  function addr_i32_2(a) result(p)
    integer(c_int32_t), intent(in), target :: a(:, :)
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(a) > 0) p = c_loc(a(1, 1))
  end function
  function addr_i64(a) result(p)
    integer(c_int64_t), intent(in), target :: a(:)
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(a) > 0) p = c_loc(a(1))
  end function
end module hpart_base
