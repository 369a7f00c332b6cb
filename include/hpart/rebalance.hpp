#pragma once
// Feedback-driven dynamic repartitioning of point sets. The Rebalancer measures the load (step
// times and/or per-object costs), predicts it over a horizon, decides when a repartition pays,
// and repartitions incrementally so that little weight moves. Typical loop:
//
//   hpart::Rebalancer rb{comm, {.parts = K}};
//   hpart::Partition p = rb.partition(points);            // from scratch; migrate the objects
//   for (each step) {
//     ... step ...
//     rb.observe({.step_seconds = t, .object_costs = costs, .parts = my_parts});
//     if (rb.decide().rebalance) {
//       p = rb.rebalance(points_with_cost_weights, my_parts);  // migrate the objects; then
//       rb.record_migration_seconds(t_migrate);
//     }
//   }
//
// Graphs: the same loop with partition(graph) and rebalance(graph, parts) (hpart::Graph, see
// graph.hpp); the objects are then the local vertices and their first vertex weight the load.
//
// Objects may live on any rank: every call takes the current part of each local object (`parts`
// spans). Empty spans mean "the parts of the Partition this Rebalancer returned last, in the
// same local order", valid only while the local objects have not changed (no migration since).
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hpart/comm.hpp"
#include "hpart/partition.hpp"
#include "hpart/point_set.hpp"
#include "hpart/points.hpp"
#include "hpart/rebalance_decision.hpp"
#include "hpart/types.hpp"

namespace hpart {

struct Graph;  // graph.hpp

struct RebalanceOptions {
  int parts = 1;                   // K >= 1
  Curve curve = Curve::hilbert;    // curve of the from-scratch partitions
  // Imbalance (max part load / average - 1) above which rebalancing is considered, and the
  // balance rebalance() reaches (diffusion aims at 0.6 of it and stops within 0.9 of it, so the
  // result is within it with a margin).
  double imbalance = 0.02;
  int horizon = 50;                // steps over which the time lost to imbalance is predicted
  double smoothing = 0.3;          // EWMA weight of a new observation in the load level, (0, 1]
  double trend_smoothing = 0.3;    // EWMA weight of a new step-to-step change in the load trend, (0, 1]
  double forgetting = 0.95;        // per-observation decay of the least-squares cost model, (0, 1]
  // A fresh partition replaces the incremental one when the part surface (points: estimated on a
  // coarse grid; graphs: the edge cut) grows past this factor times the surface right after the
  // last fresh partition.
  double max_surface_growth = 1.3;
  bool incremental = true;         // false: every rebalance is from scratch (relabelled)
  int max_rounds = 8;              // diffusion rounds per incremental rebalance
  int verbose = 0;                 // >= 1: rank 0 logs each decision and rebalance to stderr
  // Graphs: ParMETIS's itr for rebalance(graph) (GraphRepartOptions::itr: the cost of cutting
  // an edge relative to migrating a vertex weight of 1), > 0.
  double itr = 1000.0;
};

// One measurement, collective (every rank passes its own; any field may be left out on all ranks).
struct Observation {
  // This rank's wall time of the last step. Unset on every rank, or set on every rank.
  std::optional<double> step_seconds{};
  // Per local object, its cost in the last step (seconds, or any unit when step_seconds is
  // given: then only the costs' relative sizes are used). Empty, or one per local object.
  std::span<const double> object_costs{};
  // Per local object, nfeatures values (row-major) that explain its cost (e.g. neighbour
  // count); with step_seconds the Rebalancer fits cost ~ a . features + b by least squares.
  std::span<const double> features{};
  int nfeatures = 0;
  // Current part of each local object (empty: the last returned Partition's parts).
  std::span<const part_t> parts{};
};

enum class RebalanceKind {
  none,       // no repartition yet
  scratch,    // from scratch (hpart::partition), parts relabelled to keep most weight in place
  shift,      // contiguous curve ranges kept, splitters shifted (a scratch partition on the same curve)
  diffusion,  // load diffused between neighbouring parts, moving the objects nearest the receiver
};
const char* to_string(RebalanceKind k);

struct RebalanceStats {
  RebalanceKind kind = RebalanceKind::none;  // method of the last (re)partition
  int rounds = 0;                  // diffusion rounds of the last rebalance
  int rebalances = 0;              // rebalance() calls so far
  MigrationStats migrated;         // objects whose part changed in the last call, and their first weight
  double seconds = 0.0;            // wall time of the last partition()/rebalance() (max over ranks)
  double migration_seconds = 0.0;  // last value given to record_migration_seconds
  double imbalance = 0.0;          // imbalance of the last returned partition
  double surface = 0.0;            // part surface of the current partition (points: coarse-grid
                                   // estimate; graphs: edge cut)
  double surface_fresh = 0.0;      // the same right after the last fresh partition
};

class Rebalancer {
 public:
  // Borrows comm (it must outlive the Rebalancer). Throws hpart::Error for invalid options.
  Rebalancer(const Comm& comm, RebalanceOptions opts);
  ~Rebalancer();
  Rebalancer(Rebalancer&&) noexcept;
  Rebalancer& operator=(Rebalancer&&) noexcept;
  Rebalancer(const Rebalancer&) = delete;
  Rebalancer& operator=(const Rebalancer&) = delete;

  // Collective: a fresh partition (partition_points with opts.curve and opts.imbalance); resets
  // the load history. The points' first weight is balanced.
  Partition partition(const PointSet& points);

  // Collective: feeds one step's measurement to the model. Throws hpart::Error on every rank for
  // NaN/infinite/negative times or costs, lengths that differ from the local object count, or a
  // part id outside [0, K).
  void observe(const Observation& obs);

  // Collective (identical result on every rank): should the caller rebalance now? Rebalance when
  // the predicted time a rebalance saves over the horizon (predicted_gain_seconds) exceeds the
  // predicted repartition + migration cost, and the predicted imbalance exceeds the tolerance.
  Decision decide();

  // Collective: a new partition of `points` (their first weight = the current cost of each object)
  // that is within the tolerance and moves little weight from `parts` (the current part of each
  // local object; empty: the last returned Partition's). Incremental (diffusion or splitter
  // shift, whichever is predicted to move less) or from scratch when the surface grew too much,
  // when opts.incremental is false, or when the parts are not yet known. Resets the load history.
  Partition rebalance(const PointSet& points, std::span<const part_t> parts = {});

  // Collective, graphs: a fresh partition_graph (hpart's own method, opts.imbalance as its
  // imbalance) and its edge cut as the surface reference. Validates the graph (validate_graph).
  Partition partition(const Graph& graph);
  // Collective, graphs: repartition_graph from `parts` (empty: the last returned Partition's)
  // with opts.imbalance, opts.itr and opts.max_rounds, its cut watched against the last
  // fresh partition's (max_surface_growth: beyond it a fresh partition, relabelled); from scratch
  // when opts.incremental is false or the parts are not yet known. Resets the load history.
  // stats().surface is the edge cut.
  Partition rebalance(const Graph& graph, std::span<const part_t> parts = {});

  // The caller's measured migration time after a rebalance (max over ranks is taken); feeds the
  // cost prediction. Collective.
  void record_migration_seconds(double seconds);

  // Per object a . features + b from the fitted cost model (empty when no model is fitted yet).
  // Local, no communication: the coefficients are identical on every rank.
  [[nodiscard]] std::vector<double> predicted_costs(std::span<const double> features) const;
  // Fitted coefficients a_0..a_{nfeatures-1}, b (empty when none).
  [[nodiscard]] std::vector<double> cost_coefficients() const;

  [[nodiscard]] const RebalanceStats& stats() const;
  [[nodiscard]] const Decision& last_decision() const;
  [[nodiscard]] const RebalanceOptions& options() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Incremental repartitioning of a point set whose weights changed (or whose points moved), from
// the current parts, without the Rebalancer's load history: the Rebalancer's rebalance() for one
// event. Load diffuses between neighbouring parts, moving the points nearest the receiving part,
// until the first weight is within opts.imbalance; when it cannot get there in max_rounds, the
// result is a fresh curve partition relabelled to keep the most weight in place (from_scratch).
struct PointRepartOptions {
  int parts = 1;                 // K >= 1; `current` holds part ids in [0, K)
  Curve curve = Curve::hilbert;  // of a fresh partition
  double imbalance = 0.02;       // max part weight / mean - 1 to reach (> 0)
  int max_rounds = 8;            // diffusion rounds before the fresh partition
};

// The new parts and metrics; migrated: the points whose part changed and their first weight;
// steps: the diffusion rounds run.
using PointRepartition = Repartition<Partition>;

// Collective: validates the points, the options and `current` (one part id per local point, in
// [0, K)) like the Rebalancer, with the same hpart::Error on every rank.
PointRepartition repartition_points(const Comm& comm, const PointSet& points, std::span<const part_t> current,
                                    const PointRepartOptions& opts);

}  // namespace hpart
