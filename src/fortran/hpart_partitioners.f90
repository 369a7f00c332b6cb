! Collective partitioners of points and grids, evaluate, files, and the option initialisers.
! Each collective call takes its communicator as type(MPI_Comm) (mpi_f08) or as an INTEGER
! handle (mpi, mpif.h): one generic name, two specific procedures; the type(MPI_Comm) one
! passes comm%MPI_VAL on.
module hpart_partitioners
  use, intrinsic :: iso_c_binding
  use mpi_f08, only: MPI_Comm
  use hpart_c_types
  use hpart_c
  use hpart_base
  implicit none
  private
  public :: hpart_point_options_init, hpart_point_options_preset, hpart_hier_point_options_init, &
    hpart_grid_options_init, hpart_graph_options_init, hpart_graph_repart_options_init, &
    hpart_rebalance_options_init
  public :: hpart_partition_points, hpart_partition_points_hierarchical, hpart_partition_grid, &
    hpart_repartition_grid, hpart_evaluate_partition, hpart_read_points_text, hpart_read_points_h5, &
    hpart_read_graph_metis, hpart_read_graph_matrix_market, hpart_read_graph_chaco, hpart_write_parts_text, &
    hpart_write_partition_h5, hpart_read_parts_h5

  interface hpart_partition_points
    module procedure partition_points_i, partition_points_t
  end interface
  interface hpart_partition_points_hierarchical
    module procedure hier_points_i, hier_points_t
  end interface
  interface hpart_partition_grid
    module procedure partition_grid_i, partition_grid_t
  end interface
  interface hpart_repartition_grid
    module procedure repartition_grid_i, repartition_grid_t
  end interface
  interface hpart_evaluate_partition
    module procedure evaluate_i, evaluate_t
  end interface
  interface hpart_read_points_text
    module procedure read_points_text_i, read_points_text_t
  end interface
  interface hpart_read_points_h5
    module procedure read_points_h5_i, read_points_h5_t
  end interface
  interface hpart_read_graph_metis
    module procedure read_graph_metis_i, read_graph_metis_t
  end interface
  interface hpart_write_parts_text
    module procedure write_parts_text_i, write_parts_text_t
  end interface
  interface hpart_read_graph_matrix_market
    module procedure read_graph_mm_i, read_graph_mm_t
  end interface
  interface hpart_read_graph_chaco
    module procedure read_graph_chaco_i, read_graph_chaco_t
  end interface
  interface hpart_write_partition_h5
    module procedure write_partition_h5_i, write_partition_h5_t
  end interface
  interface hpart_read_parts_h5
    module procedure read_parts_h5_i, read_parts_h5_t
  end interface

contains

  ! ---- Options: each sets `size` and hpart's defaults, as the C hpart_*_init.
  subroutine hpart_point_options_init(opts)
    type(hpart_point_options), intent(out) :: opts
    if (hpartc_point_options_init(opts) /= HPART_OK) error stop 'hpart_point_options_init'
  end subroutine
  ! preset: HPART_PRESET_FAST, _STANDARD or _STRONG.
  subroutine hpart_point_options_preset(opts, preset, parts, stat, errmsg)
    type(hpart_point_options), intent(out) :: opts
    integer, intent(in) :: preset, parts
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_point_options_preset(opts, int(preset, c_int), int(parts, c_int)), stat, errmsg)
  end subroutine
  subroutine hpart_hier_point_options_init(opts)
    type(hpart_hier_point_options), intent(out) :: opts
    if (hpartc_hier_point_options_init(opts) /= HPART_OK) error stop 'hpart_hier_point_options_init'
  end subroutine
  subroutine hpart_grid_options_init(opts)
    type(hpart_grid_options), intent(out) :: opts
    if (hpartc_grid_options_init(opts) /= HPART_OK) error stop 'hpart_grid_options_init'
  end subroutine
  subroutine hpart_graph_options_init(opts)
    type(hpart_graph_options), intent(out) :: opts
    if (hpartc_graph_options_init(opts) /= HPART_OK) error stop 'hpart_graph_options_init'
  end subroutine
  subroutine hpart_graph_repart_options_init(opts)
    type(hpart_graph_repart_options), intent(out) :: opts
    if (hpartc_graph_repart_options_init(opts) /= HPART_OK) error stop 'hpart_graph_repart_options_init'
  end subroutine
  subroutine hpart_rebalance_options_init(opts)
    type(hpart_rebalance_options), intent(out) :: opts
    if (hpartc_rebalance_options_init(opts) /= HPART_OK) error stop 'hpart_rebalance_options_init'
  end subroutine

  ! ---- Points
  subroutine partition_points_i(comm, points, opts, part, stat, errmsg)
    integer, intent(in) :: comm
    type(hpart_points), intent(in) :: points
    type(hpart_point_options), intent(in) :: opts
    type(hpart_partition), intent(out) :: part
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_partition_points_f(int(comm, c_int), points%h, opts, part%h), stat, errmsg)
  end subroutine
  subroutine partition_points_t(comm, points, opts, part, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    type(hpart_points), intent(in) :: points
    type(hpart_point_options), intent(in) :: opts
    type(hpart_partition), intent(out) :: part
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call partition_points_i(comm%MPI_VAL, points, opts, part, stat, errmsg)
  end subroutine

  subroutine hier_points_i(comm, points, opts, part, stat, errmsg)
    integer, intent(in) :: comm
    type(hpart_points), intent(in) :: points
    type(hpart_hier_point_options), intent(in) :: opts
    type(hpart_partition), intent(out) :: part
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_partition_points_hierarchical_f(int(comm, c_int), points%h, opts, part%h), stat, errmsg)
  end subroutine
  subroutine hier_points_t(comm, points, opts, part, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    type(hpart_points), intent(in) :: points
    type(hpart_hier_point_options), intent(in) :: opts
    type(hpart_partition), intent(out) :: part
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call hier_points_i(comm%MPI_VAL, points, opts, part, stat, errmsg)
  end subroutine

  ! ---- Grids
  subroutine partition_grid_i(comm, grid, opts, part, stat, errmsg)
    integer, intent(in) :: comm
    type(hpart_grid), intent(in) :: grid
    type(hpart_grid_options), intent(in) :: opts
    type(hpart_partition), intent(out) :: part
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_partition_grid_f(int(comm, c_int), grid%h, opts, part%h), stat, errmsg)
  end subroutine
  subroutine partition_grid_t(comm, grid, opts, part, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    type(hpart_grid), intent(in) :: grid
    type(hpart_grid_options), intent(in) :: opts
    type(hpart_partition), intent(out) :: part
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call partition_grid_i(comm%MPI_VAL, grid, opts, part, stat, errmsg)
  end subroutine

  ! Moves the cut planes of a blocks partition `previous` of the same grid.
  subroutine repartition_grid_i(comm, grid, previous, parts, imbalance, part, stat, errmsg)
    integer, intent(in) :: comm, parts
    type(hpart_grid), intent(in) :: grid
    type(hpart_partition), intent(in) :: previous
    real(c_double), intent(in) :: imbalance
    type(hpart_partition), intent(out) :: part
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_repartition_grid_f(int(comm, c_int), grid%h, previous%h, int(parts, c_int), imbalance, &
                                          part%h), stat, errmsg)
  end subroutine
  subroutine repartition_grid_t(comm, grid, previous, parts, imbalance, part, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    type(hpart_grid), intent(in) :: grid
    type(hpart_partition), intent(in) :: previous
    integer, intent(in) :: parts
    real(c_double), intent(in) :: imbalance
    type(hpart_partition), intent(out) :: part
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call repartition_grid_i(comm%MPI_VAL, grid, previous, parts, imbalance, part, stat, errmsg)
  end subroutine

  ! ---- Evaluate: the weights, sizes and imbalance of given parts (0-based, one per local
  ! object); weights ncon per object (optional: unit), target_sizes num_parts values (optional).
  subroutine evaluate_i(comm, parts, num_parts, part, weights, ncon, target_sizes, stat, errmsg)
    integer, intent(in) :: comm, num_parts
    integer(c_int32_t), intent(in), target, contiguous :: parts(:)
    type(hpart_partition), intent(out) :: part
    real(c_double), intent(in), target, contiguous, optional :: weights(:), target_sizes(:)
    integer, intent(in), optional :: ncon
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: w, t
    integer(c_int) :: k, code
    character(:), allocatable :: msg
    k = 1
    if (present(ncon)) k = int(ncon, c_int)
    w = c_null_ptr
    t = c_null_ptr
    code = HPART_OK
    msg = ''
    if (present(weights)) then
      w = c_addr(weights)
      if (size(weights) /= size(parts) * k) then
        code = HPART_ERR_SIZE_MISMATCH
        msg = 'hpart_evaluate_partition: weights: size must be the parts times ncon'
      end if
    end if
    if (present(target_sizes)) then
      t = c_addr(target_sizes)
      if (code == HPART_OK .and. size(target_sizes) /= num_parts) then
        code = HPART_ERR_SIZE_MISMATCH
        msg = 'hpart_evaluate_partition: target_sizes: num_parts values'
      end if
    end if
    call agree(comm, code, msg)
    if (code /= HPART_OK) then
      call fail(code, msg, stat, errmsg)
      return
    end if
    call finish(hpartc_evaluate_partition_f(int(comm, c_int), c_addr(parts), size(parts, kind=c_int64_t), &
                                            int(num_parts, c_int), w, k, t, part%h), stat, errmsg)
  end subroutine
  subroutine evaluate_t(comm, parts, num_parts, part, weights, ncon, target_sizes, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    integer(c_int32_t), intent(in), target, contiguous :: parts(:)
    integer, intent(in) :: num_parts
    type(hpart_partition), intent(out) :: part
    real(c_double), intent(in), target, contiguous, optional :: weights(:), target_sizes(:)
    integer, intent(in), optional :: ncon
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call evaluate_i(comm%MPI_VAL, parts, num_parts, part, weights, ncon, target_sizes, stat, errmsg)
  end subroutine

  ! ---- Files. Text points `x y [z] [w]` (dim 0: from the columns); the handle owns the arrays.
  subroutine read_points_text_i(comm, path, points, dim, stat, errmsg)
    integer, intent(in) :: comm
    character(*), intent(in) :: path
    type(hpart_points), intent(out) :: points
    integer, intent(in), optional :: dim
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int) :: d
    d = 0
    if (present(dim)) d = int(dim, c_int)
    call finish(hpartc_read_points_text_f(int(comm, c_int), c_string(path), d, points%h), stat, errmsg)
  end subroutine
  subroutine read_points_text_t(comm, path, points, dim, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    character(*), intent(in) :: path
    type(hpart_points), intent(out) :: points
    integer, intent(in), optional :: dim
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call read_points_text_i(comm%MPI_VAL, path, points, dim, stat, errmsg)
  end subroutine

  ! HDF5 points (/points, /weights, /ids); HPART_ERR_UNSUPPORTED when hpart was built without HDF5.
  subroutine read_points_h5_i(comm, path, points, stat, errmsg)
    integer, intent(in) :: comm
    character(*), intent(in) :: path
    type(hpart_points), intent(out) :: points
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_read_points_h5_f(int(comm, c_int), c_string(path), points%h), stat, errmsg)
  end subroutine
  subroutine read_points_h5_t(comm, path, points, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    character(*), intent(in) :: path
    type(hpart_points), intent(out) :: points
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call read_points_h5_i(comm%MPI_VAL, path, points, stat, errmsg)
  end subroutine

  ! A METIS .graph file; rank r gets a block of vertices.
  subroutine read_graph_metis_i(comm, path, graph, stat, errmsg)
    integer, intent(in) :: comm
    character(*), intent(in) :: path
    type(hpart_graph), intent(out) :: graph
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_read_graph_metis_f(int(comm, c_int), c_string(path), graph%h), stat, errmsg)
  end subroutine
  subroutine read_graph_metis_t(comm, path, graph, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    character(*), intent(in) :: path
    type(hpart_graph), intent(out) :: graph
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call read_graph_metis_i(comm%MPI_VAL, path, graph, stat, errmsg)
  end subroutine

  ! One part per line, the ranks' parts in rank order.
  subroutine write_parts_text_i(comm, path, parts, stat, errmsg)
    integer, intent(in) :: comm
    character(*), intent(in) :: path
    integer(c_int32_t), intent(in), target, contiguous :: parts(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_write_parts_text_f(int(comm, c_int), c_string(path), c_addr(parts), &
                                          size(parts, kind=c_int64_t)), stat, errmsg)
  end subroutine
  subroutine write_parts_text_t(comm, path, parts, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    character(*), intent(in) :: path
    integer(c_int32_t), intent(in), target, contiguous :: parts(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call write_parts_text_i(comm%MPI_VAL, path, parts, stat, errmsg)
  end subroutine

  ! A MatrixMarket coordinate file (a square matrix's pattern) or a Chaco file, as graphs; rank r
  ! gets a block of vertices.
  subroutine read_graph_mm_i(comm, path, graph, stat, errmsg)
    integer, intent(in) :: comm
    character(*), intent(in) :: path
    type(hpart_graph), intent(out) :: graph
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_read_graph_matrix_market_f(int(comm, c_int), c_string(path), graph%h), stat, errmsg)
  end subroutine
  subroutine read_graph_mm_t(comm, path, graph, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    character(*), intent(in) :: path
    type(hpart_graph), intent(out) :: graph
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call read_graph_mm_i(comm%MPI_VAL, path, graph, stat, errmsg)
  end subroutine
  subroutine read_graph_chaco_i(comm, path, graph, stat, errmsg)
    integer, intent(in) :: comm
    character(*), intent(in) :: path
    type(hpart_graph), intent(out) :: graph
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_read_graph_chaco_f(int(comm, c_int), c_string(path), graph%h), stat, errmsg)
  end subroutine
  subroutine read_graph_chaco_t(comm, path, graph, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    character(*), intent(in) :: path
    type(hpart_graph), intent(out) :: graph
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call read_graph_chaco_i(comm%MPI_VAL, path, graph, stat, errmsg)
  end subroutine

  ! HDF5 partition file (hpart_write_partition_h5): ids (one per local object) and points (as
  ! many) are optional, points given on every rank or on none.
  subroutine write_partition_h5_i(comm, path, p, ids, points, stat, errmsg)
    integer, intent(in) :: comm
    character(*), intent(in) :: path
    type(hpart_partition), intent(in) :: p
    integer(c_int64_t), intent(in), target, contiguous, optional :: ids(:)
    type(hpart_points), intent(in), optional :: points
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: pi, pp
    pi = c_null_ptr
    pp = c_null_ptr
    if (present(ids)) pi = c_addr(ids)
    if (present(points)) pp = points%h
    call finish(hpartc_write_partition_h5_f(int(comm, c_int), c_string(path), p%h, pi, pp), stat, errmsg)
  end subroutine
  subroutine write_partition_h5_t(comm, path, p, ids, points, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    character(*), intent(in) :: path
    type(hpart_partition), intent(in) :: p
    integer(c_int64_t), intent(in), target, contiguous, optional :: ids(:)
    type(hpart_points), intent(in), optional :: points
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call write_partition_h5_i(comm%MPI_VAL, path, p, ids, points, stat, errmsg)
  end subroutine

  ! This rank's block of a 1D integer dataset (default /parts), allocated here. The C call is
  ! made twice (the count, then the values), so the file is read twice.
  subroutine read_parts_h5_i(comm, path, parts, dataset, stat, errmsg)
    integer, intent(in) :: comm
    character(*), intent(in) :: path
    integer(c_int32_t), allocatable, target, intent(out) :: parts(:)
    character(*), intent(in), optional :: dataset
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int64_t) :: n
    character(kind=c_char, len=:), allocatable :: ds
    integer(c_int) :: code
    ds = c_string('')
    if (present(dataset)) ds = c_string(dataset)
    code = hpartc_read_parts_h5_f(int(comm, c_int), c_string(path), ds, c_null_ptr, 0_c_int64_t, n)
    if (code /= HPART_OK) then
      call finish(code, stat, errmsg)
      return
    end if
    allocate(parts(n))
    call finish(hpartc_read_parts_h5_f(int(comm, c_int), c_string(path), ds, c_addr(parts), n, n), stat, errmsg)
  end subroutine
  subroutine read_parts_h5_t(comm, path, parts, dataset, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    character(*), intent(in) :: path
    integer(c_int32_t), allocatable, target, intent(out) :: parts(:)
    character(*), intent(in), optional :: dataset
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call read_parts_h5_i(comm%MPI_VAL, path, parts, dataset, stat, errmsg)
  end subroutine
end module hpart_partitioners
