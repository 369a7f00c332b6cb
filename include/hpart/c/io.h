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
/* One part per line, the ranks' parts in rank order. */
hpart_status hpart_write_parts_text(MPI_Comm comm, const char* path, const int32_t* parts, int64_t n);
hpart_status hpart_write_parts_text_f(MPI_Fint comm, const char* path, const int32_t* parts, int64_t n);

#ifdef __cplusplus
}
#endif

#endif /* HPART_C_IO_H */
