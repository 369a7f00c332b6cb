// The Rebalancer's graph path: partition(graph) and rebalance(graph, parts). The decision
// (observe/decide) is the points' one: it sees only loads per part. What differs is how a
// partition is made: partition_graph fresh, repartition_graph incrementally, with the edge cut
// as the surface the watch compares against the last fresh partition's.
#include <mpi.h>

#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "core/log.hpp"
#include "metrics/partition_metrics.hpp"
#include "metrics/check_vertex_parts.hpp"
#include "hpart/graph.hpp"
#include "hpart/rebalance.hpp"
#include "rebalance/rebalancer_state.hpp"
#include "migration/relabel_partition.hpp"
#include "metrics/migration_volume.hpp"

namespace hpart {
namespace {

GraphOptions fresh_graph_options(const RebalanceOptions& o) {
  GraphOptions g;
  g.parts = o.parts;
  g.imbalance = o.imbalance;
  return g;
}

}  // namespace

Partition Rebalancer::partition(const Graph& graph) {
  State& s = *state_;
  GraphPartition p = partition_graph(s.comm, graph, fresh_graph_options(s.opts));
  s.record_fresh(p);
  s.curve_order.clear();  // graph parts are no curve ranges: no splitter shift
  s.fresh_pending = false;
  s.stats.surface = s.stats.surface_fresh = static_cast<double>(p.cut.edge_cut);
  s.graph_surface = true;
  return Partition(std::move(p));
}

Partition Rebalancer::rebalance(const Graph& graph, std::span<const part_t> parts_in) {
  State& s = *state_;
  const std::size_t n = graph.local_vertices();
  std::string problem;
  if (parts_in.empty() && s.have_parts && s.parts.size() != n)
    problem = "rebalance(graph): no parts given, and the last partition has " + std::to_string(s.parts.size()) +
              " local objects, not " + std::to_string(n) + " local vertices: pass the current part of each local vertex";
  s.comm.agree(problem.empty() ? ErrorCode::ok : ErrorCode::size_mismatch, problem);
  int known = parts_in.empty() && !s.have_parts ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &known, 1, MPI_INT, MPI_MIN, s.comm.get());
  if (!known) {
    Partition p = partition(graph);
    ++s.stats.rebalances;
    return p;
  }
  // Copied: `parts_in` may be the caller's view of s.parts, which the result replaces.
  const std::span<const part_t> given = parts_in.empty() ? std::span<const part_t>(s.parts) : parts_in;
  const std::vector<part_t> cur(given.begin(), given.end());
  const detail::Stopwatch clock;
  Partition out;
  RebalanceKind kind = RebalanceKind::scratch;
  int rounds = 0;
  double moved = 0.0;
  long long moved_objects = 0, cut = 0;
  if (s.opts.incremental && s.opts.parts > 1) {
    GraphRepartOptions o;
    o.parts = s.opts.parts;
    o.imbalance = s.opts.imbalance;
    o.itr = s.opts.itr;
    o.max_rounds = s.opts.max_rounds;
    o.reference_cut = s.graph_surface ? s.stats.surface_fresh : 0.0;  // a point surface is no cut: no watch yet
    o.max_surface_growth = s.opts.max_surface_growth;
    GraphRepartition r = repartition_graph(s.comm, graph, cur, o);
    kind = r.from_scratch ? RebalanceKind::scratch : RebalanceKind::diffusion;
    rounds = r.steps;
    moved = r.migrated.weight;
    moved_objects = r.migrated.objects;
    cut = r.cut.edge_cut;
    out = std::move(static_cast<Partition&>(r));
  } else {
    // repartition_graph validates `cur`; here the fresh path does, before it is relabelled.
    GraphPartition p = partition_graph(s.comm, graph, fresh_graph_options(s.opts));
    graph::check_vertex_parts(s.comm, graph, cur, s.opts.parts, "rebalance(graph)");
    repart::relabel_to_overlap(s.comm, cur, p.parts, graph.vwgt, graph.ncon, s.opts.parts);
    const MigrationStats m = detail::moved_everywhere(s.comm, cur, p.parts, graph.vwgt, graph.ncon);
    moved = m.weight;
    moved_objects = m.objects;
    cut = p.cut.edge_cut;
    // Relabelling renamed the parts: their weights are summed again.
    out = detail::summarise_partition(s.comm, std::move(p.parts), s.opts.parts, graph.vwgt, graph.ncon, {});
  }
  out.metrics.seconds = detail::seconds_max(s.comm, clock);
  s.curve_order.clear();
  s.record_rebalance(out, kind, rounds, moved, moved_objects);
  s.stats.surface = static_cast<double>(cut);
  // The cut becomes the reference after a fresh partition, and after point calls (no cut known).
  if (kind == RebalanceKind::scratch || !s.graph_surface) s.stats.surface_fresh = s.stats.surface;
  s.graph_surface = true;
  char line[240];
  std::snprintf(line, sizeof line,
                "rebalance (graph): %s, %d rounds, imbalance %.4f, cut %lld (fresh %.0f), moved %.6g weight, %.4f s",
                to_string(kind), rounds, s.stats.imbalance, cut, s.stats.surface_fresh, moved, out.metrics.seconds);
  s.log(line);
  return out;
}

}  // namespace hpart
