// `hpart partition --graph FILE --parts K --drift STEPS`: the Rebalancer loop on a real graph.
// A load drifts along the vertex ids; each step the Rebalancer observes the per-vertex costs,
// decides whether rebalancing pays, and rebalances incrementally (repartition_graph, with the
// cut watched against the last fresh partition's). One row per rebalance, then a summary.
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

#include "commands.hpp"
#include "hpart/hpart.hpp"
#include "hpart/rebalance.hpp"

namespace hpart_cli {
namespace {

// Vertex weights at `step`: 1 + round(4 exp(-(x - c)^2 / (2 0.1^2))), x the vertex's global id / N
// and c moving by 0.004 per step between 0.1 and 0.9 (back and forth). Ids mostly follow the
// mesh (the shared METIS files: half of the edges join ids less than 30 apart), so the load
// mostly moves across the mesh.
void set_drift_weights(const hpart::Comm& comm, hpart::GraphFile& f, int step) {
  const double travel = std::fmod(0.004 * step, 1.6);
  const double c = 0.1 + (travel <= 0.8 ? travel : 1.6 - travel), n = static_cast<double>(f.global_vertices);
  const hpart::gid_t first = f.vtxdist[static_cast<std::size_t>(comm.rank())];
  f.vwgt.resize(f.xadj.size() - 1);
  f.ncon = 1;
  for (std::size_t v = 0; v < f.vwgt.size(); ++v) {
    const double x = static_cast<double>(first + static_cast<hpart::gid_t>(v)) / n - c;
    f.vwgt[v] = 1 + std::llround(4.0 * std::exp(-x * x / (2 * 0.01)));
  }
}

// The vertex weights summed over the ranks.
double total_weight(const hpart::Comm& comm, const hpart::GraphFile& f) {
  double v = 0.0;
  for (std::int64_t w : f.vwgt) v += static_cast<double>(w);
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_SUM, comm.get());
  return v;
}

}  // namespace

void run_graph_drift(const hpart::Comm& comm, const PartitionArgs& args, hpart::GraphFile& file) {
  if (file.ncon > 1)
    throw hpart::Error(hpart::ErrorCode::invalid_argument,
                       "--drift replaces the vertex weights and needs a graph with one weight per vertex (this one has " +
                           std::to_string(file.ncon) + ")");
  const int steps = args.drift;
  const bool print = comm.rank() == 0 && !args.run.quiet;
  hpart::RebalanceOptions ro;
  ro.parts = args.parts;
  ro.imbalance = args.tol;
  hpart::Rebalancer rb(comm, ro);
  set_drift_weights(comm, file, 0);
  rb.partition(file.view());
  // The step time is modelled: 1 s of work per part at balance, spread by weight. The
  // Rebalancer weighs that (time lost to imbalance) against its measured rebalance cost (and,
  // no migration being measured here, a migration guessed as long).
  const double seconds_per_weight = 1.0 / (total_weight(comm, file) / args.parts);
  if (print) {
    std::printf("\nhpart --drift: %d steps, a load moving along the vertex ids; the Rebalancer decides (tolerance %.3f,\n"
                "each step modelled as 1 s of work per part at balance)\n",
                steps, ro.imbalance);
    std::printf("%5s %10s %-10s %6s %10s %10s %12s %9s\n", "step", "imb_before", "kind", "rounds", "imb_after", "edge_cut",
                "migrated", "time_s");
  }
  int incremental = 0, fresh = 0;
  double migrated = 0.0, seconds = 0.0;
  double lost = 0.0;  // modelled seconds the busiest part waits beyond the mean, summed over steps
  for (int step = 1; step <= steps; ++step) {
    set_drift_weights(comm, file, step);
    const std::vector<double> costs(file.vwgt.begin(), file.vwgt.end());
    const double mine = std::accumulate(costs.begin(), costs.end(), 0.0) * seconds_per_weight;
    rb.observe({.step_seconds = mine, .object_costs = costs});
    const hpart::Decision d = rb.decide();
    if (!d.rebalance) {
      lost += d.imbalance;  // 1 s per part at balance: the busiest part takes 1 + imbalance
      continue;
    }
    const hpart::Partition p = rb.rebalance(file.view());
    const hpart::RebalanceStats& s = rb.stats();
    (s.kind == hpart::RebalanceKind::diffusion ? incremental : fresh) += 1;
    migrated += s.migrated.weight;
    seconds += p.metrics.seconds;
    lost += s.imbalance;  // the step runs on the new partition
    if (print)
      std::printf("%5d %10.4f %-10s %6d %10.4f %10.0f %12.0f %9.4f\n", step, d.imbalance, hpart::to_string(s.kind),
                  s.rounds, s.imbalance, s.surface, s.migrated.weight, p.metrics.seconds);
  }
  // The reference a user compares against: a fresh partition of the final load.
  hpart::GraphOptions fo;
  fo.parts = args.parts;
  fo.imbalance = ro.imbalance;
  const hpart::GraphPartition last = hpart::partition_graph(comm, file.view(), fo);
  const double total = total_weight(comm, file);
  if (print) {
    std::printf("%d rebalances (%d incremental, %d fresh) in %d steps, %.4f s in all; migrated %.0f weight (%.3fx the "
                "total weight)\n",
                incremental + fresh, incremental, fresh, steps, seconds, migrated, migrated / total);
    std::printf("modelled time lost to imbalance %.3f s over the %d steps (of %d s of balanced work), plus %.3f s "
                "rebalancing\n",
                lost, steps, steps, seconds);
    std::printf("final edge cut %.0f; a fresh partition of the final load cuts %lld (%.3fx)\n", rb.stats().surface,
                static_cast<long long>(last.cut.edge_cut),
                last.cut.edge_cut > 0 ? rb.stats().surface / static_cast<double>(last.cut.edge_cut) : 1.0);
  }
}

}  // namespace hpart_cli
