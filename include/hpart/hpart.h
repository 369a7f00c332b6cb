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

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Status codes and messages ---------------------------------------------------------- */

/* 1..5 are hpart::ErrorCode's values, one to one; the others arise at this boundary. */
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

/* ---- Point sets (local) -------------------------------------------------------------------- */

/* A view of n points of `dim` (2 or 3) interleaved coordinates (x0 y0 [z0] x1 ...): coords is
 * borrowed and must outlive the handle. n = 0 allows coords = NULL. */
hpart_status hpart_points_create(int dim, int64_t n, const double* coords, hpart_points** out);
/* ncon weights per point, interleaved (borrowed); NULL: unit weights. */
hpart_status hpart_points_set_weights(hpart_points* points, int ncon, const double* weights);
/* Global ids (non-negative, unique): the 64-bit array is borrowed; the 32-bit one is widened
 * into the handle (one copy, made here). NULL: ids in rank order. */
hpart_status hpart_points_set_ids_i64(hpart_points* points, const int64_t* ids);
hpart_status hpart_points_set_ids_i32(hpart_points* points, const int32_t* ids);
hpart_status hpart_points_size(const hpart_points* points, int64_t* n);
hpart_status hpart_points_dim(const hpart_points* points, int* dim);
/* The arrays the handle sees (NULL where none); pointers valid while the handle lives. */
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

/* ---- Graphs -------------------------------------------------------------------------------- */

/* Collective over comm (the ranks agree on the outcome). ParMETIS arrays, 0-based: vtxdist (R +
 * 1 values), xadj (n + 1), adjncy (xadj[n]), vwgt (n * ncon, or NULL: unit), adjwgt (xadj[n],
 * or NULL: unit). The _i64 arrays are borrowed (they must outlive the handle); the _i32 arrays
 * are widened into the handle once, here, as hpart's graphs are 64-bit. Structure and symmetry
 * are checked by the partitioners. */
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
/* Local: the 64-bit arrays the handle uses (vwgt/adjwgt NULL when unit). */
hpart_status hpart_graph_arrays(const hpart_graph* graph, const int64_t** vtxdist, const int64_t** xadj,
                                const int64_t** adjncy, const int64_t** vwgt, const int64_t** adjwgt,
                                int* ncon);
hpart_status hpart_graph_free(hpart_graph** graph);

/* ---- Options ------------------------------------------------------------------------------- */

typedef struct hpart_point_options {
  size_t size;
  int parts;                   /* K >= 1 */
  int curve;                   /* HPART_CURVE_* */
  double imbalance;            /* max part weight / target - 1 */
  const double* target_sizes;  /* NULL (equal parts) or K relative sizes */
} hpart_point_options;
hpart_status hpart_point_options_init(hpart_point_options* opts);
/* hpart's named presets (fast, standard, strong) for `parts` parts. */
hpart_status hpart_point_options_preset(hpart_point_options* opts, int preset, int parts);

typedef struct hpart_hier_point_options {
  size_t size;
  int parts;             /* total parts; 0 = one per rank */
  int node_curve;
  int rank_curve;
  double imbalance;
  const char* topology;  /* NULL or "": HPART_TOPOLOGY, else detected; or "NxM" */
} hpart_hier_point_options;
hpart_status hpart_hier_point_options_init(hpart_hier_point_options* opts);

typedef struct hpart_grid_options {
  size_t size;
  int parts;
  int method;      /* HPART_GRID_* */
  int curve;       /* sfc */
  double imbalance;
  int shape[3];    /* tensor/uniform: parts per axis, all 0 = chosen */
  const double* target_sizes;
} hpart_grid_options;
hpart_status hpart_grid_options_init(hpart_grid_options* opts);

typedef struct hpart_hier_grid_options {
  size_t size;
  int parts;             /* total parts; 0 = one per rank */
  int node_cut;          /* HPART_NODE_CUT_* */
  int node_method;       /* HPART_NODE_CUT_BOXES: HPART_GRID_BLOCKS, _TENSOR or _UNIFORM */
  int rank_method;       /* HPART_NODE_CUT_BOXES: the rank level's HPART_GRID_* */
  double imbalance;
  const char* topology;  /* NULL or "": HPART_TOPOLOGY, else detected; or "NxM" */
} hpart_hier_grid_options;
hpart_status hpart_hier_grid_options_init(hpart_hier_grid_options* opts);

typedef struct hpart_graph_options {
  size_t size;
  int parts;
  int method;      /* HPART_GRAPH_* */
  double imbalance;
  int seed;
  const double* target_sizes;
} hpart_graph_options;
hpart_status hpart_graph_options_init(hpart_graph_options* opts);

typedef struct hpart_hier_graph_options {
  size_t size;
  int parts;             /* total parts; 0 = one per rank */
  int node_method;       /* HPART_GRAPH_*: the node level */
  int rank_method;       /* HPART_GRAPH_*: each node's induced subgraph */
  double imbalance;      /* of the final parts, every constraint */
  int seed;
  const char* topology;  /* NULL or "": HPART_TOPOLOGY, else detected; or "NxM" */
} hpart_hier_graph_options;
hpart_status hpart_hier_graph_options_init(hpart_hier_graph_options* opts);

typedef struct hpart_graph_repart_options {
  size_t size;
  int parts;
  double imbalance;
  double itr;               /* ParMETIS's itr, > 0 */
  int max_rounds;
  int refine_passes;
  double reference_cut;     /* 0: no cut watch */
  double max_surface_growth;
} hpart_graph_repart_options;
hpart_status hpart_graph_repart_options_init(hpart_graph_repart_options* opts);

typedef struct hpart_rebalance_options {
  size_t size;
  int parts;
  int curve;
  double imbalance;
  int horizon;
  double smoothing;
  double trend_smoothing;
  double forgetting;
  double max_surface_growth;
  int incremental;  /* 0 or 1 */
  int max_rounds;
  int verbose;
  double itr;
} hpart_rebalance_options;
hpart_status hpart_rebalance_options_init(hpart_rebalance_options* opts);

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

/* ---- Rebalancer (collective over the communicator it was created on) ------------------------ */

typedef struct hpart_observation {
  size_t size;
  int has_step_seconds;         /* 0 on every rank, or 1 on every rank */
  double step_seconds;
  int64_t n;                    /* local objects (length of the arrays below) */
  const double* object_costs;   /* n values, or NULL */
  const double* features;       /* n * nfeatures values, or NULL */
  int nfeatures;
  const int32_t* parts;         /* n values, or NULL: the last returned partition's */
} hpart_observation;
hpart_status hpart_observation_init(hpart_observation* obs);

typedef struct hpart_decision {
  size_t size;
  int rebalance;                /* 0 or 1, the same on every rank */
  double imbalance;
  double predicted_imbalance;
  double predicted_loss_seconds;
  double predicted_gain_seconds;
  double predicted_cost_seconds;
  double residual_imbalance;
  int steps_since;
  char reason[256];             /* one line, truncated, NUL-terminated */
} hpart_decision;
hpart_status hpart_decision_init(hpart_decision* d);

typedef struct hpart_rebalance_stats {
  size_t size;
  int kind;                     /* HPART_REBALANCE_* */
  int rounds;
  int rebalances;
  int64_t migrated_objects;
  double migrated_weight;
  double seconds;
  double migration_seconds;
  double imbalance;
  double surface;
  double surface_fresh;
} hpart_rebalance_stats;
hpart_status hpart_rebalance_stats_init(hpart_rebalance_stats* s);

/* The handle keeps its own reference to comm: comm must stay valid until the handle is freed. */
hpart_status hpart_rebalancer_create(MPI_Comm comm, const hpart_rebalance_options* opts, hpart_rebalancer** out);
hpart_status hpart_rebalancer_create_f(MPI_Fint comm, const hpart_rebalance_options* opts,
                                       hpart_rebalancer** out);
hpart_status hpart_rebalancer_partition_points(hpart_rebalancer* rb, const hpart_points* points,
                                               hpart_partition** out);
hpart_status hpart_rebalancer_partition_graph(hpart_rebalancer* rb, const hpart_graph* graph,
                                              hpart_partition** out);
hpart_status hpart_rebalancer_observe(hpart_rebalancer* rb, const hpart_observation* obs);
hpart_status hpart_rebalancer_decide(hpart_rebalancer* rb, hpart_decision* decision);
/* parts: the current part of each local object (NULL: the last returned partition's). */
hpart_status hpart_rebalancer_rebalance_points(hpart_rebalancer* rb, const hpart_points* points,
                                               const int32_t* parts, hpart_partition** out);
hpart_status hpart_rebalancer_rebalance_graph(hpart_rebalancer* rb, const hpart_graph* graph,
                                              const int32_t* parts, hpart_partition** out);
hpart_status hpart_rebalancer_record_migration_seconds(hpart_rebalancer* rb, double seconds);
/* Local. */
hpart_status hpart_rebalancer_stats(const hpart_rebalancer* rb, hpart_rebalance_stats* stats);
/* Local (no communication); frees a Rebalancer made on any rank set. */
hpart_status hpart_rebalancer_free(hpart_rebalancer** rb);

/* ---- Migration (collective over the communicator it was created on) ------------------------ */

/* A plan sending local object i to the rank that owns parts[i] (n local objects): owner_of_part
 * (num_parts ranks) or, when NULL, contiguous blocks p * R / num_parts. ids (n values, or NULL)
 * are checked unique and travel along. The _i64 form narrows its part ids into the handle. */
hpart_status hpart_migration_create(MPI_Comm comm, const int32_t* parts, int64_t n, int num_parts,
                                    const int32_t* owner_of_part, const int64_t* ids, hpart_migration** out);
hpart_status hpart_migration_create_i64(MPI_Comm comm, const int64_t* parts, int64_t n, int num_parts,
                                        const int32_t* owner_of_part, const int64_t* ids,
                                        hpart_migration** out);
hpart_status hpart_migration_create_f(MPI_Fint comm, const int32_t* parts, int64_t n, int num_parts,
                                      const int32_t* owner_of_part, const int64_t* ids, hpart_migration** out);
/* The plan of a partition of the local objects (its parts and hpart_partition_owners). */
hpart_status hpart_migration_from_partition(MPI_Comm comm, const hpart_partition* p, const int64_t* ids,
                                            hpart_migration** out);
hpart_status hpart_migration_from_partition_f(MPI_Fint comm, const hpart_partition* p, const int64_t* ids,
                                              hpart_migration** out);
/* Local: counts, and the export and import lists. */
hpart_status hpart_migration_num_imports(const hpart_migration* m, int64_t* n);
hpart_status hpart_migration_num_exports(const hpart_migration* m, int64_t* n);
/* Records sent to (received from) each rank, self included: R values, borrowed. Imports
 * arrive grouped by source rank, in that rank's local order. */
hpart_status hpart_migration_send_counts(const hpart_migration* m, const int** counts);
hpart_status hpart_migration_recv_counts(const hpart_migration* m, const int** counts);
/* The destination rank of each local object (n values, borrowed): the export list. */
hpart_status hpart_migration_destinations(const hpart_migration* m, const int32_t** ranks);
/* The ids of the arriving objects, in arrival order (NULL when created without ids). */
hpart_status hpart_migration_imported_ids(const hpart_migration* m, const int64_t** ids);
/* Collective: moves n records of record_size bytes (n = the plan's local objects) into `out`,
 * which has room for out_capacity records (>= num_imports). */
hpart_status hpart_migration_move(const hpart_migration* m, const void* in, int64_t n, size_t record_size,
                                  void* out, int64_t out_capacity);
hpart_status hpart_migration_free(hpart_migration** m);

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

#endif /* HPART_H */
