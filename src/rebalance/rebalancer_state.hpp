#pragma once
// The state a Rebalancer keeps between calls, shared by its point path (rebalancer.cpp) and its
// graph path (rebalancer_graph.cpp). Private to the library.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/log.hpp"
#include "core/huge_pages.hpp"
#include "hpart/rebalance.hpp"
#include "rebalance/cost_fit.hpp"
#include "rebalance/load_model.hpp"
#include "points/point_diffusion.hpp"

namespace hpart {

struct Rebalancer::State {
  State(const Comm& c, RebalanceOptions o)
      : comm(c), opts(o), model(o.smoothing, o.trend_smoothing), fit(o.forgetting) {}
  Comm comm;
  RebalanceOptions opts;
  repart::LoadModel model;
  repart::CostFit fit;
  int fit_features = -1;
  std::vector<part_t> parts;   // of the last returned Partition, in its local order
  bool have_parts = false;
  std::vector<int> curve_order;  // part id at each curve position while parts are curve ranges
  bool fresh_pending = false;    // the next rebalance measures the fresh partition's surface
  // stats.surface_fresh is an edge cut (graph calls) rather than a coarse-grid contact count
  // (point calls): a call of the other kind must not compare against it.
  bool graph_surface = false;
  double seconds_per_unit = 1.0;
  double repart_cost = -1.0, migration_cost = -1.0;  // EWMAs, < 0 = not measured yet
  int steps_since = 0;
  // Imbalance the last (re)partition actually left: its first observation (< 0: none yet). The
  // weights a rebalance balances are last step's costs or a fitted model of them; when the next step's real loads differ (costs move with the objects,
  // the model misses something), balancing them again gains nothing, and the rule must see that.
  double residual = -1.0;
  bool await_residual = false;
  // The first observation after the last (re)partition, and whether the second is still to
  // come: the growth between the two is drift, which the rule's regrowth term already counts,
  // so the residual is corrected by it once (never below what the partition reached).
  double first_seen = 0.0, balanced_imbalance = 0.0;
  bool await_growth = false;
  repart::DiffusionCache diffusion;  // grid, cells and buffers of the incremental rebalances
  // While a Rebalancer lives, the large arrays its calls free (curve keys, search segments,
  // multilevel levels) are kept and reused by the next call instead of faulting in fresh pages
  // (huge_pages.hpp): repeated from-scratch point partitions ran 0.015 s and 0.05 s in turn
  // without it (drift3d, 10^6 points, np 2). It holds about one call's scratch between calls.
  graphk::HugeArrayScope reuse;
  RebalanceStats stats;
  Decision decision;

  void log(const std::string& line) const {
    if (opts.verbose >= 1 && comm.rank() == 0) std::fprintf(stderr, "[hpart] %s\n", line.c_str());
    else detail::log(comm, 1, line);
  }
  [[nodiscard]] double predicted_cost() const {
    const double r = std::max(0.0, repart_cost);
    return r + (migration_cost >= 0.0 ? migration_cost : r);
  }
  static void ewma(double& acc, double v) { acc = acc < 0.0 ? v : 0.5 * acc + 0.5 * v; }

  // What every fresh partition and every rebalance records, points or graphs alike: the parts
  // become the current ones and the load history restarts (the parts' loads jump).
  void restart_history(const Partition& p) {
    parts = p.parts;
    have_parts = true;
    model.reset();
    steps_since = 0;
    await_residual = true;
    await_growth = false;
    balanced_imbalance = p.metrics.imbalance.empty() ? 0.0 : p.metrics.imbalance[0];
    stats.imbalance = p.metrics.imbalance.empty() ? 0.0 : p.metrics.imbalance[0];
    stats.seconds = p.metrics.seconds;
  }
  // A fresh partition (points or graph): nothing migrated, and its time seeds the cost estimate.
  void record_fresh(const Partition& p) {
    restart_history(p);
    if (repart_cost < 0.0) repart_cost = p.metrics.seconds;
    stats.kind = RebalanceKind::scratch;
    stats.rounds = 0;
    stats.migrated.weight = 0.0;
    stats.migrated.objects = 0;
  }
  void record_rebalance(const Partition& p, RebalanceKind kind, int rounds, double moved_weight, long long moved_objects) {
    restart_history(p);
    ewma(repart_cost, p.metrics.seconds);
    stats.kind = kind;
    stats.rounds = rounds;
    ++stats.rebalances;
    stats.migrated.weight = moved_weight;
    stats.migrated.objects = moved_objects;
  }
};

}  // namespace hpart
