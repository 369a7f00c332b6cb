! Bad input from Fortran at np > 1: every case fails with the expected status and the same
! message on every rank (compared by MPI_Allreduce min/max of the status and of a hash of the
! message), never a hang (the ctest timeout) or a crash. Cases: MPI_COMM_NULL, a freed handle on
! every rank and on one rank, NULL arrays and negative lengths (raw C bindings), a vtxdist that
! disagrees across ranks, lengths wrong and a borrowed array not contiguous on one rank (found in
! Fortran, then agreed), an uninitialised options struct, K = 0, K that differs across ranks, a
! NaN on one rank, a migration output too small on one rank, a freed Rebalancer on one rank.
program f_bad_input
  use, intrinsic :: iso_c_binding
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
  use mpi_f08
  use hpart
  use hpart_c, only: hpartc_points_create, hpartc_graph_create_i64_f, hpartc_graph_free, hpartc_last_error
  use hpart_base, only: f_string
  use ftest_support
  implicit none
  integer :: rank, nranks, stat, cases
  character(512) :: msg
  real(c_double), allocatable, target :: coords(:, :), weights(:)
  integer(c_int64_t), allocatable, target :: ids(:), vtxdist(:), xadj(:), adjncy(:)
  type(hpart_points) :: points
  type(hpart_point_options) :: opts
  type(hpart_partition) :: part

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  call check(nranks > 1, 'run at np > 1')
  cases = 0
  call test_points(rank, nranks, 300_c_int64_t, coords, weights, ids)
  call hpart_points_create(coords, points)
  call hpart_point_options_init(opts)
  opts%parts = 3
  call grid_graph(rank, nranks, 8, 6, vtxdist, xadj, adjncy)

  call hpart_partition_points(MPI_COMM_NULL, points, opts, part, stat, msg)
  call expect(HPART_ERR_INVALID_ARGUMENT, 'MPI_COMM_NULL', 'MPI_COMM_NULL')
  call freed_handles()
  call raw_c_arrays()
  call graph_cases()
  call option_cases()
  call value_cases()
  call migration_case()
  call rebalancer_case()
  call hpart_points_free(points)
  if (rank == 0) write (*, '(a, i0, a)') 'f_bad_input: ', cases, ' cases failed alike on every rank'
  call MPI_Finalize()

contains

  ! The last call failed with `code` (0: any non-OK code) alike on every rank, with a message
  ! naming `word`.
  subroutine expect(code, word, what)
    integer(c_int), intent(in) :: code
    character(*), intent(in) :: word, what
    integer :: mine(2), lo(2), hi(2)
    cases = cases + 1
    call check(stat /= HPART_OK, what // ': fails')
    call check(code == 0 .or. stat == code, what // ': status ' // hpart_status_string(stat) // ', ' // trim(msg))
    call check(len_trim(msg) > 0 .and. index(msg, word) > 0, &
               what // ': the message names ' // word // ': ' // trim(msg))
    call check(hpart_last_error() == msg, what // ': hpart_last_error is the message')
    mine = [stat, message_hash(trim(msg))]
    call MPI_Allreduce(mine, lo, 2, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD)
    call MPI_Allreduce(mine, hi, 2, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD)
    call check(all(lo == hi), what // ': the same status and message on every rank')
    if (rank == 0) write (*, '(a)') what // ' -> ' // hpart_status_string(stat) // ': ' // trim(msg)
  end subroutine

  subroutine freed_handles()
    type(hpart_points) :: stale, other
    type(hpart_partition) :: p
    call hpart_points_create(coords, other)
    stale = other
    call hpart_points_free(other)
    call hpart_partition_points(MPI_COMM_WORLD, stale, opts, p, stat, msg)
    call expect(HPART_ERR_INVALID_ARGUMENT, 'points', 'a freed handle on every rank')
    if (rank == 1) then
      call hpart_partition_points(MPI_COMM_WORLD, stale, opts, p, stat, msg)
    else
      call hpart_partition_points(MPI_COMM_WORLD, points, opts, p, stat, msg)
    end if
    call expect(HPART_ERR_INVALID_ARGUMENT, 'points', 'a freed handle on rank 1')
    call check(.not. c_associated(p%h), 'no partition handle after a failure')
    call hpart_points_free(stale, stat, msg)
    call expect(HPART_ERR_INVALID_ARGUMENT, 'handle', 'freeing a freed handle')
  end subroutine

  ! Raw bindings: NULL arrays and negative lengths reach the C checks.
  subroutine raw_c_arrays()
    type(c_ptr) :: h
    type(hpart_graph) :: g
    stat = hpartc_points_create(3_c_int, -5_c_int64_t, c_loc(coords), h)
    msg = f_string(hpartc_last_error())
    call expect(HPART_ERR_INVALID_ARGUMENT, 'n', 'a negative length')
    stat = hpartc_points_create(3_c_int, 10_c_int64_t, c_null_ptr, h)
    msg = f_string(hpartc_last_error())
    call expect(HPART_ERR_INVALID_ARGUMENT, 'coords', 'a NULL coords array')
    if (rank == 0) then
      stat = hpartc_graph_create_i64_f(MPI_COMM_WORLD%MPI_VAL, c_loc(vtxdist), c_null_ptr, c_loc(adjncy), &
                                       c_null_ptr, 1_c_int, c_null_ptr, g%h)
    else
      stat = hpartc_graph_create_i64_f(MPI_COMM_WORLD%MPI_VAL, c_loc(vtxdist), c_loc(xadj), c_loc(adjncy), &
                                       c_null_ptr, 1_c_int, c_null_ptr, g%h)
    end if
    msg = f_string(hpartc_last_error())
    call expect(HPART_ERR_INVALID_ARGUMENT, 'xadj', 'a NULL xadj on rank 0')
    if (c_associated(g%h)) stat = hpartc_graph_free(g%h)
  end subroutine

  subroutine graph_cases()
    type(hpart_graph) :: g
    type(hpart_graph_options) :: gopts
    type(hpart_partition) :: p
    integer(c_int64_t), allocatable, target :: shifted(:), short(:), wide(:, :)
    integer(c_int32_t), allocatable, target :: v32(:), x32(:, :), xc32(:), a32(:)
    integer(c_int32_t), allocatable :: parts(:)
    type(hpart_graph_metrics) :: gm
    ! Lengths off on the last rank only: found in Fortran, agreed, named.
    short = xadj
    if (rank == nranks - 1) short = xadj(1:size(xadj) - 1)
    call hpart_graph_create(MPI_COMM_WORLD, vtxdist, short, adjncy, g, stat=stat, errmsg=msg)
    call expect(HPART_ERR_SIZE_MISMATCH, 'xadj', 'xadj one short on the last rank')
    ! A borrowed array that is not contiguous on rank 0 (a copy would not outlive the call).
    wide = spread(vtxdist, 1, 2)
    if (rank == 0) then
      call hpart_graph_create(MPI_COMM_WORLD, wide(1, :), xadj, adjncy, g, stat=stat, errmsg=msg)
    else
      call hpart_graph_create(MPI_COMM_WORLD, vtxdist, xadj, adjncy, g, stat=stat, errmsg=msg)
    end if
    call expect(HPART_ERR_INVALID_ARGUMENT, 'contiguous', 'a non-contiguous vtxdist on rank 0')
    ! The same for 32-bit arrays (borrowed too): a strided xadj on the last rank.
    x32 = int(spread(xadj, 1, 2), c_int32_t)
    xc32 = int(xadj, c_int32_t)
    v32 = int(vtxdist, c_int32_t)
    a32 = int(adjncy, c_int32_t)
    if (rank == nranks - 1) then
      call hpart_graph_create(MPI_COMM_WORLD, v32, x32(2, :), a32, g, stat=stat, errmsg=msg)
    else
      call hpart_graph_create(MPI_COMM_WORLD, v32, xc32, a32, g, stat=stat, errmsg=msg)
    end if
    call expect(HPART_ERR_INVALID_ARGUMENT, 'contiguous', 'a non-contiguous 32-bit xadj on the last rank')
    ! vtxdist that disagrees: the last rank's is shifted by one past its first value (its own
    ! block keeps its length, so only the comparison over ranks can find it).
    shifted = vtxdist
    if (rank == nranks - 1) shifted(2:) = vtxdist(2:) + 1
    call hpart_graph_options_init(gopts)
    gopts%parts = 2
    call hpart_graph_create(MPI_COMM_WORLD, shifted, xadj, adjncy, g, stat=stat, errmsg=msg)
    if (stat == HPART_OK) call hpart_partition_graph(MPI_COMM_WORLD, g, gopts, p, stat, msg)
    call expect(0_c_int, 'vtxdist', 'vtxdist that differs on the last rank')
    call hpart_graph_free(g)
    ! A cut with one part id too few on rank 0.
    call hpart_graph_create(MPI_COMM_WORLD, vtxdist, xadj, adjncy, g)
    allocate (parts(size(xadj) - 1 - merge(1, 0, rank == 0)))
    parts = 0
    call hpart_graph_cut(MPI_COMM_WORLD, g, parts, 2, gm, stat, msg)
    call expect(HPART_ERR_SIZE_MISMATCH, 'parts', 'cut parts one short on rank 0')
    call hpart_graph_free(g)
  end subroutine

  subroutine option_cases()
    type(hpart_point_options) :: raw
    type(hpart_partition) :: p
    call hpart_partition_points(MPI_COMM_WORLD, points, raw, p, stat, msg)
    call expect(HPART_ERR_INVALID_ARGUMENT, 'init', 'options not initialised')
    raw = opts
    raw%parts = 0
    call hpart_partition_points(MPI_COMM_WORLD, points, raw, p, stat, msg)
    call expect(0_c_int, 'parts', 'K = 0')
    raw%parts = 3 + rank
    call hpart_partition_points(MPI_COMM_WORLD, points, raw, p, stat, msg)
    call expect(0_c_int, 'parts', 'K that differs across ranks')
  end subroutine

  subroutine value_cases()
    type(hpart_points) :: bad
    type(hpart_partition) :: p
    real(c_double), allocatable, target :: nan_coords(:, :)
    nan_coords = coords
    if (rank == 1) nan_coords(2, 1) = ieee_value(0.0_c_double, ieee_quiet_nan)
    call hpart_points_create(nan_coords, bad)
    call hpart_partition_points(MPI_COMM_WORLD, bad, opts, p, stat, msg)
    call expect(HPART_ERR_INVALID_INPUT, '', 'a NaN coordinate on rank 1')
    call hpart_points_free(bad)
    call hpart_evaluate_partition(MPI_COMM_WORLD, spread(0_c_int32_t, 1, size(weights)), 2, p, &
                                  weights=weights(1:size(weights) - merge(1, 0, rank == 1)), stat=stat, errmsg=msg)
    call expect(HPART_ERR_SIZE_MISMATCH, 'weights', 'evaluate weights one short on rank 1')
  end subroutine

  ! A plan whose output array is too small on the last rank.
  subroutine migration_case()
    type(hpart_migration) :: plan
    integer(c_int32_t), allocatable :: parts(:)
    integer(c_int64_t), allocatable :: out(:), p64(:)
    integer(c_int64_t) :: nin
    parts = int(modulo(ids, 3_c_int64_t), c_int32_t)
    call hpart_migration_create(MPI_COMM_WORLD, parts, 3, plan)
    call hpart_migration_num_imports(plan, nin)
    allocate (out(max(nin - merge(1, 0, rank == nranks - 1), 0_c_int64_t)))
    call hpart_migration_move(plan, ids, out, stat, msg)
    call expect(0_c_int, 'out', 'migration output one short on the last rank')
    call hpart_migration_free(plan)
    ! 64-bit part ids go to C whole (hpart_migration_create_i64_f): one beyond 2^31 on the last
    ! rank is refused by name, never narrowed into a valid id.
    p64 = modulo(ids, 3_c_int64_t)
    if (rank == nranks - 1) p64(1) = 3_c_int64_t + 2_c_int64_t**32
    call hpart_migration_create(MPI_COMM_WORLD, p64, 3, plan, stat=stat, errmsg=msg)
    call expect(HPART_ERR_INVALID_ARGUMENT, 'parts[0] = 4294967299', '64-bit part id beyond 2^32 on the last rank')
  end subroutine

  ! The Rebalancer freed on rank 0 only: the others' decide must not hang.
  subroutine rebalancer_case()
    type(hpart_rebalancer) :: rb, stale
    type(hpart_rebalance_options) :: ropts
    type(hpart_decision) :: d
    call hpart_rebalance_options_init(ropts)
    ropts%parts = 3
    call hpart_rebalancer_create(MPI_COMM_WORLD, ropts, rb)
    stale = rb
    if (rank == 0) call hpart_rebalancer_free(rb)
    call hpart_rebalancer_decide(stale, d, stat, msg)
    call expect(HPART_ERR_INVALID_ARGUMENT, 'rebalancer', 'a Rebalancer freed on rank 0')
    if (rank /= 0) call hpart_rebalancer_free(rb)
  end subroutine
end program f_bad_input
