/* hpart's C API, one part: the dynamic rebalancer. include/hpart/hpart.h includes
 * every part, in order, and states the conventions; this part is self-contained (it includes
 * the parts it needs), so it may also be included alone. */
#ifndef HPART_C_REBALANCE_H
#define HPART_C_REBALANCE_H

#include "hpart/c/base.h"
#include "hpart/c/options.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif /* HPART_C_REBALANCE_H */
