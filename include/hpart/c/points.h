/* hpart's C API, one part: point sets and grids (local). include/hpart/hpart.h includes
 * every part, in order, and states the conventions; this part is self-contained (it includes
 * the parts it needs), so it may also be included alone. */
#ifndef HPART_C_POINTS_H
#define HPART_C_POINTS_H

#include "hpart/c/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Point sets (local) -------------------------------------------------------------------- */

/* A view of n points of `dim` (2 or 3) interleaved coordinates (x0 y0 [z0] x1 ...): coords is
 * borrowed and must outlive the handle. n = 0 allows coords = NULL. */
hpart_status hpart_points_create(int dim, int64_t n, const double* coords, hpart_points** out);
/* ncon weights per point, interleaved (borrowed); NULL: unit weights. */
hpart_status hpart_points_set_weights(hpart_points* points, int ncon, const double* weights);
/* Global ids (non-negative, unique), borrowed at either width (hpart reads 32-bit ids in
 * place). NULL: ids in rank order. */
hpart_status hpart_points_set_ids_i64(hpart_points* points, const int64_t* ids);
hpart_status hpart_points_set_ids_i32(hpart_points* points, const int32_t* ids);
hpart_status hpart_points_size(const hpart_points* points, int64_t* n);
hpart_status hpart_points_dim(const hpart_points* points, int* dim);
/* The arrays the handle sees (NULL where none; ids NULL too when they were set at 32 bits:
 * they are the caller's own array); pointers valid while the handle lives. */
hpart_status hpart_points_coords(const hpart_points* points, const double** coords);
hpart_status hpart_points_weights(const hpart_points* points, const double** weights, int* ncon);
hpart_status hpart_points_ids(const hpart_points* points, const int64_t** ids);
hpart_status hpart_points_free(hpart_points** points);

/* ---- Grids (local) ------------------------------------------------------------------------- */

/* A grid of extent[0..dim) cells (dim 2 or 3); this rank holds the box lo..hi (inclusive, dim
 * values each; hi < lo on an axis: no cells) with cost[] one per cell, x fastest (borrowed;
 * NULL: unit cost). */
hpart_status hpart_grid_create(int dim, const int64_t* extent, const int64_t* lo, const int64_t* hi,
                               const double* cost, hpart_grid** out);
hpart_status hpart_grid_free(hpart_grid** grid);

#ifdef __cplusplus
}
#endif

#endif /* HPART_C_POINTS_H */
