! The Rebalancer (observe, decide, rebalance) and migration plans (counts, export and import
! lists, moving fixed-size records). Both are collective over the communicator they were created
! on, which the Fortran handle remembers (to agree on checks made in Fortran).
module hpart_dynamic
  use, intrinsic :: iso_c_binding
  use mpi_f08, only: MPI_Comm, MPI_Comm_size
  use hpart_c_types
  use hpart_c
  use hpart_base
  implicit none
  private
  public :: hpart_rebalancer_create, hpart_rebalancer_partition_points, hpart_rebalancer_partition_graph, &
    hpart_rebalancer_observe, hpart_rebalancer_decide, hpart_rebalancer_rebalance_points, &
    hpart_rebalancer_rebalance_graph, hpart_rebalancer_record_migration_seconds, hpart_rebalancer_stats, &
    hpart_rebalancer_free, hpart_decision_reason
  public :: hpart_migration_create, hpart_migration_from_partition, hpart_migration_num_imports, &
    hpart_migration_num_exports, hpart_migration_imported_ids, hpart_migration_free

  interface hpart_rebalancer_create
    module procedure rebalancer_create_i, rebalancer_create_t
  end interface
  ! (comm, parts, num_parts, plan [, owner_of_part, ids, stat, errmsg]): parts 0-based, 32 or 64-bit.
  interface hpart_migration_create
    module procedure migration_create_i32, migration_create_i64, migration_create_i32_t, migration_create_i64_t
  end interface
  interface hpart_migration_from_partition
    module procedure from_partition_i, from_partition_t
  end interface

contains

  ! ---- Rebalancer
  subroutine rebalancer_create_i(comm, opts, rb, stat, errmsg)
    integer, intent(in) :: comm
    type(hpart_rebalance_options), intent(in) :: opts
    type(hpart_rebalancer), intent(out) :: rb
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    rb%comm = comm
    call finish(hpartc_rebalancer_create_f(int(comm, c_int), opts, rb%h), stat, errmsg)
  end subroutine
  subroutine rebalancer_create_t(comm, opts, rb, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    type(hpart_rebalance_options), intent(in) :: opts
    type(hpart_rebalancer), intent(out) :: rb
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call rebalancer_create_i(comm%MPI_VAL, opts, rb, stat, errmsg)
  end subroutine

  subroutine hpart_rebalancer_partition_points(rb, points, part, stat, errmsg)
    type(hpart_rebalancer), intent(in) :: rb
    type(hpart_points), intent(in) :: points
    type(hpart_partition), intent(out) :: part
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_rebalancer_partition_points(rb%h, points%h, part%h), stat, errmsg)
  end subroutine
  subroutine hpart_rebalancer_partition_graph(rb, graph, part, stat, errmsg)
    type(hpart_rebalancer), intent(in) :: rb
    type(hpart_graph), intent(in) :: graph
    type(hpart_partition), intent(out) :: part
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_rebalancer_partition_graph(rb%h, graph%h, part%h), stat, errmsg)
  end subroutine

  ! One step's measurements (all optional, the same ones on every rank): the step's seconds,
  ! each local object's cost, features(:, i) of object i, parts (0-based; absent: the last
  ! returned partition's). The arrays present must agree on the number of local objects.
  subroutine hpart_rebalancer_observe(rb, step_seconds, object_costs, features, parts, stat, errmsg)
    type(hpart_rebalancer), intent(in) :: rb
    real(c_double), intent(in), optional :: step_seconds
    real(c_double), intent(in), target, contiguous, optional :: object_costs(:), features(:, :)
    integer(c_int32_t), intent(in), target, contiguous, optional :: parts(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(hpart_observation) :: obs
    integer(c_int) :: code
    character(:), allocatable :: msg
    code = hpartc_observation_init(obs)
    obs%n = -1
    if (present(step_seconds)) obs%has_step_seconds = 1
    if (present(step_seconds)) obs%step_seconds = step_seconds
    if (present(object_costs)) call take(size(object_costs, kind=c_int64_t), c_addr(object_costs), obs%object_costs)
    if (present(features)) call take(size(features, 2, kind=c_int64_t), c_addr(features), obs%features)
    if (present(features)) obs%nfeatures = int(size(features, 1), c_int)
    if (present(parts)) call take(size(parts, kind=c_int64_t), c_addr(parts), obs%parts)
    if (obs%n < 0) obs%n = 0
    call agree(rb%comm, code, msg)
    if (code /= HPART_OK) then
      call fail(code, msg, stat, errmsg)
      return
    end if
    call finish(hpartc_rebalancer_observe(rb%h, obs), stat, errmsg)
  contains
    subroutine take(count, p, field)
      integer(c_int64_t), intent(in) :: count
      type(c_ptr), intent(in) :: p
      type(c_ptr), intent(out) :: field
      field = p
      if (obs%n >= 0 .and. obs%n /= count .and. code == HPART_OK) then
        code = HPART_ERR_SIZE_MISMATCH
        msg = 'hpart_rebalancer_observe: object_costs, features and parts must hold the same number of objects'
      end if
      obs%n = count
    end subroutine
  end subroutine

  subroutine hpart_rebalancer_decide(rb, decision, stat, errmsg)
    type(hpart_rebalancer), intent(in) :: rb
    type(hpart_decision), intent(out) :: decision
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int) :: rc
    rc = hpartc_decision_init(decision)
    call finish(hpartc_rebalancer_decide(rb%h, decision), stat, errmsg)
  end subroutine

  ! The decision's reason as a Fortran string.
  function hpart_decision_reason(decision) result(reason)
    type(hpart_decision), intent(in) :: decision
    character(:), allocatable :: reason
    integer :: n
    n = 0
    do while (n < size(decision%reason))
      if (decision%reason(n + 1) == c_null_char) exit
      n = n + 1
    end do
    allocate (character(n) :: reason)
    if (n > 0) reason = transfer(decision%reason(1:n), reason)
  end function

  ! parts: the current part of each local object (0-based; absent: the last returned partition's).
  subroutine hpart_rebalancer_rebalance_points(rb, points, part, parts, stat, errmsg)
    type(hpart_rebalancer), intent(in) :: rb
    type(hpart_points), intent(in) :: points
    type(hpart_partition), intent(out) :: part
    integer(c_int32_t), intent(in), target, contiguous, optional :: parts(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: p
    integer(c_int64_t) :: n
    integer(c_int) :: code
    character(:), allocatable :: msg
    p = c_null_ptr
    code = HPART_OK
    msg = ''
    if (present(parts)) then
      p = c_addr(parts)
      if (hpartc_points_size(points%h, n) == HPART_OK) then
        if (n /= size(parts)) code = HPART_ERR_SIZE_MISMATCH
        msg = 'hpart_rebalancer_rebalance_points: parts: one per local point'
      end if
    end if
    call agree(rb%comm, code, msg)
    if (code /= HPART_OK) then
      call fail(code, msg, stat, errmsg)
      return
    end if
    call finish(hpartc_rebalancer_rebalance_points(rb%h, points%h, p, part%h), stat, errmsg)
  end subroutine
  subroutine hpart_rebalancer_rebalance_graph(rb, graph, part, parts, stat, errmsg)
    type(hpart_rebalancer), intent(in) :: rb
    type(hpart_graph), intent(in) :: graph
    type(hpart_partition), intent(out) :: part
    integer(c_int32_t), intent(in), target, contiguous, optional :: parts(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: p
    integer(c_int64_t) :: n
    integer(c_int) :: code
    character(:), allocatable :: msg
    p = c_null_ptr
    code = HPART_OK
    msg = ''
    if (present(parts)) then
      p = c_addr(parts)
      if (hpartc_graph_local_vertices(graph%h, n) == HPART_OK) then
        if (n /= size(parts)) code = HPART_ERR_SIZE_MISMATCH
        msg = 'hpart_rebalancer_rebalance_graph: parts: one per local vertex'
      end if
    end if
    call agree(rb%comm, code, msg)
    if (code /= HPART_OK) then
      call fail(code, msg, stat, errmsg)
      return
    end if
    call finish(hpartc_rebalancer_rebalance_graph(rb%h, graph%h, p, part%h), stat, errmsg)
  end subroutine

  subroutine hpart_rebalancer_record_migration_seconds(rb, seconds, stat, errmsg)
    type(hpart_rebalancer), intent(in) :: rb
    real(c_double), intent(in) :: seconds
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_rebalancer_record_migration_seconds(rb%h, seconds), stat, errmsg)
  end subroutine

  subroutine hpart_rebalancer_stats(rb, stats, stat, errmsg)
    type(hpart_rebalancer), intent(in) :: rb
    type(hpart_rebalance_stats), intent(out) :: stats
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int) :: rc
    rc = hpartc_rebalance_stats_init(stats)
    call finish(hpartc_rebalancer_stats(rb%h, stats), stat, errmsg)
  end subroutine

  subroutine hpart_rebalancer_free(rb, stat, errmsg)
    type(hpart_rebalancer), intent(inout) :: rb
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_rebalancer_free(rb%h), stat, errmsg)
  end subroutine

  ! ---- Migration plans
  ! The checks of both widths' plans, agreed over comm: po and pi are owner_of_part's and ids'
  ! addresses (or c_null_ptr); ok is false (and stat/errmsg set) when a check failed.
  subroutine migration_args(comm, n, num_parts, owner_of_part, ids, po, pi, ok, stat, errmsg)
    integer, intent(in) :: comm, num_parts
    integer(c_int64_t), intent(in) :: n
    integer(c_int32_t), intent(in), target, contiguous, optional :: owner_of_part(:)
    integer(c_int64_t), intent(in), target, contiguous, optional :: ids(:)
    type(c_ptr), intent(out) :: po, pi
    logical, intent(out) :: ok
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int) :: code
    character(:), allocatable :: msg
    po = c_null_ptr
    pi = c_null_ptr
    code = HPART_OK
    msg = ''
    if (present(owner_of_part)) po = c_addr(owner_of_part)
    if (present(ids)) pi = c_addr(ids)
    if (present(owner_of_part)) then
      if (size(owner_of_part) /= num_parts) code = HPART_ERR_SIZE_MISMATCH
      msg = 'hpart_migration_create: owner_of_part: num_parts values'
    end if
    if (present(ids) .and. code == HPART_OK) then
      if (size(ids, kind=c_int64_t) /= n) code = HPART_ERR_SIZE_MISMATCH
      msg = 'hpart_migration_create: ids: one per local object'
    end if
    call agree(comm, code, msg)
    ok = code == HPART_OK
    if (.not. ok) call fail(code, msg, stat, errmsg)
  end subroutine
  subroutine migration_create_i32(comm, parts, num_parts, plan, owner_of_part, ids, stat, errmsg)
    integer, intent(in) :: comm, num_parts
    integer(c_int32_t), intent(in), target, contiguous :: parts(:)
    type(hpart_migration), intent(out) :: plan
    integer(c_int32_t), intent(in), target, contiguous, optional :: owner_of_part(:)
    integer(c_int64_t), intent(in), target, contiguous, optional :: ids(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: po, pi
    logical :: ok
    call migration_args(comm, size(parts, kind=c_int64_t), num_parts, owner_of_part, ids, po, pi, ok, stat, errmsg)
    if (.not. ok) return
    plan%comm = comm
    call finish(hpartc_migration_create_f(int(comm, c_int), c_addr(parts), size(parts, kind=c_int64_t), &
                                          int(num_parts, c_int), po, pi, plan%h), stat, errmsg)
  end subroutine
  ! 64-bit part ids go to the C API's _i64 form (which checks each fits a part id), not narrowed
  ! here.
  subroutine migration_create_i64(comm, parts, num_parts, plan, owner_of_part, ids, stat, errmsg)
    integer, intent(in) :: comm, num_parts
    integer(c_int64_t), intent(in), target, contiguous :: parts(:)
    type(hpart_migration), intent(out) :: plan
    integer(c_int32_t), intent(in), target, contiguous, optional :: owner_of_part(:)
    integer(c_int64_t), intent(in), target, contiguous, optional :: ids(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: po, pi
    logical :: ok
    call migration_args(comm, size(parts, kind=c_int64_t), num_parts, owner_of_part, ids, po, pi, ok, stat, errmsg)
    if (.not. ok) return
    plan%comm = comm
    call finish(hpartc_migration_create_i64_f(int(comm, c_int), c_addr(parts), size(parts, kind=c_int64_t), &
                                              int(num_parts, c_int), po, pi, plan%h), stat, errmsg)
  end subroutine
  subroutine migration_create_i32_t(comm, parts, num_parts, plan, owner_of_part, ids, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    integer(c_int32_t), intent(in), target, contiguous :: parts(:)
    integer, intent(in) :: num_parts
    type(hpart_migration), intent(out) :: plan
    integer(c_int32_t), intent(in), target, contiguous, optional :: owner_of_part(:)
    integer(c_int64_t), intent(in), target, contiguous, optional :: ids(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call migration_create_i32(comm%MPI_VAL, parts, num_parts, plan, owner_of_part, ids, stat, errmsg)
  end subroutine
  subroutine migration_create_i64_t(comm, parts, num_parts, plan, owner_of_part, ids, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    integer(c_int64_t), intent(in), target, contiguous :: parts(:)
    integer, intent(in) :: num_parts
    type(hpart_migration), intent(out) :: plan
    integer(c_int32_t), intent(in), target, contiguous, optional :: owner_of_part(:)
    integer(c_int64_t), intent(in), target, contiguous, optional :: ids(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call migration_create_i64(comm%MPI_VAL, parts, num_parts, plan, owner_of_part, ids, stat, errmsg)
  end subroutine

  ! The plan of a partition of the local objects (its parts and owners); ids optional.
  subroutine from_partition_i(comm, part, plan, ids, stat, errmsg)
    integer, intent(in) :: comm
    type(hpart_partition), intent(in) :: part
    type(hpart_migration), intent(out) :: plan
    integer(c_int64_t), intent(in), target, contiguous, optional :: ids(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: pi
    integer(c_int64_t) :: n
    integer(c_int) :: code
    character(:), allocatable :: msg
    pi = c_null_ptr
    code = HPART_OK
    msg = ''
    if (present(ids)) then
      pi = c_addr(ids)
      if (hpartc_partition_local_size(part%h, n) == HPART_OK) then
        if (n /= size(ids)) code = HPART_ERR_SIZE_MISMATCH
        msg = 'hpart_migration_from_partition: ids: one per local object'
      end if
    end if
    call agree(comm, code, msg)
    if (code /= HPART_OK) then
      call fail(code, msg, stat, errmsg)
      return
    end if
    plan%comm = comm
    call finish(hpartc_migration_from_partition_f(int(comm, c_int), part%h, pi, plan%h), stat, errmsg)
  end subroutine
  subroutine from_partition_t(comm, part, plan, ids, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    type(hpart_partition), intent(in) :: part
    type(hpart_migration), intent(out) :: plan
    integer(c_int64_t), intent(in), target, contiguous, optional :: ids(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call from_partition_i(comm%MPI_VAL, part, plan, ids, stat, errmsg)
  end subroutine

  subroutine hpart_migration_num_imports(plan, n, stat, errmsg)
    type(hpart_migration), intent(in) :: plan
    integer(c_int64_t), intent(out) :: n
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    n = 0
    call finish(hpartc_migration_num_imports(plan%h, n), stat, errmsg)
  end subroutine
  subroutine hpart_migration_num_exports(plan, n, stat, errmsg)
    type(hpart_migration), intent(in) :: plan
    integer(c_int64_t), intent(out) :: n
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    n = 0
    call finish(hpartc_migration_num_exports(plan%h, n), stat, errmsg)
  end subroutine

  ! The ids of the arriving objects, in arrival order (a copy; empty when made without ids).
  subroutine hpart_migration_imported_ids(plan, ids, stat, errmsg)
    type(hpart_migration), intent(in) :: plan
    integer(c_int64_t), allocatable, intent(out) :: ids(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int64_t) :: n
    integer(c_int64_t), pointer :: view(:)
    type(c_ptr) :: p
    integer(c_int) :: rc
    n = 0
    rc = hpartc_migration_num_imports(plan%h, n)
    if (rc == HPART_OK) rc = hpartc_migration_imported_ids(plan%h, p)
    allocate (ids(0))
    if (rc == HPART_OK .and. c_associated(p) .and. n > 0) then
      call c_f_pointer(p, view, [n])
      ids = view
    end if
    call finish(rc, stat, errmsg)
  end subroutine

  subroutine hpart_migration_free(plan, stat, errmsg)
    type(hpart_migration), intent(inout) :: plan
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_migration_free(plan%h), stat, errmsg)
  end subroutine
end module hpart_dynamic
