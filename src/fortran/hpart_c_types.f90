! The C API's (include/hpart/hpart.h) constants and its option and result structs, interoperable
! (bind(C) gives C's layout). module hpart_c binds the functions; module hpart wraps both.
module hpart_c_types
  use, intrinsic :: iso_c_binding
  implicit none
  public

  ! hpart_status
  integer(c_int), parameter :: HPART_OK = 0, HPART_ERR_INVALID_ARGUMENT = 1, &
    HPART_ERR_INVALID_INPUT = 2, HPART_ERR_SIZE_MISMATCH = 3, HPART_ERR_IO = 4, &
    HPART_ERR_INTERNAL = 5, HPART_ERR_MEMORY = 6, HPART_ERR_UNSUPPORTED = 7, HPART_ERR_MPI = 8
  integer(c_int), parameter :: HPART_CURVE_HILBERT = 0, HPART_CURVE_MORTON = 1
  integer(c_int), parameter :: HPART_GRID_SFC = 0, HPART_GRID_BLOCKS = 1, HPART_GRID_TENSOR = 2, &
    HPART_GRID_UNIFORM = 3
  integer(c_int), parameter :: HPART_GRAPH_MULTILEVEL = 0, HPART_GRAPH_METIS = 1, &
    HPART_GRAPH_GEOMETRIC_REFINE = 2
  integer(c_int), parameter :: HPART_NODE_CUT_STAIRCASE = 0, HPART_NODE_CUT_BOXES = 1, &
    HPART_NODE_CUT_GRAPH = 2
  integer(c_int), parameter :: HPART_PRESET_FAST = 0, HPART_PRESET_STANDARD = 1, HPART_PRESET_STRONG = 2
  integer(c_int), parameter :: HPART_REBALANCE_NONE = 0, HPART_REBALANCE_SCRATCH = 1, &
    HPART_REBALANCE_SHIFT = 2, HPART_REBALANCE_DIFFUSION = 3

  ! Option and result structs: the same fields in the same order as hpart.h (bind(C) gives C's
  ! layout). Fill each with its hpart_*_init first: it sets `size` and the defaults.
  type, bind(C) :: hpart_point_options
    integer(c_size_t) :: size = 0
    integer(c_int) :: parts, curve
    real(c_double) :: imbalance
    type(c_ptr) :: target_sizes = c_null_ptr
  end type
  type, bind(C) :: hpart_hier_point_options
    integer(c_size_t) :: size = 0
    integer(c_int) :: parts, node_curve, rank_curve
    real(c_double) :: imbalance
    type(c_ptr) :: topology = c_null_ptr
  end type
  type, bind(C) :: hpart_grid_options
    integer(c_size_t) :: size = 0
    integer(c_int) :: parts, method, curve
    real(c_double) :: imbalance
    integer(c_int) :: shape(3)
    type(c_ptr) :: target_sizes = c_null_ptr
  end type
  type, bind(C) :: hpart_hier_grid_options
    integer(c_size_t) :: size = 0
    integer(c_int) :: parts, node_cut, node_method, rank_method
    real(c_double) :: imbalance
    type(c_ptr) :: topology = c_null_ptr
  end type
  type, bind(C) :: hpart_graph_options
    integer(c_size_t) :: size = 0
    integer(c_int) :: parts, method
    real(c_double) :: imbalance
    integer(c_int) :: seed
    type(c_ptr) :: target_sizes = c_null_ptr
  end type
  type, bind(C) :: hpart_hier_graph_options
    integer(c_size_t) :: size = 0
    integer(c_int) :: parts, node_method, rank_method
    real(c_double) :: imbalance
    integer(c_int) :: seed
    type(c_ptr) :: topology = c_null_ptr
  end type
  type, bind(C) :: hpart_graph_repart_options
    integer(c_size_t) :: size = 0
    integer(c_int) :: parts
    real(c_double) :: imbalance, itr
    integer(c_int) :: max_rounds, refine_passes
    real(c_double) :: reference_cut, max_surface_growth
  end type
  type, bind(C) :: hpart_rebalance_options
    integer(c_size_t) :: size = 0
    integer(c_int) :: parts, curve
    real(c_double) :: imbalance
    integer(c_int) :: horizon
    real(c_double) :: smoothing, trend_smoothing, forgetting, max_surface_growth
    integer(c_int) :: incremental, max_rounds, verbose
    real(c_double) :: itr
  end type
  type, bind(C) :: hpart_metrics
    integer(c_size_t) :: size = 0
    integer(c_int) :: num_parts, ncon
    integer(c_int64_t) :: objects, empty_parts
    real(c_double) :: imbalance, max_imbalance, seconds, tolerance
    integer(c_int) :: within_tolerance, has_cut
    integer(c_int64_t) :: edge_cut, comm_volume, boundary_vertices
    integer(c_int) :: is_repartition, from_scratch, steps
    integer(c_int64_t) :: migrated_objects
    real(c_double) :: migrated_weight, surface_growth
  end type
  type, bind(C) :: hpart_graph_metrics
    integer(c_size_t) :: size = 0
    integer(c_int64_t) :: edge_cut, comm_volume, boundary_vertices
  end type
  type, bind(C) :: hpart_observation
    integer(c_size_t) :: size = 0
    integer(c_int) :: has_step_seconds
    real(c_double) :: step_seconds
    integer(c_int64_t) :: n
    type(c_ptr) :: object_costs = c_null_ptr, features = c_null_ptr
    integer(c_int) :: nfeatures
    type(c_ptr) :: parts = c_null_ptr
  end type
  type, bind(C) :: hpart_decision
    integer(c_size_t) :: size = 0
    integer(c_int) :: rebalance
    real(c_double) :: imbalance, predicted_imbalance, predicted_loss_seconds, &
      predicted_gain_seconds, predicted_cost_seconds, residual_imbalance
    integer(c_int) :: steps_since
    character(kind=c_char) :: reason(256)
  end type
  type, bind(C) :: hpart_rebalance_stats
    integer(c_size_t) :: size = 0
    integer(c_int) :: kind, rounds, rebalances
    integer(c_int64_t) :: migrated_objects
    real(c_double) :: migrated_weight, seconds, migration_seconds, imbalance, surface, surface_fresh
  end type

end module hpart_c_types
