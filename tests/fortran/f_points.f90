! Points from Fortran (mpi_f08 communicators): the partition is one part in range per point,
! conserves weight, meets its imbalance, gives the C API's parts for the same input and the same
! figures as evaluate; a migration plan moves each point to its part's owner; the Rebalancer
! observes, decides and rebalances.
program f_points
  use, intrinsic :: iso_c_binding
  use mpi_f08
  use hpart
  use hpart_c, only: hpartc_points_create, hpartc_points_set_weights, hpartc_points_set_ids_i64, &
    hpartc_partition_points_f, hpartc_partition_parts, hpartc_partition_free, hpartc_points_free
  use ftest_support
  implicit none
  integer, parameter :: K = 5
  integer :: rank, nranks
  real(c_double), allocatable, target :: coords(:, :), weights(:)
  integer(c_int64_t), allocatable, target :: ids(:)
  integer(c_int32_t), allocatable :: parts(:)
  type(hpart_points) :: points
  type(hpart_point_options) :: opts
  type(hpart_partition) :: part

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  call test_points(rank, nranks, 2000_c_int64_t, coords, weights, ids)
  call hpart_points_create(coords, points)
  call hpart_points_set_weights(points, weights)
  call hpart_points_set_ids(points, ids)
  call hpart_point_options_init(opts)
  opts%parts = K
  opts%imbalance = 0.01_c_double
  call hpart_partition_points(MPI_COMM_WORLD, points, opts, part)
  allocate (parts(size(weights)))
  call hpart_get_parts(part, parts)
  call check(all(parts >= 0 .and. parts < K), 'every point has a part in [0, K)')
  call check_weights(part, parts)
  call check_same_as_c(parts)
  call check_evaluate(part, parts)
  call check_migration(part)
  call check_rebalancer()
  call check_hierarchical()
  call hpart_partition_free(part)
  call hpart_points_free(points)
  call check(.not. c_associated(points%h), 'free clears the handle')
  if (rank == 0) write (*, '(a)') 'f_points: ok'
  call MPI_Finalize()

contains

  ! Part weights from the library equal the sums computed here; the total is conserved; the
  ! imbalance is the one reported and within the tolerance.
  subroutine check_weights(p, parts)
    type(hpart_partition), intent(in) :: p
    integer(c_int32_t), intent(in) :: parts(:)
    real(c_double), allocatable :: pw(:, :)
    real(c_double) :: mine(K), sums(K), total, imb
    type(hpart_metrics) :: m
    integer :: i
    mine = 0
    do i = 1, size(parts)
      mine(parts(i) + 1) = mine(parts(i) + 1) + weights(i)
    end do
    call MPI_Allreduce(mine, sums, K, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
    call hpart_partition_part_weights(p, pw)
    call check(size(pw, 1) == 1 .and. size(pw, 2) == K, 'part_weights is 1 x K')
    call check(all(abs(pw(1, :) - sums) <= 1e-9_c_double * sum(sums)), 'part weights match the points')
    total = sum(weights)
    call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
    call check(abs(sum(sums) - total) <= 1e-9_c_double * total, 'weight is conserved')
    imb = maxval(sums) / (total / K) - 1
    call hpart_partition_metrics(p, m)
    call check(m%num_parts == K .and. m%objects == 2000, 'metrics: K parts, 2000 objects')
    call check(abs(m%imbalance - imb) <= 1e-9_c_double, 'metrics%imbalance is the parts'' imbalance')
    call check(imb <= opts%imbalance + 1e-12_c_double .and. m%within_tolerance == 1, 'imbalance within 1%')
  end subroutine

  ! The same input through the raw C bindings gives the same parts.
  subroutine check_same_as_c(parts)
    integer(c_int32_t), intent(in) :: parts(:)
    type(c_ptr) :: cp, cpart, cparts
    integer(c_int32_t), pointer :: view(:)
    integer(c_int) :: rc
    rc = hpartc_points_create(3_c_int, size(weights, kind=c_int64_t), c_loc(coords), cp)
    if (rc == HPART_OK) rc = hpartc_points_set_weights(cp, 1_c_int, c_loc(weights))
    if (rc == HPART_OK) rc = hpartc_points_set_ids_i64(cp, c_loc(ids))
    if (rc == HPART_OK) rc = hpartc_partition_points_f(MPI_COMM_WORLD%MPI_VAL, cp, opts, cpart)
    if (rc == HPART_OK) rc = hpartc_partition_parts(cpart, cparts)
    call check(rc == HPART_OK, 'the C API partitions the same points')
    if (size(parts) > 0) then
      call c_f_pointer(cparts, view, [size(parts)])
      call check(all(view == parts), 'the C API gives the same parts')
    end if
    rc = hpartc_partition_free(cpart)
    rc = hpartc_points_free(cp)
    call check(rc == HPART_OK .and. .not. c_associated(cp), 'C frees clear the handles')
  end subroutine

  subroutine check_evaluate(p, parts)
    type(hpart_partition), intent(in) :: p
    integer(c_int32_t), intent(in) :: parts(:)
    type(hpart_partition) :: ev
    real(c_double), allocatable :: pw(:, :), ew(:, :)
    integer(c_int64_t), allocatable :: ps(:), es(:)
    call hpart_evaluate_partition(MPI_COMM_WORLD, parts, K, ev, weights=weights)
    call hpart_partition_part_weights(p, pw)
    call hpart_partition_part_weights(ev, ew)
    call hpart_partition_part_sizes(p, ps)
    call hpart_partition_part_sizes(ev, es)
    call check(all(abs(pw - ew) <= 1e-9_c_double * sum(pw)) .and. all(ps == es), 'evaluate agrees')
    call check(sum(es) == 2000, 'part sizes add up to the points')
    call hpart_partition_free(ev)
  end subroutine

  ! Moves ids, parts and coordinates to the owners of their parts.
  subroutine check_migration(p)
    type(hpart_partition), intent(in) :: p
    type(hpart_migration) :: plan
    integer(c_int32_t), allocatable :: owners(:), mypart(:), newpart(:)
    integer(c_int64_t), allocatable :: newid(:), arrived(:)
    real(c_double), allocatable :: newxyz(:, :)
    integer, allocatable :: sendc(:), recvc(:)
    integer(c_int64_t) :: nin, sums(2), total(2)
    integer :: i
    call hpart_migration_from_partition(MPI_COMM_WORLD, p, plan, ids=ids)
    call hpart_partition_owners(p, owners)
    call hpart_migration_num_imports(plan, nin)
    call hpart_migration_send_counts(plan, sendc)
    call hpart_migration_recv_counts(plan, recvc)
    call check(size(recvc) == nranks .and. sum(recvc) == nin .and. sum(sendc) == size(ids), 'counts add up')
    allocate (mypart(size(ids)), newpart(nin), newid(nin), newxyz(3, nin))
    call hpart_get_parts(p, mypart)
    call hpart_migration_move(plan, mypart, newpart)
    call hpart_migration_move(plan, ids, newid)
    call hpart_migration_move(plan, coords, newxyz)
    call hpart_migration_imported_ids(plan, arrived)
    call check(all(arrived == newid), 'imported ids are the moved ids')
    do i = 1, int(nin)
      call check(owners(newpart(i) + 1) == rank, 'an arriving point belongs to a part of this rank')
      call check(all(newxyz(:, i) == coords_of(newid(i))), 'coordinates travel with their point')
    end do
    sums = [nin, sum(newid)]
    call MPI_Allreduce(sums, total, 2, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD)
    call check(total(1) == 2000 .and. total(2) == 1999_c_int64_t * 2000 / 2, 'every point arrives once')
    call check_explicit_plan(mypart, owners, nin)
    call hpart_migration_free(plan)
  end subroutine

  ! The same moves planned from 64-bit part ids and an explicit owner map: each point's
  ! destination is its part's owner, and as many points arrive as from the partition's plan.
  subroutine check_explicit_plan(mypart, owners, nin)
    integer(c_int32_t), intent(in) :: mypart(:), owners(:)
    integer(c_int64_t), intent(in) :: nin
    type(hpart_migration) :: plan
    integer(c_int32_t), allocatable :: dest(:)
    integer(c_int64_t) :: n
    call hpart_migration_create(MPI_COMM_WORLD, int(mypart, c_int64_t), K, plan, owner_of_part=owners, ids=ids)
    call hpart_migration_destinations(plan, dest)
    call check(size(dest) == size(mypart), 'one destination per local point')
    call check(all(dest == owners(mypart + 1)), 'a point goes to its part''s owner')
    call hpart_migration_num_imports(plan, n)
    call check(n == nin, 'the explicit plan imports what the partition''s plan does')
    call hpart_migration_free(plan)
  end subroutine

  ! The hierarchical partition (nodes, then ranks; one part per rank): parts in range, each
  ! owned by a rank of the communicator.
  subroutine check_hierarchical()
    type(hpart_hier_point_options) :: hopts
    type(hpart_partition) :: hp
    integer(c_int32_t), allocatable :: hparts(:), owners(:)
    integer :: nparts
    call hpart_hier_point_options_init(hopts)
    call hpart_partition_points_hierarchical(MPI_COMM_WORLD, points, hopts, hp)
    call hpart_partition_num_parts(hp, nparts)
    call check(nparts == nranks, 'parts = 0 gives one part per rank')
    allocate (hparts(size(ids)))
    call hpart_get_parts(hp, hparts)
    call check(all(hparts >= 0 .and. hparts < nparts), 'hierarchical parts in range')
    call hpart_partition_owners(hp, owners)
    call check(all(owners >= 0 .and. owners < nranks), 'every part has an owner rank')
    call hpart_partition_free(hp)
  end subroutine

  function coords_of(g) result(xyz)
    integer(c_int64_t), intent(in) :: g
    real(c_double) :: xyz(3)
    xyz(1) = real(modulo(g * 7919_c_int64_t, 101_c_int64_t), c_double) / 101.0_c_double
    xyz(2) = real(modulo(g * 104729_c_int64_t, 103_c_int64_t), c_double) / 103.0_c_double
    xyz(3) = real(modulo(g, 97_c_int64_t), c_double) / 97.0_c_double
  end function

  ! Costs rise on the points of part 0; a forced rebalance of the points weighted by those costs
  ! (the Rebalancer balances the first weight) gives parts in range that balance them better.
  subroutine check_rebalancer()
    type(hpart_rebalancer) :: rb
    type(hpart_rebalance_options) :: ropts
    type(hpart_partition) :: p0, p1
    type(hpart_decision) :: d
    type(hpart_rebalance_stats) :: st
    type(hpart_metrics) :: m0, m1
    integer(c_int32_t), allocatable :: before(:), after(:)
    real(c_double), allocatable, target :: costs(:)
    type(hpart_partition) :: e0, e1
    call hpart_rebalance_options_init(ropts)
    ropts%parts = K
    call hpart_rebalancer_create(MPI_COMM_WORLD, ropts, rb)
    call hpart_rebalancer_partition_points(rb, points, p0)
    allocate (before(size(ids)), after(size(ids)))
    call hpart_get_parts(p0, before)
    costs = merge(4.0_c_double, 1.0_c_double, before == 0)
    call hpart_rebalancer_observe(rb, step_seconds=1.0_c_double, object_costs=costs, parts=before, &
                                  features=reshape(costs, [1, size(costs)]))
    call hpart_rebalancer_decide(rb, d)
    call check(d%rebalance == 0 .or. d%rebalance == 1, 'a decision is 0 or 1')
    call check(len(hpart_decision_reason(d)) > 0, 'a decision has a reason')
    call hpart_points_set_weights(points, costs)
    call hpart_rebalancer_rebalance_points(rb, points, p1, parts=before)
    call hpart_points_set_weights(points, weights)  ! the handle borrows: costs ends with this routine
    call hpart_get_parts(p1, after)
    call check(all(after >= 0 .and. after < K), 'rebalanced parts in range')
    call hpart_evaluate_partition(MPI_COMM_WORLD, before, K, e0, weights=costs)
    call hpart_evaluate_partition(MPI_COMM_WORLD, after, K, e1, weights=costs)
    call hpart_partition_metrics(e0, m0)
    call hpart_partition_metrics(e1, m1)
    call check(m1%imbalance < m0%imbalance, 'the rebalance balances the observed costs better')
    call hpart_rebalancer_record_migration_seconds(rb, 0.01_c_double)
    call hpart_rebalancer_stats(rb, st)
    call check(st%rebalances >= 1, 'stats count the rebalance')
    call check(abs(st%migration_seconds - 0.01_c_double) < 1e-12_c_double, 'stats keep the migration time')
    call hpart_partition_free(e0)
    call hpart_partition_free(e1)
    call hpart_partition_free(p0)
    call hpart_partition_free(p1)
    call hpart_rebalancer_free(rb)
  end subroutine
end program f_points
