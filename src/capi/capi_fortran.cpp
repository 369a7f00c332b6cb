// The _f twins of the C API's collectives: the same call on the C handle of a Fortran
// communicator (MPI_Comm_f2c). A Fortran MPI_COMM_NULL is refused locally, as in C.
#include "capi/capi.hpp"

using namespace hpart::capi;

namespace {

// Converts, then calls; a failed conversion is the call's status.
template <class F>
hpart_status with_c_comm(MPI_Fint f, const char* fn, F&& call) {
  MPI_Comm c = MPI_COMM_NULL;
  const hpart_status s = guard([&] { c = from_fortran(f, fn); });
  return s != HPART_OK ? s : call(c);
}

}  // namespace

#define HPART_F(name, ...) with_c_comm(comm, #name "_f", [&](MPI_Comm c) { return name(c, __VA_ARGS__); })

extern "C" {

hpart_status hpart_graph_create_i64_f(MPI_Fint comm, const int64_t* vtxdist, const int64_t* xadj, const int64_t* adjncy,
                                      const int64_t* vwgt, int ncon, const int64_t* adjwgt, hpart_graph** out) {
  return HPART_F(hpart_graph_create_i64, vtxdist, xadj, adjncy, vwgt, ncon, adjwgt, out);
}
hpart_status hpart_graph_create_i32_f(MPI_Fint comm, const int32_t* vtxdist, const int32_t* xadj, const int32_t* adjncy,
                                      const int32_t* vwgt, int ncon, const int32_t* adjwgt, hpart_graph** out) {
  return HPART_F(hpart_graph_create_i32, vtxdist, xadj, adjncy, vwgt, ncon, adjwgt, out);
}
hpart_status hpart_partition_points_f(MPI_Fint comm, const hpart_points* points, const hpart_point_options* opts,
                                      hpart_partition** out) {
  return HPART_F(hpart_partition_points, points, opts, out);
}
hpart_status hpart_partition_points_hierarchical_f(MPI_Fint comm, const hpart_points* points,
                                                   const hpart_hier_point_options* opts, hpart_partition** out) {
  return HPART_F(hpart_partition_points_hierarchical, points, opts, out);
}
hpart_status hpart_partition_grid_f(MPI_Fint comm, const hpart_grid* grid, const hpart_grid_options* opts,
                                    hpart_partition** out) {
  return HPART_F(hpart_partition_grid, grid, opts, out);
}
hpart_status hpart_partition_grid_hierarchical_f(MPI_Fint comm, const hpart_grid* grid,
                                                 const hpart_hier_grid_options* opts, hpart_partition** out) {
  return HPART_F(hpart_partition_grid_hierarchical, grid, opts, out);
}
hpart_status hpart_repartition_grid_f(MPI_Fint comm, const hpart_grid* grid, const hpart_partition* previous, int parts,
                                      double imbalance, hpart_partition** out) {
  return HPART_F(hpart_repartition_grid, grid, previous, parts, imbalance, out);
}
hpart_status hpart_partition_graph_f(MPI_Fint comm, const hpart_graph* graph, const hpart_graph_options* opts,
                                     hpart_partition** out) {
  return HPART_F(hpart_partition_graph, graph, opts, out);
}
hpart_status hpart_partition_graph_hierarchical_f(MPI_Fint comm, const hpart_graph* graph,
                                                  const hpart_hier_graph_options* opts, hpart_partition** out) {
  return HPART_F(hpart_partition_graph_hierarchical, graph, opts, out);
}
hpart_status hpart_repartition_graph_f(MPI_Fint comm, const hpart_graph* graph, const int32_t* current,
                                       const hpart_graph_repart_options* opts, hpart_partition** out) {
  return HPART_F(hpart_repartition_graph, graph, current, opts, out);
}
hpart_status hpart_evaluate_partition_f(MPI_Fint comm, const int32_t* parts, int64_t n, int num_parts,
                                        const double* weights, int ncon, const double* target_sizes,
                                        hpart_partition** out) {
  return HPART_F(hpart_evaluate_partition, parts, n, num_parts, weights, ncon, target_sizes, out);
}
hpart_status hpart_graph_cut_f(MPI_Fint comm, const hpart_graph* graph, const int32_t* parts, int num_parts,
                               hpart_graph_metrics* m) {
  return HPART_F(hpart_graph_cut, graph, parts, num_parts, m);
}
hpart_status hpart_rebalancer_create_f(MPI_Fint comm, const hpart_rebalance_options* opts, hpart_rebalancer** out) {
  return HPART_F(hpart_rebalancer_create, opts, out);
}
hpart_status hpart_migration_create_f(MPI_Fint comm, const int32_t* parts, int64_t n, int num_parts,
                                      const int32_t* owner_of_part, const int64_t* ids, hpart_migration** out) {
  return HPART_F(hpart_migration_create, parts, n, num_parts, owner_of_part, ids, out);
}
hpart_status hpart_migration_create_i64_f(MPI_Fint comm, const int64_t* parts, int64_t n, int num_parts,
                                          const int32_t* owner_of_part, const int64_t* ids, hpart_migration** out) {
  return HPART_F(hpart_migration_create_i64, parts, n, num_parts, owner_of_part, ids, out);
}
hpart_status hpart_migration_from_partition_f(MPI_Fint comm, const hpart_partition* p, const int64_t* ids,
                                              hpart_migration** out) {
  return HPART_F(hpart_migration_from_partition, p, ids, out);
}
hpart_status hpart_map_create_points_f(MPI_Fint comm, const hpart_points* points, const hpart_point_options* opts,
                                       const hpart_partition* p, hpart_map** out) {
  return HPART_F(hpart_map_create_points, points, opts, p, out);
}
hpart_status hpart_map_create_points_hierarchical_f(MPI_Fint comm, const hpart_points* points,
                                                    const hpart_hier_point_options* opts, const hpart_partition* p,
                                                    hpart_map** out) {
  return HPART_F(hpart_map_create_points_hierarchical, points, opts, p, out);
}
hpart_status hpart_map_create_grid_f(MPI_Fint comm, const hpart_grid* grid, const hpart_partition* p, hpart_map** out) {
  return HPART_F(hpart_map_create_grid, grid, p, out);
}
hpart_status hpart_read_points_text_f(MPI_Fint comm, const char* path, int dim, hpart_points** out) {
  return HPART_F(hpart_read_points_text, path, dim, out);
}
hpart_status hpart_read_points_h5_f(MPI_Fint comm, const char* path, hpart_points** out) {
  return HPART_F(hpart_read_points_h5, path, out);
}
hpart_status hpart_read_graph_metis_f(MPI_Fint comm, const char* path, hpart_graph** out) {
  return HPART_F(hpart_read_graph_metis, path, out);
}
hpart_status hpart_read_graph_matrix_market_f(MPI_Fint comm, const char* path, hpart_graph** out) {
  return HPART_F(hpart_read_graph_matrix_market, path, out);
}
hpart_status hpart_read_graph_chaco_f(MPI_Fint comm, const char* path, hpart_graph** out) {
  return HPART_F(hpart_read_graph_chaco, path, out);
}
hpart_status hpart_write_partition_h5_f(MPI_Fint comm, const char* path, const hpart_partition* p, const int64_t* ids,
                                        const hpart_points* points) {
  return HPART_F(hpart_write_partition_h5, path, p, ids, points);
}
hpart_status hpart_read_parts_h5_f(MPI_Fint comm, const char* path, const char* dataset, int32_t* parts,
                                   int64_t capacity, int64_t* n) {
  return HPART_F(hpart_read_parts_h5, path, dataset, parts, capacity, n);
}
hpart_status hpart_write_parts_text_f(MPI_Fint comm, const char* path, const int32_t* parts, int64_t n) {
  return HPART_F(hpart_write_parts_text, path, parts, n);
}

}  // extern "C"
