#pragma once
// The event loop shared by the repart suite's drifting scenarios (drift3d, graphdrift): a fresh
// partition at step 0, then at every step whose imbalance exceeds the threshold one timed
// rebalance(current parts), with the weight it moved, the migration lower bound of the event
// and the worst imbalance after a rebalance summed or maxed over the scenario.
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "bench_record.hpp"
#include "hpart/comm.hpp"
#include "hpart/types.hpp"
#include "repart_suite.hpp"

namespace hpart_bench {

// A method under test: a fresh partition at step 0, then rebalance(current parts) at each event.
struct RepartMethod {
  std::string library, name;
  std::function<std::vector<hpart::part_t>()> initial;
  std::function<std::vector<hpart::part_t>(const std::vector<hpart::part_t>&)> rebalance;
};

struct DriftTotals {
  double time_s = 0.0;  // summed over the events (each the slowest rank's)
  double moved = 0.0, bound = 0.0, worst = 0.0;
  long long events = 0;
  std::vector<hpart::part_t> parts;  // at the end of the scenario
};

inline double imbalance_of(const std::vector<double>& w) {
  const double avg = std::accumulate(w.begin(), w.end(), 0.0) / static_cast<double>(w.size());
  return avg > 0 ? *std::max_element(w.begin(), w.end()) / avg - 1.0 : 0.0;
}

// set_weights(s): the objects' weights at step s; part_weights(parts): global weight per part;
// weight_of(i): local object i's weight now.
template <class SetWeights, class PartWeights, class WeightOf>
DriftTotals run_drift_events(const hpart::Comm& comm, const RepartSuiteConfig& cfg, RepartMethod& m,
                             SetWeights&& set_weights, PartWeights&& part_weights, WeightOf&& weight_of) {
  const int K = cfg.parts;
  DriftTotals t;
  set_weights(0);
  t.parts = m.initial();
  for (int s = 1; s <= cfg.steps; ++s) {
    set_weights(s);
    const std::vector<double> before = part_weights(t.parts);
    if (imbalance_of(before) <= cfg.threshold) continue;
    const double avg = std::accumulate(before.begin(), before.end(), 0.0) / K;
    for (double w : before) t.bound += std::max(0.0, w - (1.0 + cfg.threshold) * avg);
    MPI_Barrier(comm.get());
    const double t0 = MPI_Wtime();
    std::vector<hpart::part_t> next = m.rebalance(t.parts);
    double dt = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, comm.get());
    t.time_s += dt;
    double mv = 0.0;
    for (std::size_t i = 0; i < t.parts.size(); ++i)
      if (t.parts[i] != next[i]) mv += weight_of(i);
    MPI_Allreduce(MPI_IN_PLACE, &mv, 1, MPI_DOUBLE, MPI_SUM, comm.get());
    t.moved += mv;
    t.parts = std::move(next);
    t.worst = std::max(t.worst, imbalance_of(part_weights(t.parts)));
    ++t.events;
  }
  return t;
}

// The summary record of one method over a scenario of n objects (comm_volume left to the case).
inline Record drift_record(const hpart::Comm& comm, const RepartSuiteConfig& cfg, const char* case_name,
                           const RepartMethod& m, const DriftTotals& t, long long n) {
  Record r;
  r.suite = "repart";
  r.case_name = case_name;
  r.library = m.library;
  r.method = m.name;
  r.n = n;
  r.parts = cfg.parts;
  r.ranks = comm.size();
  r.threads = omp_get_max_threads();
  r.reps = 1;
  r.time_s = t.events > 0 ? t.time_s / static_cast<double>(t.events) : 0.0;
  r.imbalance = t.worst;
  r.migrated = t.moved;
  r.migration_lower_bound = t.bound;
  r.events = t.events;
  return r;
}

}  // namespace hpart_bench
