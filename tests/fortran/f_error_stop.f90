! Without `stat`, a failing call stops the program with its message (error stop), as ALLOCATE
! without stat= does: ctest fortran.error_stop passes when the output holds the message.
program f_error_stop
  use mpi_f08
  use hpart
  implicit none
  real(c_double), target :: xyz(3, 4)
  type(hpart_points) :: points
  type(hpart_point_options) :: opts
  type(hpart_partition) :: part
  call MPI_Init()
  xyz = 0.5_c_double
  call hpart_points_create(xyz, points)
  call hpart_point_options_init(opts)
  opts%parts = 2
  call hpart_partition_points(MPI_COMM_NULL, points, opts, part)
  write (*, '(a)') 'f_error_stop: the failing call returned'
  call MPI_Finalize()
end program f_error_stop
