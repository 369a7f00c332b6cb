// repartition_graph: validation, diffusion (graph_diffusion.cpp) or the fresh fallback, and the
// same metrics partition_graph reports, plus what migrated.
#include <mpi.h>

#include <cmath>
#include <string>

#include "core/log.hpp"
#include "core/partition_metrics.hpp"
#include "core/validate.hpp"
#include "graph/check_vertex_parts.hpp"
#include "graph/ghost_exchange.hpp"
#include "hpart/graph.hpp"
#include "repart/graph_diffusion.hpp"
#include "repart/relabel_partition.hpp"

namespace hpart {
namespace {

std::string check_options(const GraphRepartOptions& o) {
  if (std::string p = detail::check_parts(o.parts); !p.empty()) return "repartition_graph: " + p;
  if (!(o.imbalance >= 0.0 && o.imbalance < 10.0))
    return "repartition_graph: imbalance tolerance must be in [0, 10) (got " + std::to_string(o.imbalance) + ")";
  if (!(o.itr > 0.0 && std::isfinite(o.itr)))
    return "repartition_graph: itr must be finite and > 0 (got " + std::to_string(o.itr) + ")";
  if (o.max_rounds < 0) return "repartition_graph: max_rounds must be >= 0 (got " + std::to_string(o.max_rounds) + ")";
  if (o.refine_passes < 0)
    return "repartition_graph: refine_passes must be >= 0 (got " + std::to_string(o.refine_passes) + ")";
  if (!(o.reference_cut >= 0.0 && std::isfinite(o.reference_cut)))
    return "repartition_graph: reference_cut must be finite and >= 0 (got " + std::to_string(o.reference_cut) + ")";
  if (!(o.max_cut_growth >= 1.0 && std::isfinite(o.max_cut_growth)))
    return "repartition_graph: max_cut_growth must be finite and >= 1 (got " + std::to_string(o.max_cut_growth) + ")";
  return {};
}

}  // namespace

GraphRepartition repartition_graph(const Comm& comm, const Graph& g, std::span<const part_t> current,
                                   const GraphRepartOptions& opts) {
  const detail::Stopwatch clock;
  validate_graph(comm, g);
  const std::string problem = check_options(opts);
  comm.agree(problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);
  graph::check_vertex_parts(comm, g, current, opts.parts, "repartition_graph");

  const graph::GhostExchange ghosts(comm, g);
  repart::GraphDiffusion diffusion(comm, g, ghosts, current, opts.parts, opts.imbalance, opts.itr);
  GraphRepartition out;
  out.rounds = diffusion.balance(opts.max_rounds);
  const std::vector<double> weights(g.vwgt.begin(), g.vwgt.end());
  std::vector<part_t> parts;
  if (diffusion.imbalance() <= opts.imbalance) {
    diffusion.refine(opts.refine_passes);
    parts = diffusion.take_parts();
    out.metrics = graph::graph_metrics_with(comm, g, parts, ghosts);
    if (opts.reference_cut > 0.0) out.cut_growth = static_cast<double>(out.metrics.edge_cut) / opts.reference_cut;
    out.from_scratch = out.cut_growth > opts.max_cut_growth;
  } else {
    out.from_scratch = true;
  }
  if (out.from_scratch) {
    GraphOptions fresh;
    fresh.parts = opts.parts;
    fresh.imbalance = opts.imbalance;
    GraphPartition p = partition_graph(comm, g, fresh);
    parts = std::move(p.partition.parts);
    out.metrics = p.metrics;  // relabelling renames parts: the cut and volume stay
    repart::relabel_to_overlap(comm, current, parts, weights, g.ncon, opts.parts);
  }

  const repart::MovedTotals moved = repart::moved_totals(comm, current, parts, weights, g.ncon);
  out.migrated_weight = moved.weight;
  out.migrated_objects = moved.objects;
  out.partition = detail::summarise_partition(comm, std::move(parts), opts.parts, weights, g.ncon, {});
  double seconds = clock.seconds();
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, comm.get());
  out.partition.metrics.seconds = seconds;
  detail::log(comm, 1,
              "repartition_graph: " + std::to_string(opts.parts) + " parts, " + std::to_string(out.rounds) +
                  " rounds" +
                  (out.from_scratch ? out.cut_growth > opts.max_cut_growth ? " (cut grew " + std::to_string(out.cut_growth) +
                                                                                 "x: fresh partition)"
                                                                           : " (fell back to a fresh partition)"
                                    : "") +
                  ", " +
                  std::to_string(seconds) + " s, cut " + std::to_string(out.metrics.edge_cut) + ", migrated " +
                  std::to_string(out.migrated_weight));
  return out;
}

}  // namespace hpart
