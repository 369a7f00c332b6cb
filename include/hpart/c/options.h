/* hpart's C API, one part: the partitioners' option structs. include/hpart/hpart.h includes
 * every part, in order, and states the conventions; this part is self-contained (it includes
 * the parts it needs), so it may also be included alone. */
#ifndef HPART_C_OPTIONS_H
#define HPART_C_OPTIONS_H

#include "hpart/c/base.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif /* HPART_C_OPTIONS_H */
