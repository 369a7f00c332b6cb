/* hpart's C API, one part: distributed graphs. include/hpart/hpart.h includes
 * every part, in order, and states the conventions; this part is self-contained (it includes
 * the parts it needs), so it may also be included alone. */
#ifndef HPART_C_GRAPH_H
#define HPART_C_GRAPH_H

#include "hpart/c/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Graphs -------------------------------------------------------------------------------- */

/* Collective over comm (the ranks agree on the outcome). ParMETIS arrays, 0-based: vtxdist (R +
 * 1 values), xadj (n + 1), adjncy (xadj[n]), vwgt (n * ncon, or NULL: unit), adjwgt (xadj[n],
 * or NULL: unit). The arrays are borrowed at either width (they must outlive the handle): hpart
 * reads 32-bit offsets, ids and weights in place; only a 32-bit vtxdist (R + 1 values) is
 * widened into the handle. Structure and symmetry are checked by the partitioners. */
hpart_status hpart_graph_create_i64(MPI_Comm comm, const int64_t* vtxdist, const int64_t* xadj,
                                    const int64_t* adjncy, const int64_t* vwgt, int ncon,
                                    const int64_t* adjwgt, hpart_graph** out);
hpart_status hpart_graph_create_i32(MPI_Comm comm, const int32_t* vtxdist, const int32_t* xadj,
                                    const int32_t* adjncy, const int32_t* vwgt, int ncon,
                                    const int32_t* adjwgt, hpart_graph** out);
hpart_status hpart_graph_create_i64_f(MPI_Fint comm, const int64_t* vtxdist, const int64_t* xadj,
                                      const int64_t* adjncy, const int64_t* vwgt, int ncon,
                                      const int64_t* adjwgt, hpart_graph** out);
hpart_status hpart_graph_create_i32_f(MPI_Fint comm, const int32_t* vtxdist, const int32_t* xadj,
                                      const int32_t* adjncy, const int32_t* vwgt, int ncon,
                                      const int32_t* adjwgt, hpart_graph** out);
/* Local: vertex coordinates for the geometric method, n * dim (borrowed), dim 2 or 3. */
hpart_status hpart_graph_set_coords(hpart_graph* graph, int dim, const double* coords);
hpart_status hpart_graph_local_vertices(const hpart_graph* graph, int64_t* n);
/* Local: the arrays the handle uses (vwgt/adjwgt NULL when unit). The neighbour ids are in
 * adjncy (64-bit) or adjncy32 (32-bit: a handle from hpart_graph_create_i32), the other NULL;
 * xadj, vwgt and adjwgt are NULL for a handle from _create_i32 too (they are the caller's own
 * 32-bit arrays). Any output pointer may be NULL. */
hpart_status hpart_graph_arrays(const hpart_graph* graph, const int64_t** vtxdist, const int64_t** xadj,
                                const int64_t** adjncy, const int32_t** adjncy32, const int64_t** vwgt,
                                const int64_t** adjwgt, int* ncon);
hpart_status hpart_graph_free(hpart_graph** graph);

#ifdef __cplusplus
}
#endif

#endif /* HPART_C_GRAPH_H */
