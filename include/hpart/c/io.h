/* hpart's C API, one part: file readers and writers. include/hpart/hpart.h includes
 * every part, in order, and states the conventions; this part is self-contained (it includes
 * the parts it needs), so it may also be included alone. */
#ifndef HPART_C_IO_H
#define HPART_C_IO_H

#include "hpart/c/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Files (collective) -------------------------------------------------------------------- */

/* Text points `x y [z] [w]` (dim 0: from the columns); rank r gets its block, in file order,
 * with ids = line order. The handle owns the arrays. */
hpart_status hpart_read_points_text(MPI_Comm comm, const char* path, int dim, hpart_points** out);
hpart_status hpart_read_points_text_f(MPI_Fint comm, const char* path, int dim, hpart_points** out);
/* HDF5 points (/points, /weights, /ids); HPART_ERR_UNSUPPORTED when built without HDF5. */
hpart_status hpart_read_points_h5(MPI_Comm comm, const char* path, hpart_points** out);
hpart_status hpart_read_points_h5_f(MPI_Fint comm, const char* path, hpart_points** out);
/* A METIS .graph file; rank r gets a block of vertices. The handle owns the arrays. */
hpart_status hpart_read_graph_metis(MPI_Comm comm, const char* path, hpart_graph** out);
hpart_status hpart_read_graph_metis_f(MPI_Fint comm, const char* path, hpart_graph** out);
/* A MatrixMarket coordinate file (the pattern of a square matrix, symmetrised, diagonal
 * dropped, unit weights) or a Chaco file (the METIS layout; optional vertex numbers checked), as
 * hpart/graph.hpp's read_graph_matrix_market and read_graph_chaco read them; rank r gets a block
 * of vertices. The handle owns the arrays. */
hpart_status hpart_read_graph_matrix_market(MPI_Comm comm, const char* path, hpart_graph** out);
hpart_status hpart_read_graph_matrix_market_f(MPI_Fint comm, const char* path, hpart_graph** out);
hpart_status hpart_read_graph_chaco(MPI_Comm comm, const char* path, hpart_graph** out);
hpart_status hpart_read_graph_chaco_f(MPI_Fint comm, const char* path, hpart_graph** out);
/* One part per line, the ranks' parts in rank order. */
hpart_status hpart_write_parts_text(MPI_Comm comm, const char* path, const int32_t* parts, int64_t n);
hpart_status hpart_write_parts_text_f(MPI_Fint comm, const char* path, const int32_t* parts, int64_t n);
/* HDF5 (hpart/hdf5.hpp's write_partition_h5): /parts (the ranks' parts in rank order), the
 * per-part tables and summary attributes; /ids when ids is given (p's local size values, on every
 * rank holding objects or on none); /points and /weights plus an XDMF file next to it when
 * points (p's local size points, their ids not written) is given on every rank, else NULL on
 * every rank. HPART_ERR_UNSUPPORTED when built without HDF5. */
hpart_status hpart_write_partition_h5(MPI_Comm comm, const char* path, const hpart_partition* p, const int64_t* ids,
                                      const hpart_points* points);
hpart_status hpart_write_partition_h5_f(MPI_Fint comm, const char* path, const hpart_partition* p, const int64_t* ids,
                                        const hpart_points* points);
/* Reads a 1D integer dataset (NULL or "": "/parts", as hpart_write_partition_h5 writes it):
 * rank r's block of rows, the blocks hpart_read_points_h5 gives. *n is this rank's row count;
 * the first min(*n, capacity) are written to parts (capacity 0 and parts NULL: the count only).
 * Values must fit int32_t (a wider one is an error naming the row). HPART_ERR_UNSUPPORTED when
 * built without HDF5. */
hpart_status hpart_read_parts_h5(MPI_Comm comm, const char* path, const char* dataset, int32_t* parts,
                                 int64_t capacity, int64_t* n);
hpart_status hpart_read_parts_h5_f(MPI_Fint comm, const char* path, const char* dataset, int32_t* parts,
                                   int64_t capacity, int64_t* n);

#ifdef __cplusplus
}
#endif

#endif /* HPART_C_IO_H */
