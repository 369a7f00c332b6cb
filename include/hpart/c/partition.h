/* hpart's C API, one part: the partitioners and their results. include/hpart/hpart.h includes
 * every part, in order, and states the conventions; this part is self-contained (it includes
 * the parts it needs), so it may also be included alone. */
#ifndef HPART_C_PARTITION_H
#define HPART_C_PARTITION_H

#include "hpart/c/base.h"
#include "hpart/c/options.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Partitioners (collective) ------------------------------------------------------------- */

hpart_status hpart_partition_points(MPI_Comm comm, const hpart_points* points, const hpart_point_options* opts,
                                    hpart_partition** out);
hpart_status hpart_partition_points_f(MPI_Fint comm, const hpart_points* points,
                                      const hpart_point_options* opts, hpart_partition** out);
hpart_status hpart_partition_points_hierarchical(MPI_Comm comm, const hpart_points* points,
                                                 const hpart_hier_point_options* opts, hpart_partition** out);
hpart_status hpart_partition_points_hierarchical_f(MPI_Fint comm, const hpart_points* points,
                                                   const hpart_hier_point_options* opts, hpart_partition** out);
hpart_status hpart_partition_grid(MPI_Comm comm, const hpart_grid* grid, const hpart_grid_options* opts,
                                  hpart_partition** out);
hpart_status hpart_partition_grid_f(MPI_Fint comm, const hpart_grid* grid, const hpart_grid_options* opts,
                                    hpart_partition** out);
/* Nodes first, then the ranks of each node (box, grid, hpart_map_create_grid work on it). */
hpart_status hpart_partition_grid_hierarchical(MPI_Comm comm, const hpart_grid* grid,
                                               const hpart_hier_grid_options* opts, hpart_partition** out);
hpart_status hpart_partition_grid_hierarchical_f(MPI_Fint comm, const hpart_grid* grid,
                                                 const hpart_hier_grid_options* opts, hpart_partition** out);
/* Moves the cut planes of a blocks partition `previous` of the same grid (parts, imbalance). */
hpart_status hpart_repartition_grid(MPI_Comm comm, const hpart_grid* grid, const hpart_partition* previous,
                                    int parts, double imbalance, hpart_partition** out);
hpart_status hpart_repartition_grid_f(MPI_Fint comm, const hpart_grid* grid, const hpart_partition* previous,
                                      int parts, double imbalance, hpart_partition** out);
hpart_status hpart_partition_graph(MPI_Comm comm, const hpart_graph* graph, const hpart_graph_options* opts,
                                   hpart_partition** out);
hpart_status hpart_partition_graph_f(MPI_Fint comm, const hpart_graph* graph, const hpart_graph_options* opts,
                                     hpart_partition** out);
/* Nodes first, then the ranks of each node; hpart_partition_owners gives each part's rank. */
hpart_status hpart_partition_graph_hierarchical(MPI_Comm comm, const hpart_graph* graph,
                                                const hpart_hier_graph_options* opts, hpart_partition** out);
hpart_status hpart_partition_graph_hierarchical_f(MPI_Fint comm, const hpart_graph* graph,
                                                  const hpart_hier_graph_options* opts, hpart_partition** out);
/* current: the part of each local vertex (n = local vertices). */
hpart_status hpart_repartition_graph(MPI_Comm comm, const hpart_graph* graph, const int32_t* current,
                                     const hpart_graph_repart_options* opts, hpart_partition** out);
hpart_status hpart_repartition_graph_f(MPI_Fint comm, const hpart_graph* graph, const int32_t* current,
                                       const hpart_graph_repart_options* opts, hpart_partition** out);
/* Part weights, sizes and imbalance of an existing partition (n local parts, weights n * ncon
 * or NULL, target_sizes NULL or num_parts values). */
hpart_status hpart_evaluate_partition(MPI_Comm comm, const int32_t* parts, int64_t n, int num_parts,
                                      const double* weights, int ncon, const double* target_sizes,
                                      hpart_partition** out);
hpart_status hpart_evaluate_partition_f(MPI_Fint comm, const int32_t* parts, int64_t n, int num_parts,
                                        const double* weights, int ncon, const double* target_sizes,
                                        hpart_partition** out);

/* ---- Results (local) ----------------------------------------------------------------------- */

typedef struct hpart_metrics {
  size_t size;
  int num_parts;
  int ncon;
  int64_t objects;          /* global object count */
  int64_t empty_parts;
  double imbalance;         /* first weight: max part weight / target - 1 */
  double max_imbalance;     /* over every weight */
  double seconds;           /* the call's wall time, max over ranks */
  double tolerance;         /* the imbalance asked for (-1: none) */
  int within_tolerance;     /* 0 or 1 */
  int has_cut;              /* graph results: the three cut figures below are set */
  int64_t edge_cut;
  int64_t comm_volume;
  int64_t boundary_vertices;
  int is_repartition;       /* repartitions: the four figures below are set */
  int from_scratch;
  int steps;
  int64_t migrated_objects;
  double migrated_weight;
  double surface_growth;
} hpart_metrics;
hpart_status hpart_metrics_init(hpart_metrics* m);
hpart_status hpart_partition_metrics(const hpart_partition* p, hpart_metrics* m);

hpart_status hpart_partition_num_parts(const hpart_partition* p, int* num_parts);
hpart_status hpart_partition_local_size(const hpart_partition* p, int64_t* n);
/* The part of each local object, in input order: borrowed from the handle (no copy) ... */
hpart_status hpart_partition_parts(const hpart_partition* p, const int32_t** parts);
/* ... or copied into the caller's array of local_size values. */
hpart_status hpart_partition_get_parts_i32(const hpart_partition* p, int32_t* parts);
hpart_status hpart_partition_get_parts_i64(const hpart_partition* p, int64_t* parts);
/* Global per-part tables: weights num_parts * ncon (part-major), sizes num_parts. */
hpart_status hpart_partition_part_weights(const hpart_partition* p, const double** weights);
hpart_status hpart_partition_part_sizes(const hpart_partition* p, const int64_t** sizes);
/* Per weight dimension c in [0, ncon). */
hpart_status hpart_partition_imbalance(const hpart_partition* p, int c, double* imbalance);
/* The rank that owns each part (num_parts values): hierarchical partitions' owner_of_part,
 * else contiguous blocks (p * R / K) of the communicator the partition was made on. */
hpart_status hpart_partition_owners(const hpart_partition* p, const int32_t** owner_of_part);
/* Grid partitions: a part's box (dim values each, inclusive; hi < lo when empty), and the part
 * of any cell of the grid, without communication. HPART_ERR_UNSUPPORTED for other kinds. */
hpart_status hpart_partition_box(const hpart_partition* p, int32_t part, int64_t* lo, int64_t* hi);
hpart_status hpart_partition_part_of_cell(const hpart_partition* p, const int64_t* cell, int32_t* part);
hpart_status hpart_partition_free(hpart_partition** p);

typedef struct hpart_graph_metrics {
  size_t size;
  int64_t edge_cut;
  int64_t comm_volume;
  int64_t boundary_vertices;
} hpart_graph_metrics;
hpart_status hpart_graph_metrics_init(hpart_graph_metrics* m);
/* Collective: the cut of parts (one per local vertex) into num_parts parts. */
hpart_status hpart_graph_cut(MPI_Comm comm, const hpart_graph* graph, const int32_t* parts, int num_parts,
                             hpart_graph_metrics* m);
hpart_status hpart_graph_cut_f(MPI_Fint comm, const hpart_graph* graph, const int32_t* parts, int num_parts,
                               hpart_graph_metrics* m);

#ifdef __cplusplus
}
#endif

#endif /* HPART_C_PARTITION_H */
