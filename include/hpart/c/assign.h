/* hpart's C API, one part: point and box assign (hpart_map). include/hpart/hpart.h includes
 * every part, in order, and states the conventions; this part is self-contained (it includes
 * the parts it needs), so it may also be included alone. */
#ifndef HPART_C_ASSIGN_H
#define HPART_C_ASSIGN_H

#include "hpart/c/base.h"
#include "hpart/c/options.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Point and box assign ------------------------------------------------------------------ */

/* A partition's descriptor (O(K) memory, the same on every rank) that locates any coordinate
 * and box with no communication. Made collectively from a partition and the objects and
 * options it was made with; queried locally (thread-safe); saved and loaded as text. */
typedef struct hpart_map_s hpart_map;
hpart_status hpart_map_create_points(MPI_Comm comm, const hpart_points* points, const hpart_point_options* opts,
                                     const hpart_partition* p, hpart_map** out);
hpart_status hpart_map_create_points_f(MPI_Fint comm, const hpart_points* points, const hpart_point_options* opts,
                                       const hpart_partition* p, hpart_map** out);
hpart_status hpart_map_create_points_hierarchical(MPI_Comm comm, const hpart_points* points,
                                                  const hpart_hier_point_options* opts, const hpart_partition* p,
                                                  hpart_map** out);
hpart_status hpart_map_create_points_hierarchical_f(MPI_Fint comm, const hpart_points* points,
                                                    const hpart_hier_point_options* opts, const hpart_partition* p,
                                                    hpart_map** out);
hpart_status hpart_map_create_grid(MPI_Comm comm, const hpart_grid* grid, const hpart_partition* p, hpart_map** out);
hpart_status hpart_map_create_grid_f(MPI_Fint comm, const hpart_grid* grid, const hpart_partition* p,
                                     hpart_map** out);
/* Local. A coordinate is dim values (grids: in cell units). */
hpart_status hpart_map_dim(const hpart_map* map, int* dim);
hpart_status hpart_map_num_parts(const hpart_map* map, int* num_parts);
hpart_status hpart_map_part_of(const hpart_map* map, const double* x, int32_t* part);
/* Exact for an object the partition saw: its global id there. */
hpart_status hpart_map_part_of_id(const hpart_map* map, const double* x, int64_t id, int32_t* part);
hpart_status hpart_map_rank_of(const hpart_map* map, const double* x, int* rank);
hpart_status hpart_map_rank_of_id(const hpart_map* map, const double* x, int64_t id, int* rank);
hpart_status hpart_map_rank_of_part(const hpart_map* map, int32_t part, int* rank);
/* n points (coords n * dim, ids n or NULL) into parts (n values). */
hpart_status hpart_map_assign(const hpart_map* map, int64_t n, const double* coords, const int64_t* ids,
                              int32_t* parts);
/* The parts (ranks) whose region meets the closed box [lo, hi], ascending: *count of them, the
 * first min(*count, capacity) written. */
hpart_status hpart_map_parts_in_box(const hpart_map* map, const double* lo, const double* hi, int32_t* parts,
                                    int64_t capacity, int64_t* count);
hpart_status hpart_map_ranks_in_box(const hpart_map* map, const double* lo, const double* hi, int* ranks,
                                    int64_t capacity, int64_t* count);
hpart_status hpart_map_save(const hpart_map* map, const char* path);
hpart_status hpart_map_load(const char* path, hpart_map** out);
hpart_status hpart_map_free(hpart_map** map);

#ifdef __cplusplus
}
#endif

#endif /* HPART_C_ASSIGN_H */
