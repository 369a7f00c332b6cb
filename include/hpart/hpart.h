/* hpart's C API: a C99 interface to the C++ library (libhpart), for C, Fortran (over
 * iso_c_binding) and C++ codes that cannot include C++20 headers. docs/c_api.md is the guide.
 *
 * One pattern throughout:
 *  - Every function returns an hpart_status; HPART_OK is 0. The message of the last failing
 *    call of this thread is hpart_last_error(). C++ exceptions never cross this interface.
 *  - Objects are opaque handles (hpart_points, hpart_partition, ...), each made by a create (or
 *    a partitioner, or a reader) into an `out` argument and released by its hpart_X_free(&h),
 *    which sets h to NULL; freeing NULL is a no-op. A freed, foreign or wrongly typed handle is
 *    detected (HPART_ERR_INVALID_ARGUMENT), never dereferenced.
 *  - A function that takes an MPI_Comm, or a handle that holds one (hpart_rebalancer,
 *    hpart_migration), is collective: every rank of the communicator calls it, and every rank
 *    gets the same status and message, bad arguments on one rank included. Every other function
 *    is local. Each collective taking MPI_Comm has an _f twin taking a Fortran MPI_Fint.
 *  - Option and result structs start with `size_t size`; fill them with hpart_X_init(&s) first
 *    (it sets size and the defaults), so that a library built with a larger struct still reads
 *    an older caller's correctly, and an uninitialised struct is refused.
 *  - Input arrays are borrowed for the call (or, for a handle made over them, for the handle's
 *    life); output arrays are the caller's. Counts are int64_t; part ids are int32_t.
 */
#ifndef HPART_H
#define HPART_H

/* The declarations live in part headers (include/hpart/c/), one per area, each usable alone;
 * this header includes all of them, in this order. */
#include "hpart/c/base.h"
#include "hpart/c/points.h"
#include "hpart/c/graph.h"
#include "hpart/c/options.h"
#include "hpart/c/partition.h"
#include "hpart/c/rebalance.h"
#include "hpart/c/migration.h"
#include "hpart/c/assign.h"
#include "hpart/c/io.h"

#endif /* HPART_H */
