/* hpart's C API, one part: status codes and messages, constants, the opaque handles and
 * Fortran communicators, which every other part includes. include/hpart/hpart.h includes every
 * part, in order, and states the conventions; this part may also be included alone. */
#ifndef HPART_C_BASE_H
#define HPART_C_BASE_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Status codes and messages ---------------------------------------------------------- */

/* 1..5 are hpart::ErrorCode's values, one to one; hpart::ErrorCode::unsupported (a dependency
 * this build lacks) is HPART_ERR_UNSUPPORTED; the others arise at this boundary. */
typedef enum hpart_status {
  HPART_OK = 0,
  HPART_ERR_INVALID_ARGUMENT = 1, /* an argument outside its range, a NULL pointer, a bad handle */
  HPART_ERR_INVALID_INPUT = 2,    /* data that cannot be partitioned (NaN coordinate, ...) */
  HPART_ERR_SIZE_MISMATCH = 3,    /* array lengths that disagree */
  HPART_ERR_IO = 4,               /* unreadable, truncated or malformed file */
  HPART_ERR_INTERNAL = 5,         /* a broken invariant inside hpart, or an unknown exception */
  HPART_ERR_MEMORY = 6,           /* an allocation failed (std::bad_alloc) */
  HPART_ERR_UNSUPPORTED = 7,      /* not built into this libhpart (e.g. HDF5), or not this kind */
  HPART_ERR_MPI = 8               /* an MPI call failed or the communicator is unusable */
} hpart_status;

/* The message of this thread's last failing call ("" if none): valid until the thread's next
 * failing call. Successful calls leave it as it is. */
const char* hpart_last_error(void);
/* A constant name for a status: "HPART_OK", "HPART_ERR_IO", ... */
const char* hpart_status_string(hpart_status status);

/* ---- Constants ----------------------------------------------------------------------------- */

enum { HPART_CURVE_HILBERT = 0, HPART_CURVE_MORTON = 1 };
enum { HPART_GRID_SFC = 0, HPART_GRID_BLOCKS = 1, HPART_GRID_TENSOR = 2, HPART_GRID_UNIFORM = 3 };
enum { HPART_GRAPH_MULTILEVEL = 0, HPART_GRAPH_METIS = 1, HPART_GRAPH_GEOMETRIC_REFINE = 2 };
enum { HPART_NODE_CUT_STAIRCASE = 0, HPART_NODE_CUT_BOXES = 1, HPART_NODE_CUT_GRAPH = 2 };
enum { HPART_PRESET_FAST = 0, HPART_PRESET_STANDARD = 1, HPART_PRESET_STRONG = 2 };
enum { HPART_REBALANCE_NONE = 0, HPART_REBALANCE_SCRATCH = 1, HPART_REBALANCE_SHIFT = 2,
       HPART_REBALANCE_DIFFUSION = 3 };

/* ---- Handles ------------------------------------------------------------------------------- */

typedef struct hpart_points_s hpart_points;       /* a point set (a view, or owned when read) */
typedef struct hpart_grid_s hpart_grid;           /* a structured grid and this rank's cells */
typedef struct hpart_graph_s hpart_graph;         /* a distributed CSR graph (ParMETIS layout) */
typedef struct hpart_partition_s hpart_partition; /* the result of every partitioner */
typedef struct hpart_rebalancer_s hpart_rebalancer;
typedef struct hpart_migration_s hpart_migration;

/* Fortran communicators: MPI_Comm_f2c, refusing MPI_COMM_NULL. Local. */
hpart_status hpart_comm_from_fortran(MPI_Fint fcomm, MPI_Comm* comm);

#ifdef __cplusplus
}
#endif

#endif /* HPART_C_BASE_H */
