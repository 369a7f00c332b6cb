// partition_graph: validation, method dispatch, and the metrics every method reports alike.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <new>
#include <string>

#include "core/agreement.hpp"
#include "core/features.hpp"
#include "core/log.hpp"
#include "metrics/graph_cut.hpp"
#include "core/memory_budget.hpp"
#include "metrics/partition_metrics.hpp"
#include "core/validate.hpp"
#include "graph/distributed_multilevel.hpp"
#include "graph/initial/gathered_graph.hpp"
#include "graph/graph_effort.hpp"
#include "graph/graph_totals.hpp"
#include "core/huge_pages.hpp"
#include "graph/multilevel.hpp"
#include "hpart/graph.hpp"
#include "hpart/version.hpp"
#include "kernels/enum_names.hpp"

namespace hpart {
namespace {

// Memory per part that a K-part call keeps on a rank, measured with `/usr/bin/time -v` at K =
// 2^20..2^24 on a 3-vertex graph (np 1 and 2; ~75-90 bytes a part for one constraint on the
// busiest rank, which runs the kernel): the kernel's balance tables (shares, targets, bounds),
// the packing heap, the distributed refinement's limits and part weights, and the result's part
// weights, sizes and targets. Bounded from above, per part and per constraint.
constexpr double kBytesPerPart = 64.0;
constexpr double kBytesPerPartConstraint = 56.0;

// The metis method's gathered graph on rank 0 (the CSR arrays, METIS's idx_t copies, the
// parts), with METIS's own work space at about three times its input, per vertex and
// constraint, per vertex, and per adjacency entry.
constexpr double kMetisBytesPerVertex = 40.0, kMetisBytesPerWeight = 24.0, kMetisBytesPerEntry = 56.0;

// METIS on the graph gathered onto rank 0 (graphk::metis_kway: weights scaled into idx_t's
// range, k >= n and edgeless graphs packed), parts scattered back. A failure on rank 0 (METIS's
// error code) is every rank's error, agreed before the scatter.
std::vector<part_t> metis_backend(const Comm& comm, const Graph& g, const GraphOptions& opts) {
  const graphk::CsrGraph all = graph::gather_graph(comm, g, 0);
  std::vector<part_t> parts;
  std::string problem;
  if (comm.rank() == 0) {
    const graphk::MultilevelOptions mo = graph::kernel_options(opts, true);
    try {
      parts = graphk::metis_kway(all, mo);
    } catch (const Error& e) {
      problem = std::string("partition_graph (metis): ") + e.what();
    } catch (const std::bad_alloc&) {
      problem = "partition_graph (metis): rank 0 ran out of memory in METIS on the whole graph; use method graph";
    }
  }
  comm.agree(problem.empty() ? ErrorCode::ok : ErrorCode::internal, problem);
  return graph::scatter_parts(comm, g, parts, 0);
}

// The options (every rank checks the same values: they are compared in the same agreement) and
// what the call will need: per-part tables on every rank, the gathered graph on rank 0 (metis).
std::string check_options(const Comm& comm, const Graph& g, const GraphOptions& opts, const graph::GraphTotals& totals) {
  if (std::string p = detail::check_parts(opts.parts); !p.empty()) return p;
  if (std::string p = detail::check_targets(opts.target_sizes, opts.parts); !p.empty()) return p;
  if (!(opts.imbalance >= 0.0 && opts.imbalance < 10.0))
    return "imbalance tolerance must be in [0, 10) (got " + std::to_string(opts.imbalance) + ")";
  if (opts.method != GraphMethod::graph && opts.method != GraphMethod::metis &&
      opts.method != GraphMethod::geometric_refine)
    return "unknown graph method " + std::to_string(static_cast<int>(opts.method));
  if (opts.method == GraphMethod::geometric_refine && g.dim == 0)
    return "geometric+refine needs vertex coordinates (Graph::coords and dim)";
  if (std::string p = graph::check_effort(opts.effort, graph::EffortOwner::graph_options); !p.empty()) return p;
  const gid_t N = g.vtxdist.back();
  if (opts.method == GraphMethod::metis && (N > INT_MAX || totals.entries > INT_MAX))
    return "the metis backend gathers the graph onto one rank and handles < 2^31 vertices and adjacency entries; use "
           "method graph";
  const auto nc = static_cast<double>(g.ncon);
  if (std::string p = detail::check_part_memory(opts.parts, kBytesPerPart + kBytesPerPartConstraint * nc, 0, 0.0);
      !p.empty())
    return "partition_graph: " + p;
  if (opts.method == GraphMethod::metis && comm.rank() == 0)
    return detail::check_memory(static_cast<double>(N) * (kMetisBytesPerVertex + kMetisBytesPerWeight * nc) +
                                    static_cast<double>(totals.entries) * kMetisBytesPerEntry,
                                "the metis backend's copy of the whole graph (" + std::to_string(N) + " vertices, " +
                                    std::to_string(totals.entries) + " adjacency entries)",
                                "use method graph (it never gathers the whole graph), or give rank 0 more memory");
  return {};
}

}  // namespace

constexpr detail::EnumNames<GraphMethod, 3> kGraphMethods{{
    {GraphMethod::graph, "graph"}, {GraphMethod::metis, "metis"}, {GraphMethod::geometric_refine, "geometric+refine"}}};

const char* to_string(GraphMethod m) { return detail::enum_name(kGraphMethods, m); }

GraphMethod graph_method_from_string(const char* name) {
  return detail::enum_from_name(kGraphMethods, name, "graph method");
}

GraphOptions GraphOptions::preset(Preset p, int parts) {
  GraphOptions o;
  o.parts = parts;
  GraphEffort& e = o.effort;
  // Measured on the graph suite (docs/benchmarks.md, "Graph presets"). fast: two passes, not
  // one: a single pass left 14% more cut on grid3d.
  if (p == Preset::fast) {
    e.coarsest_per_part = 30;
    e.initial_tries = 1;
    e.fm_passes = 2;
    e.fm_horizon = 300;
  }
  if (p == Preset::strong) {
    e.initial_tries = 8;
    e.fm_passes = 12;
    e.fm_horizon = 5000;
    e.vcycles = 3;
    e.refine_rounds = 3;
    e.coarsenings = 2;
  }
  return o;
}

GraphPartition partition_graph(const Comm& comm, const Graph& g, const GraphOptions& opts) {
  const detail::Stopwatch clock;
  // Levels, ghost plans and refinement scratch reuse each other's freed arrays (huge_pages.hpp).
  const graphk::HugeArrayScope reuse;
  return graph::partition_validated(comm, g, opts, graph::validate(comm, g), clock);
}

namespace graph {

GraphPartition partition_validated(const Comm& comm, const Graph& g, const GraphOptions& opts, GraphTotals totals,
                                   const detail::Stopwatch& clock) {
  const graphk::HugeArrayScope reuse;  // (nested scopes share one pool)
  const double validate_s = clock.seconds();
  // The options every rank must pass alike, compared with the options' verdicts in one allreduce.
  detail::Replicated args;
  args.value("GraphOptions::parts", static_cast<long long>(opts.parts))
      .value("GraphOptions::method", static_cast<long long>(opts.method))
      .value("GraphOptions::imbalance", opts.imbalance)
      .value("GraphOptions::seed", static_cast<long long>(opts.seed))
      .values("GraphOptions::target_sizes", opts.target_sizes);
  graph::replicate_effort(args, opts.effort, graph::EffortOwner::graph_options);
  const std::string problem = check_options(comm, g, opts, totals);
  detail::agree(comm, args, problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);
  // The multilevel kernel's initial partition and the metis method call METIS; geometric+refine
  // does not. Agreed options, a compile-time fact: the same verdict on every rank.
  if (opts.method != GraphMethod::geometric_refine)
    detail::require_dependency(HPART_HAVE_METIS, "METIS",
                               std::string("partition_graph (method ") + to_string(opts.method) + ")");
  // Vertex weights that are all zero carry no balance information: every method balances vertex
  // counts instead (as the point partitioners do; the distributed refinement would otherwise
  // see every part within a bound of 0). The metrics still report the weights given.
  Graph work = g;
  if (std::all_of(totals.vertex_weight.begin(), totals.vertex_weight.end(), [](std::int64_t t) { return t == 0; })) {
    work.vwgt = {};
    totals.vertex_weight.assign(totals.vertex_weight.size(), g.vtxdist.back());
  }
  std::vector<part_t> parts;
  graph::FinestNumbering finest;  // the graph method's ghost plan and numbering, for the metrics
  switch (opts.method) {
    case GraphMethod::metis: parts = metis_backend(comm, work, opts); break;
    case GraphMethod::graph:
      // The finest level's ghost plan and numbering (this method's and geometric+refine's)
      // serve the metrics (a pass over every edge, and the numbering's memory, saved).
      parts = graph::distributed_multilevel(comm, work, opts, totals, &finest);
      break;
    case GraphMethod::geometric_refine: parts = graph::geometric_refine(comm, work, opts, totals, &finest); break;
  }
  GraphPartition out;
  static_cast<Partition&>(out) =
      detail::summarise_partition(comm, std::move(parts), opts.parts, g.vwgt, g.ncon, opts.target_sizes);
  const double seconds = detail::seconds_max(comm, clock);
  out.metrics.seconds = seconds;
  detail::record_tolerance(out, opts.imbalance);
  out.cut = finest.plan ? graph::graph_metrics_with(comm, g, out.parts, *finest.plan, finest.adjncy)
                        : graph::graph_metrics_of_valid(comm, g, out.parts);  // validated above
  detail::log(comm, 1,
              std::string("partition_graph ") + to_string(opts.method) + ": " + std::to_string(opts.parts) + " parts, " +
                  std::to_string(seconds) + " s (validation " + std::to_string(validate_s) + " s), cut " +
                  std::to_string(out.cut.edge_cut));
  return out;
}

}  // namespace graph
}  // namespace hpart
