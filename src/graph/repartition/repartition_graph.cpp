// repartition_graph: validation, diffusion (graph_diffusion.cpp) or the fresh fallback, and the
// same metrics partition_graph reports, plus what migrated.
#include <mpi.h>

#include <cmath>
#include <string>

#include "core/features.hpp"
#include "hpart/version.hpp"
#include "core/agreement.hpp"
#include "core/log.hpp"
#include "metrics/partition_metrics.hpp"
#include "core/validate.hpp"
#include "metrics/check_vertex_parts.hpp"
#include "core/ghost_exchange.hpp"
#include "metrics/graph_cut.hpp"
#include "graph/graph_totals.hpp"
#include "hpart/graph.hpp"
#include "graph/repartition/graph_diffusion.hpp"
#include "migration/relabel_partition.hpp"
#include "metrics/migration_volume.hpp"

namespace hpart {
namespace {

// Per part on every rank: diffusion's weights and connections, the quotient graph's arcs and
// flows, and the fresh fallback's tables (partition_graph's), bounded from above.
constexpr double kBytesPerPart = 160.0, kBytesPerPartConstraint = 64.0;

std::string check_options(const GraphRepartOptions& o, int ncon) {
  if (std::string p = detail::check_parts(o.parts); !p.empty()) return "" + p;
  if (!(o.imbalance >= 0.0 && o.imbalance < 10.0))
    return "imbalance tolerance must be in [0, 10) (got " + std::to_string(o.imbalance) + ")";
  if (!(o.itr > 0.0 && std::isfinite(o.itr)))
    return "itr must be finite and > 0 (got " + std::to_string(o.itr) + ")";
  if (o.max_rounds < 0) return "max_rounds must be >= 0 (got " + std::to_string(o.max_rounds) + ")";
  if (o.refine_passes < 0)
    return "refine_passes must be >= 0 (got " + std::to_string(o.refine_passes) + ")";
  if (!(o.reference_cut >= 0.0 && std::isfinite(o.reference_cut)))
    return "reference_cut must be finite and >= 0 (got " + std::to_string(o.reference_cut) + ")";
  if (!(o.max_surface_growth >= 1.0 && std::isfinite(o.max_surface_growth)))
    return "max_surface_growth must be finite and >= 1 (got " + std::to_string(o.max_surface_growth) + ")";
  if (std::string p = detail::check_part_memory(o.parts, kBytesPerPart + kBytesPerPartConstraint * ncon, 0, 0.0);
      !p.empty())
    return "" + p;
  return {};
}

// migration_sizes: one value >= 0 per local vertex, or none.
std::string check_sizes(const Graph& g, IntSpan sizes) {
  if (sizes.empty()) return {};
  if (sizes.size() != g.local_vertices())
    return "migration_sizes has " + std::to_string(sizes.size()) + " values for " +
           std::to_string(g.local_vertices()) + " local vertices";
  for (std::size_t v = 0; v < sizes.size(); ++v)
    if (sizes[v] < 0)
      return "migration_sizes[" + std::to_string(v) + "] = " + std::to_string(sizes[v]) + ": sizes must be >= 0";
  return {};
}

}  // namespace

GraphRepartition repartition_graph(const Comm& comm, const Graph& g, std::span<const part_t> current,
                                   const GraphRepartOptions& opts) {
  const detail::Stopwatch clock;
  // Validated once: the fallback below partitions the graph afresh without validating again.
  graph::GraphTotals totals = graph::validate(comm, g);
  // Every option decides collectives (rounds, passes, the fallback): compared across ranks, with
  // the options' and `current`'s verdicts, in one agreement.
  detail::Replicated args;
  args.value("GraphRepartOptions::parts", static_cast<long long>(opts.parts))
      .value("GraphRepartOptions::imbalance", opts.imbalance)
      .value("GraphRepartOptions::itr", opts.itr)
      .value("GraphRepartOptions::max_rounds", static_cast<long long>(opts.max_rounds))
      .value("GraphRepartOptions::refine_passes", static_cast<long long>(opts.refine_passes))
      .value("GraphRepartOptions::reference_cut", opts.reference_cut)
      .value("GraphRepartOptions::max_surface_growth", opts.max_surface_growth)
      .given("GraphRepartOptions::migration_sizes", !opts.migration_sizes.empty(), g.local_vertices() == 0);
  std::string problem = check_options(opts, g.ncon);
  if (problem.empty()) problem = check_sizes(g, opts.migration_sizes);
  graph::check_vertex_parts(comm, g, current, opts.parts, "repartition_graph", args, problem);
  // Its fallback is a fresh multilevel partition (METIS's initial partition): required up front,
  // so that whether a call works never depends on the data.
  detail::require_dependency(HPART_HAVE_METIS, "METIS", "repartition_graph (its fresh-partition fallback)");

  const graph::GhostExchange ghosts(comm, g);
  repart::GraphDiffusion diffusion(comm, g, ghosts, current, opts.parts, opts.imbalance, opts.itr,
                                   opts.migration_sizes);
  GraphRepartition out;
  out.steps = diffusion.balance(opts.max_rounds);
  std::vector<part_t> parts;
  if (diffusion.imbalance() <= opts.imbalance) {
    diffusion.refine(opts.refine_passes);
    parts = diffusion.take_parts();
    out.cut = graph::graph_metrics_with(comm, g, parts, ghosts);
    if (opts.reference_cut > 0.0) out.surface_growth = static_cast<double>(out.cut.edge_cut) / opts.reference_cut;
    out.from_scratch = out.surface_growth > opts.max_surface_growth;
  } else {
    out.from_scratch = true;
  }
  if (out.from_scratch) {
    GraphOptions fresh;
    fresh.parts = opts.parts;
    fresh.imbalance = opts.imbalance;
    GraphPartition p = graph::partition_validated(comm, g, fresh, std::move(totals), detail::Stopwatch{});
    parts = std::move(p.parts);
    out.cut = p.cut;  // relabelling renames parts: the cut and volume stay
    // Keep in place what costs most to move: the sizes when given, else the first weight.
    if (opts.migration_sizes.empty())
      repart::relabel_to_overlap(comm, current, parts, g.vwgt, g.ncon, opts.parts);
    else
      repart::relabel_to_overlap(comm, current, parts, opts.migration_sizes, 1, opts.parts);
  }

  out.migrated = detail::moved_everywhere(comm, current, parts, g.vwgt, g.ncon);
  static_cast<Partition&>(out) = detail::summarise_partition(comm, std::move(parts), opts.parts, g.vwgt, g.ncon, {});
  const double seconds = detail::seconds_max(comm, clock);
  out.metrics.seconds = seconds;
  detail::record_tolerance(out, opts.imbalance);
  detail::log(comm, 1,
              "repartition_graph: " + std::to_string(opts.parts) + " parts, " + std::to_string(out.steps) +
                  " rounds" +
                  (out.from_scratch ? out.surface_growth > opts.max_surface_growth ? " (cut grew " + std::to_string(out.surface_growth) +
                                                                                 "x: fresh partition)"
                                                                           : " (fell back to a fresh partition)"
                                    : "") +
                  ", " +
                  std::to_string(seconds) + " s, cut " + std::to_string(out.cut.edge_cut) + ", migrated " +
                  std::to_string(out.migrated.weight));
  return out;
}

}  // namespace hpart
