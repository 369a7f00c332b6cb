! The C API (include/hpart/hpart.h) bound for Fortran: one bind(C) interface per C function a
! Fortran program can call, named hpartc_* with the C name as binding label (module hpart wraps
! them with Fortran types). Collective functions are bound through their _f twins, which take
! the communicator as MPI_Fint (a Fortran INTEGER handle): C's MPI_Comm is opaque and differs
! between MPI libraries, so the MPI_Comm forms and hpart_comm_from_fortran are not bound.
! Pointers to arrays are type(c_ptr) by value (c_null_ptr is C's NULL); handles are type(c_ptr).
! Generated from hpart.h's prototypes; keep it in step when the header changes.
module hpart_c
  use, intrinsic :: iso_c_binding
  use hpart_c_types
  implicit none
  public

  interface
    type(c_ptr) function hpartc_last_error() bind(C, name="hpart_last_error")
      import
    end function
    type(c_ptr) function hpartc_status_string(status) bind(C, name="hpart_status_string")
      import
      integer(c_int), value :: status
    end function
    integer(c_int) function hpartc_points_create(dim, n, coords, out) bind(C, name="hpart_points_create")
      import
      integer(c_int), value :: dim
      integer(c_int64_t), value :: n
      type(c_ptr), value :: coords
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_points_set_weights(points, ncon, weights) bind(C, &
      name="hpart_points_set_weights")
      import
      type(c_ptr), value :: points
      integer(c_int), value :: ncon
      type(c_ptr), value :: weights
    end function
    integer(c_int) function hpartc_points_set_ids_i64(points, ids) bind(C, name="hpart_points_set_ids_i64")
      import
      type(c_ptr), value :: points, ids
    end function
    integer(c_int) function hpartc_points_set_ids_i32(points, ids) bind(C, name="hpart_points_set_ids_i32")
      import
      type(c_ptr), value :: points, ids
    end function
    integer(c_int) function hpartc_points_size(points, n) bind(C, name="hpart_points_size")
      import
      type(c_ptr), value :: points
      integer(c_int64_t), intent(out) :: n
    end function
    integer(c_int) function hpartc_points_dim(points, dim) bind(C, name="hpart_points_dim")
      import
      type(c_ptr), value :: points
      integer(c_int), intent(out) :: dim
    end function
    integer(c_int) function hpartc_points_coords(points, coords) bind(C, name="hpart_points_coords")
      import
      type(c_ptr), value :: points
      type(c_ptr), intent(out) :: coords
    end function
    integer(c_int) function hpartc_points_weights(points, weights, ncon) bind(C, name="hpart_points_weights")
      import
      type(c_ptr), value :: points
      type(c_ptr), intent(out) :: weights
      integer(c_int), intent(out) :: ncon
    end function
    integer(c_int) function hpartc_points_ids(points, ids) bind(C, name="hpart_points_ids")
      import
      type(c_ptr), value :: points
      type(c_ptr), intent(out) :: ids
    end function
    integer(c_int) function hpartc_points_free(points) bind(C, name="hpart_points_free")
      import
      type(c_ptr), intent(inout) :: points
    end function
    integer(c_int) function hpartc_grid_create(dim, extent, lo, hi, cost, out) bind(C, name="hpart_grid_create")
      import
      integer(c_int), value :: dim
      type(c_ptr), value :: extent, lo, hi, cost
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_grid_free(grid) bind(C, name="hpart_grid_free")
      import
      type(c_ptr), intent(inout) :: grid
    end function
    integer(c_int) function hpartc_graph_create_i64_f(comm, vtxdist, xadj, adjncy, vwgt, ncon, adjwgt, &
      out) bind(C, name="hpart_graph_create_i64_f")
      import
      integer(c_int), value :: comm
      type(c_ptr), value :: vtxdist, xadj, adjncy, vwgt
      integer(c_int), value :: ncon
      type(c_ptr), value :: adjwgt
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_graph_create_i32_f(comm, vtxdist, xadj, adjncy, vwgt, ncon, adjwgt, &
      out) bind(C, name="hpart_graph_create_i32_f")
      import
      integer(c_int), value :: comm
      type(c_ptr), value :: vtxdist, xadj, adjncy, vwgt
      integer(c_int), value :: ncon
      type(c_ptr), value :: adjwgt
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_graph_set_coords(graph, dim, coords) bind(C, name="hpart_graph_set_coords")
      import
      type(c_ptr), value :: graph
      integer(c_int), value :: dim
      type(c_ptr), value :: coords
    end function
    integer(c_int) function hpartc_graph_local_vertices(graph, n) bind(C, name="hpart_graph_local_vertices")
      import
      type(c_ptr), value :: graph
      integer(c_int64_t), intent(out) :: n
    end function
    integer(c_int) function hpartc_graph_arrays(graph, vtxdist, xadj, adjncy, vwgt, adjwgt, &
      ncon) bind(C, name="hpart_graph_arrays")
      import
      type(c_ptr), value :: graph
      type(c_ptr), intent(out) :: vtxdist, xadj, adjncy, vwgt, adjwgt
      integer(c_int), intent(out) :: ncon
    end function
    integer(c_int) function hpartc_graph_free(graph) bind(C, name="hpart_graph_free")
      import
      type(c_ptr), intent(inout) :: graph
    end function
    integer(c_int) function hpartc_point_options_init(opts) bind(C, name="hpart_point_options_init")
      import
      type(hpart_point_options), intent(inout) :: opts
    end function
    integer(c_int) function hpartc_point_options_preset(opts, preset, parts) bind(C, &
      name="hpart_point_options_preset")
      import
      type(hpart_point_options), intent(inout) :: opts
      integer(c_int), value :: preset, parts
    end function
    integer(c_int) function hpartc_hier_point_options_init(opts) bind(C, name="hpart_hier_point_options_init")
      import
      type(hpart_hier_point_options), intent(inout) :: opts
    end function
    integer(c_int) function hpartc_grid_options_init(opts) bind(C, name="hpart_grid_options_init")
      import
      type(hpart_grid_options), intent(inout) :: opts
    end function
    integer(c_int) function hpartc_graph_options_init(opts) bind(C, name="hpart_graph_options_init")
      import
      type(hpart_graph_options), intent(inout) :: opts
    end function
    integer(c_int) function hpartc_graph_repart_options_init(opts) bind(C, name="hpart_graph_repart_options_init")
      import
      type(hpart_graph_repart_options), intent(inout) :: opts
    end function
    integer(c_int) function hpartc_rebalance_options_init(opts) bind(C, name="hpart_rebalance_options_init")
      import
      type(hpart_rebalance_options), intent(inout) :: opts
    end function
    integer(c_int) function hpartc_partition_points_f(comm, points, opts, out) bind(C, &
      name="hpart_partition_points_f")
      import
      integer(c_int), value :: comm
      type(c_ptr), value :: points
      type(hpart_point_options), intent(in) :: opts
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_partition_points_hierarchical_f(comm, points, opts, out) bind(C, &
      name="hpart_partition_points_hierarchical_f")
      import
      integer(c_int), value :: comm
      type(c_ptr), value :: points
      type(hpart_hier_point_options), intent(in) :: opts
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_partition_grid_f(comm, grid, opts, out) bind(C, name="hpart_partition_grid_f")
      import
      integer(c_int), value :: comm
      type(c_ptr), value :: grid
      type(hpart_grid_options), intent(in) :: opts
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_repartition_grid_f(comm, grid, previous, parts, imbalance, &
      out) bind(C, name="hpart_repartition_grid_f")
      import
      integer(c_int), value :: comm
      type(c_ptr), value :: grid, previous
      integer(c_int), value :: parts
      real(c_double), value :: imbalance
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_partition_graph_f(comm, graph, opts, out) bind(C, &
      name="hpart_partition_graph_f")
      import
      integer(c_int), value :: comm
      type(c_ptr), value :: graph
      type(hpart_graph_options), intent(in) :: opts
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_repartition_graph_f(comm, graph, current, opts, out) bind(C, &
      name="hpart_repartition_graph_f")
      import
      integer(c_int), value :: comm
      type(c_ptr), value :: graph, current
      type(hpart_graph_repart_options), intent(in) :: opts
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_evaluate_partition_f(comm, parts, n, num_parts, weights, ncon, &
      target_sizes, out) bind(C, name="hpart_evaluate_partition_f")
      import
      integer(c_int), value :: comm
      type(c_ptr), value :: parts
      integer(c_int64_t), value :: n
      integer(c_int), value :: num_parts
      type(c_ptr), value :: weights
      integer(c_int), value :: ncon
      type(c_ptr), value :: target_sizes
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_metrics_init(m) bind(C, name="hpart_metrics_init")
      import
      type(hpart_metrics), intent(inout) :: m
    end function
    integer(c_int) function hpartc_partition_metrics(p, m) bind(C, name="hpart_partition_metrics")
      import
      type(c_ptr), value :: p
      type(hpart_metrics), intent(inout) :: m
    end function
    integer(c_int) function hpartc_partition_num_parts(p, num_parts) bind(C, name="hpart_partition_num_parts")
      import
      type(c_ptr), value :: p
      integer(c_int), intent(out) :: num_parts
    end function
    integer(c_int) function hpartc_partition_local_size(p, n) bind(C, name="hpart_partition_local_size")
      import
      type(c_ptr), value :: p
      integer(c_int64_t), intent(out) :: n
    end function
    integer(c_int) function hpartc_partition_parts(p, parts) bind(C, name="hpart_partition_parts")
      import
      type(c_ptr), value :: p
      type(c_ptr), intent(out) :: parts
    end function
    integer(c_int) function hpartc_partition_get_parts_i32(p, parts) bind(C, name="hpart_partition_get_parts_i32")
      import
      type(c_ptr), value :: p, parts
    end function
    integer(c_int) function hpartc_partition_get_parts_i64(p, parts) bind(C, name="hpart_partition_get_parts_i64")
      import
      type(c_ptr), value :: p, parts
    end function
    integer(c_int) function hpartc_partition_part_weights(p, weights) bind(C, name="hpart_partition_part_weights")
      import
      type(c_ptr), value :: p
      type(c_ptr), intent(out) :: weights
    end function
    integer(c_int) function hpartc_partition_part_sizes(p, sizes) bind(C, name="hpart_partition_part_sizes")
      import
      type(c_ptr), value :: p
      type(c_ptr), intent(out) :: sizes
    end function
    integer(c_int) function hpartc_partition_imbalance(p, c, imbalance) bind(C, name="hpart_partition_imbalance")
      import
      type(c_ptr), value :: p
      integer(c_int), value :: c
      real(c_double), intent(out) :: imbalance
    end function
    integer(c_int) function hpartc_partition_owners(p, owner_of_part) bind(C, name="hpart_partition_owners")
      import
      type(c_ptr), value :: p
      type(c_ptr), intent(out) :: owner_of_part
    end function
    integer(c_int) function hpartc_partition_box(p, part, lo, hi) bind(C, name="hpart_partition_box")
      import
      type(c_ptr), value :: p
      integer(c_int32_t), value :: part
      type(c_ptr), value :: lo, hi
    end function
    integer(c_int) function hpartc_partition_part_of_cell(p, cell, part) bind(C, &
      name="hpart_partition_part_of_cell")
      import
      type(c_ptr), value :: p, cell
      integer(c_int32_t), intent(out) :: part
    end function
    integer(c_int) function hpartc_partition_free(p) bind(C, name="hpart_partition_free")
      import
      type(c_ptr), intent(inout) :: p
    end function
    integer(c_int) function hpartc_graph_metrics_init(m) bind(C, name="hpart_graph_metrics_init")
      import
      type(hpart_graph_metrics), intent(inout) :: m
    end function
    integer(c_int) function hpartc_graph_cut_f(comm, graph, parts, num_parts, m) bind(C, name="hpart_graph_cut_f")
      import
      integer(c_int), value :: comm
      type(c_ptr), value :: graph, parts
      integer(c_int), value :: num_parts
      type(hpart_graph_metrics), intent(inout) :: m
    end function
    integer(c_int) function hpartc_observation_init(obs) bind(C, name="hpart_observation_init")
      import
      type(hpart_observation), intent(inout) :: obs
    end function
    integer(c_int) function hpartc_decision_init(d) bind(C, name="hpart_decision_init")
      import
      type(hpart_decision), intent(inout) :: d
    end function
    integer(c_int) function hpartc_rebalance_stats_init(s) bind(C, name="hpart_rebalance_stats_init")
      import
      type(hpart_rebalance_stats), intent(inout) :: s
    end function
    integer(c_int) function hpartc_rebalancer_create_f(comm, opts, out) bind(C, name="hpart_rebalancer_create_f")
      import
      integer(c_int), value :: comm
      type(hpart_rebalance_options), intent(in) :: opts
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_rebalancer_partition_points(rb, points, out) bind(C, &
      name="hpart_rebalancer_partition_points")
      import
      type(c_ptr), value :: rb, points
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_rebalancer_partition_graph(rb, graph, out) bind(C, &
      name="hpart_rebalancer_partition_graph")
      import
      type(c_ptr), value :: rb, graph
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_rebalancer_observe(rb, obs) bind(C, name="hpart_rebalancer_observe")
      import
      type(c_ptr), value :: rb
      type(hpart_observation), intent(in) :: obs
    end function
    integer(c_int) function hpartc_rebalancer_decide(rb, decision) bind(C, name="hpart_rebalancer_decide")
      import
      type(c_ptr), value :: rb
      type(hpart_decision), intent(inout) :: decision
    end function
    integer(c_int) function hpartc_rebalancer_rebalance_points(rb, points, parts, out) bind(C, &
      name="hpart_rebalancer_rebalance_points")
      import
      type(c_ptr), value :: rb, points, parts
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_rebalancer_rebalance_graph(rb, graph, parts, out) bind(C, &
      name="hpart_rebalancer_rebalance_graph")
      import
      type(c_ptr), value :: rb, graph, parts
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_rebalancer_record_migration_seconds(rb, seconds) bind(C, &
      name="hpart_rebalancer_record_migration_seconds")
      import
      type(c_ptr), value :: rb
      real(c_double), value :: seconds
    end function
    integer(c_int) function hpartc_rebalancer_stats(rb, stats) bind(C, name="hpart_rebalancer_stats")
      import
      type(c_ptr), value :: rb
      type(hpart_rebalance_stats), intent(inout) :: stats
    end function
    integer(c_int) function hpartc_rebalancer_free(rb) bind(C, name="hpart_rebalancer_free")
      import
      type(c_ptr), intent(inout) :: rb
    end function
    integer(c_int) function hpartc_migration_create_f(comm, parts, n, num_parts, owner_of_part, ids, &
      out) bind(C, name="hpart_migration_create_f")
      import
      integer(c_int), value :: comm
      type(c_ptr), value :: parts
      integer(c_int64_t), value :: n
      integer(c_int), value :: num_parts
      type(c_ptr), value :: owner_of_part, ids
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_migration_from_partition_f(comm, p, ids, out) bind(C, &
      name="hpart_migration_from_partition_f")
      import
      integer(c_int), value :: comm
      type(c_ptr), value :: p, ids
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_migration_num_imports(m, n) bind(C, name="hpart_migration_num_imports")
      import
      type(c_ptr), value :: m
      integer(c_int64_t), intent(out) :: n
    end function
    integer(c_int) function hpartc_migration_num_exports(m, n) bind(C, name="hpart_migration_num_exports")
      import
      type(c_ptr), value :: m
      integer(c_int64_t), intent(out) :: n
    end function
    integer(c_int) function hpartc_migration_send_counts(m, counts) bind(C, name="hpart_migration_send_counts")
      import
      type(c_ptr), value :: m
      type(c_ptr), intent(out) :: counts
    end function
    integer(c_int) function hpartc_migration_recv_counts(m, counts) bind(C, name="hpart_migration_recv_counts")
      import
      type(c_ptr), value :: m
      type(c_ptr), intent(out) :: counts
    end function
    integer(c_int) function hpartc_migration_destinations(m, ranks) bind(C, name="hpart_migration_destinations")
      import
      type(c_ptr), value :: m
      type(c_ptr), intent(out) :: ranks
    end function
    integer(c_int) function hpartc_migration_imported_ids(m, ids) bind(C, name="hpart_migration_imported_ids")
      import
      type(c_ptr), value :: m
      type(c_ptr), intent(out) :: ids
    end function
    integer(c_int) function hpartc_migration_move(m, in, n, record_size, out, out_capacity) bind(C, &
      name="hpart_migration_move")
      import
      type(c_ptr), value :: m, in
      integer(c_int64_t), value :: n
      integer(c_size_t), value :: record_size
      type(c_ptr), value :: out
      integer(c_int64_t), value :: out_capacity
    end function
    integer(c_int) function hpartc_migration_free(m) bind(C, name="hpart_migration_free")
      import
      type(c_ptr), intent(inout) :: m
    end function
    integer(c_int) function hpartc_read_points_text_f(comm, path, dim, out) bind(C, &
      name="hpart_read_points_text_f")
      import
      integer(c_int), value :: comm
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int), value :: dim
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_read_points_h5_f(comm, path, out) bind(C, name="hpart_read_points_h5_f")
      import
      integer(c_int), value :: comm
      character(kind=c_char), intent(in) :: path(*)
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_read_graph_metis_f(comm, path, out) bind(C, name="hpart_read_graph_metis_f")
      import
      integer(c_int), value :: comm
      character(kind=c_char), intent(in) :: path(*)
      type(c_ptr), intent(out) :: out
    end function
    integer(c_int) function hpartc_write_parts_text_f(comm, path, parts, n) bind(C, &
      name="hpart_write_parts_text_f")
      import
      integer(c_int), value :: comm
      character(kind=c_char), intent(in) :: path(*)
      type(c_ptr), value :: parts
      integer(c_int64_t), value :: n
    end function
  end interface
end module hpart_c
