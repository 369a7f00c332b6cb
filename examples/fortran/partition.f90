! hpart from Fortran: partition this rank's particles into K parts, move each particle to the
! rank that owns its part, and partition a ring graph. Run: mpirun -np 2 ./hpart_fortran_example
! Part ids, vertex ids and ranks are 0-based, as in C (docs/fortran.md).
program hpart_fortran_example
  use mpi_f08
  use hpart
  implicit none
  integer :: rank, nranks, k, stat
  character(256) :: msg
  type(hpart_points) :: none
  type(hpart_point_options) :: opts
  type(hpart_partition) :: part
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  k = 2 * nranks
  call particles(k)
  call ring(k)
  ! A bad call returns its status and message, the same on every rank, when stat is given.
  call hpart_point_options_init(opts)
  call hpart_partition_points(MPI_COMM_NULL, none, opts, part, stat, msg)
  if (rank == 0) print '(a, a, a)', hpart_status_string(stat), ': ', trim(msg)
  if (stat == HPART_OK) error stop 'a null communicator was accepted'
  call MPI_Finalize()

contains

  subroutine particles(k)
    integer, intent(in) :: k
    integer, parameter :: n = 1000
    real(c_double), target :: xy(2, n)
    real(c_double), allocatable :: arrived(:, :)
    integer(c_int32_t) :: parts(n)
    integer(c_int64_t) :: nin
    type(hpart_points) :: points
    type(hpart_point_options) :: opts
    type(hpart_partition) :: part
    type(hpart_metrics) :: m
    type(hpart_migration) :: plan
    call random_number(xy)
    xy(1, :) = (xy(1, :) + rank) / nranks  ! rank r's particles in the strip [r, r + 1) / R
    call hpart_points_create(xy, points)    ! xy(:, i) is particle i; borrowed, not copied
    call hpart_point_options_init(opts)
    opts%parts = k
    call hpart_partition_points(MPI_COMM_WORLD, points, opts, part)
    call hpart_get_parts(part, parts)       ! parts(i) in [0, k)
    call hpart_partition_metrics(part, m)
    call hpart_migration_from_partition(MPI_COMM_WORLD, part, plan)
    call hpart_migration_num_imports(plan, nin)
    allocate (arrived(2, nin))
    call hpart_migration_move(plan, xy, arrived)
    if (rank == 0) print '(a, i0, a, es9.2, a, i0, a)', 'points: ', k, ' parts, imbalance ', m%imbalance, &
      ', rank 0 now holds ', nin, ' particles'
    if (any(parts < 0 .or. parts >= k)) error stop 'a part out of range'
    call hpart_migration_free(plan)
    call hpart_partition_free(part)
    call hpart_points_free(points)
  end subroutine

  ! A ring of 10 vertices per rank, in ParMETIS's layout (0-based), cut into k parts.
  subroutine ring(k)
    integer, intent(in) :: k
    integer(c_int64_t), target :: vtxdist(nranks + 1), xadj(11), adjncy(20)
    integer(c_int64_t) :: n, g, i
    type(hpart_graph) :: graph
    type(hpart_graph_options) :: opts
    type(hpart_partition) :: part
    type(hpart_metrics) :: m
    n = 10_c_int64_t * nranks
    vtxdist = [(10_c_int64_t * i, i = 0, nranks)]
    do i = 0, 9
      g = vtxdist(rank + 1) + i
      xadj(i + 1) = 2 * i
      adjncy(2 * i + 1 : 2 * i + 2) = [modulo(g - 1, n), modulo(g + 1, n)]
    end do
    xadj(11) = 20
    call hpart_graph_create(MPI_COMM_WORLD, vtxdist, xadj, adjncy, graph)
    call hpart_graph_options_init(opts)
    opts%parts = k
    call hpart_partition_graph(MPI_COMM_WORLD, graph, opts, part)
    call hpart_partition_metrics(part, m)
    if (rank == 0) print '(a, i0, a, i0, a, f5.3)', 'ring: ', k, ' parts, edge cut ', m%edge_cut, &
      ', imbalance ', m%imbalance
    if (m%edge_cut < k) error stop 'a ring cut into k parts cuts at least k edges'
    call hpart_partition_free(part)
    call hpart_graph_free(graph)
  end subroutine
end program hpart_fortran_example
