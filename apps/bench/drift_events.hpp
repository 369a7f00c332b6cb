#pragma once
// The event loop shared by the repart suite's drifting scenarios (drift3d, graphdrift): a fresh
// partition at step 0, then at every step whose imbalance exceeds the threshold one timed
// rebalance(current parts), with the weight it moved, the migration lower bound of the event
// and the worst imbalance after a rebalance summed or maxed over the scenario.
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <numeric>
#include <string>
#include <vector>

#include "bench_record.hpp"
#include "dump_parts.hpp"
#include "hpart/comm.hpp"
#include "hpart/types.hpp"
#include "repart_suite.hpp"
#if HPART_HAVE_ZOLTAN
#include "zoltan_baseline.hpp"
#endif

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
// weight_of(i): local object i's weight now. With --dump-parts, hpart's methods write the parts of
// every event (e000 the initial partition, then each rebalance) under case_name.
template <class SetWeights, class PartWeights, class WeightOf>
DriftTotals run_drift_events(const hpart::Comm& comm, const RepartSuiteConfig& cfg, const char* case_name,
                             RepartMethod& m, SetWeights&& set_weights, PartWeights&& part_weights,
                             WeightOf&& weight_of) {
  const int K = cfg.parts;
  const bool dump = m.library == "hpart";
  DriftTotals t;
  set_weights(0);
  t.parts = m.initial();
  if (dump) dump_parts(comm, "repart", case_name, m.library, m.name, K, t.parts, 0);
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
    if (dump) dump_parts(comm, "repart", case_name, m.library, m.name, K, t.parts, static_cast<int>(t.events));
  }
  return t;
}

#if HPART_HAVE_ZOLTAN
// Zoltan's geometric methods on the same points, from scratch at every event: each name is a
// Zoltan LB_METHOD, or "rcb-reuse" (RCB with RCB_REUSE and KEEP_CUTS); run(method) runs one.
template <class Run>
void run_zoltan_geometric(const hpart::Comm& comm, int K, const hpart_apps::LocalPoints& pts,
                          std::initializer_list<const char*> names, Run&& run) {
  for (const char* name : names) {
    const bool reuse = std::string(name) == "rcb-reuse";
    ZoltanPartitioner z(comm.get(), reuse ? "rcb" : name, K, pts);
    if (reuse) z.set_param("RCB_REUSE", "1"), z.set_param("KEEP_CUTS", "1");
    CallStats stats;
    auto call = [&] { return partition_measured(comm, z, 1, false, stats); };
    RepartMethod m{"zoltan", name, call, [&](const std::vector<hpart::part_t>&) { return call(); }};
    run(m);
  }
}
#endif

// Global weight per part of the local objects' weights (one per object).
inline std::vector<double> weights_per_part(const hpart::Comm& comm, const std::vector<double>& weights,
                                            const std::vector<hpart::part_t>& parts, int K) {
  std::vector<double> w(static_cast<std::size_t>(K), 0.0);
  for (std::size_t i = 0; i < parts.size(); ++i) w[static_cast<std::size_t>(parts[i])] += weights[i];
  MPI_Allreduce(MPI_IN_PLACE, w.data(), K, MPI_DOUBLE, MPI_SUM, comm.get());
  return w;
}

// Cell faces between different parts over a grid split into slabs of consecutive layers over
// the ranks: `local` faces counted inside this rank's slab, plus those between its last layer
// and the next rank's first (layer cells each; an empty slab passes nothing), over all ranks.
inline long long slab_faces(const hpart::Comm& comm, long long local, const std::vector<hpart::part_t>& parts,
                            long long layer) {
  const long long layers = static_cast<long long>(parts.size()) / std::max(1LL, layer);
  std::vector<hpart::part_t> mine(static_cast<std::size_t>(layer), -1), above(static_cast<std::size_t>(layer), -1);
  if (layers > 0) std::copy(parts.begin(), parts.begin() + layer, mine.begin());
  const int r = comm.rank(), R = comm.size();
  MPI_Sendrecv(mine.data(), static_cast<int>(layer), MPI_INT32_T, r > 0 ? r - 1 : MPI_PROC_NULL, 7, above.data(),
               static_cast<int>(layer), MPI_INT32_T, r + 1 < R ? r + 1 : MPI_PROC_NULL, 7, comm.get(), MPI_STATUS_IGNORE);
  long long cut = local;
  if (layers > 0 && r + 1 < R && above[0] >= 0)
    for (long long i = 0; i < layer; ++i)
      cut += parts[static_cast<std::size_t>(layer * (layers - 1) + i)] != above[static_cast<std::size_t>(i)];
  MPI_Allreduce(MPI_IN_PLACE, &cut, 1, MPI_LONG_LONG, MPI_SUM, comm.get());
  return cut;
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
