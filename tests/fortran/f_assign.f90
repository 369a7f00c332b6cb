! Point assign from Fortran (Zoltan's LB_Point_Assign / LB_Box_Assign): the descriptor of a
! point partition locates every local point in the part the partition gave it (by coordinate
! and id, and by coordinate alone as the points are distinct), finds every part in the whole box,
! names each part's owner, and answers the same after save and load.
program f_assign
  use, intrinsic :: iso_c_binding
  use mpi_f08
  use hpart
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
  call hpart_points_set_ids(points, ids)
  call hpart_point_options_init(opts)
  opts%parts = K
  call hpart_partition_points(MPI_COMM_WORLD, points, opts, part)
  allocate (parts(size(ids)))
  call hpart_get_parts(part, parts)
  call check_assign(part, parts)
  call hpart_partition_free(part)
  call hpart_points_free(points)
  if (rank == 0) write (*, '(a)') 'f_assign: ok'
  call MPI_Finalize()

contains

  subroutine check_assign(p, parts)
    type(hpart_partition), intent(in) :: p
    integer(c_int32_t), intent(in) :: parts(:)
    type(hpart_map) :: map, loaded
    integer(c_int32_t), allocatable :: located(:), inbox(:)
    integer(c_int32_t), allocatable :: owners(:)
    character(64) :: path
    integer :: q, r, one
    call hpart_map_create(MPI_COMM_WORLD, points, opts, p, map)
    allocate (located(size(parts)))
    call hpart_map_assign(map, coords, located, ids=ids)
    call check(all(located == parts), 'assign locates every local point in its part')
    call hpart_map_assign(map, coords, located)
    call check_without_ids(map, located, parts)
    if (size(parts) > 0) then
      call hpart_map_part_of(map, coords(:, 1), one, id=ids(1))
      call check(one == parts(1), 'part_of with the id is the assigned part')
    end if
    call hpart_map_parts_in_box(map, [0.0_c_double, 0.0_c_double, 0.0_c_double], &
                                [1.0_c_double, 1.0_c_double, 1.0_c_double], inbox)
    call check(size(inbox) == K .and. all(inbox == [(q, q = 0, K - 1)]), 'the whole box meets every part')
    call hpart_partition_owners(p, owners)
    do q = 0, K - 1
      call hpart_map_rank_of_part(map, q, r)
      call check(r == owners(q + 1), 'rank_of_part is the partition''s owner')
    end do
    write (path, '(a, i0, a, i0, a)') 'f_assign_np', nranks, '_rank', rank, '.map'  ! unique under ctest -j
    call hpart_map_save(map, trim(path))
    call hpart_map_load(trim(path), loaded)
    located = -1
    call hpart_map_assign(loaded, coords, located, ids=ids)
    call check(all(located == parts), 'a loaded map assigns the same parts')
    call hpart_map_free(loaded)
    call hpart_map_free(map)
  end subroutine

  ! Without ids: the points here are distinct (g mod 101, 103, 97 differ for g < 2000), so no
  ! key is shared across a cut and the coordinate alone locates every point exactly
  ! (docs/assign.md), the first point of every range included.
  subroutine check_without_ids(map, located, parts)
    type(hpart_map), intent(in) :: map
    integer(c_int32_t), intent(in) :: located(:), parts(:)
    integer :: differ(1), total(1), one
    differ = count(located /= parts)
    call MPI_Allreduce(differ, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call check(total(1) == 0, 'without ids, every distinct point is located in its part')
    if (size(parts) > 0) then
      call hpart_map_part_of(map, coords(:, 1), one)
      call check(one == parts(1), 'part_of without an id is the assigned part')
    end if
  end subroutine
end program f_assign
