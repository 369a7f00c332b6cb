#include "graph/distributed_multilevel.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <new>
#include <numeric>
#include <string>

#include "core/log.hpp"
#include "core/validate.hpp"
#include "graph/coarsening/block_level.hpp"
#include "graph/initial/gathered_graph.hpp"
#include "graph/multilevel.hpp"
#include "graph/refinement/block_refine.hpp"
#include "hpart/points.hpp"

namespace hpart::graph {
namespace {

// The coarsest graph rank 0 partitions with the shared-memory kernel while the other ranks wait:
// small (the kernel's own levels below it are serial work), but large enough that clusters,
// which never span ranks, stay well below a part. A constant bound, so rank 0 never holds
// O(global N) of a large graph.
std::int64_t gather_limit(int K) { return std::max<std::int64_t>(std::int64_t{1} << 15, 100LL * K); }

// Per part and constraint: (1 + imbalance) x total x the part's share (the totals validation
// summed: unit weights count 1 each).
std::vector<double> part_limits(const GraphTotals& totals, int K, double imbalance, std::span<const double> targets) {
  const std::size_t nc = totals.vertex_weight.size();
  const std::vector<double> share = detail::normalised_targets(targets, K);
  std::vector<double> limits(static_cast<std::size_t>(K) * nc);
  for (std::size_t q = 0; q < static_cast<std::size_t>(K); ++q)
    for (std::size_t c = 0; c < nc; ++c)
      limits[q * nc + c] = (1.0 + imbalance) * static_cast<double>(totals.vertex_weight[c]) * share[q];
  return limits;
}

// When coarsening stalls above the gather limit (blocks with few local edges), an initial
// partition without gathering: consecutive global ids cut at equal weight, then refinement.
std::vector<part_t> id_block_parts(const Comm& comm, const BlockLevel& L, int K) {
  const auto nc = static_cast<std::size_t>(L.graph.ncon);
  const auto n = static_cast<std::size_t>(L.n);
  double mine = 0.0;
  for (std::size_t v = 0; v < n; ++v) mine += static_cast<double>(L.graph.vwgt[v * nc]);
  const double before = comm.exscan_sum(mine), total = comm.sum(mine);
  std::vector<part_t> parts(n);
  double at = before;
  for (std::size_t v = 0; v < n; ++v) {
    const double w = static_cast<double>(L.graph.vwgt[v * nc]);
    const double mid = at + 0.5 * w;
    parts[v] = std::clamp(static_cast<part_t>(total > 0 ? mid / total * K : 0), part_t{0}, static_cast<part_t>(K - 1));
    at += w;
  }
  return parts;
}

// One rank: the graph straight into the kernel (no level copy, no gather). 32-bit ids
// (Graph::adjncy32) are lent as they are; 64-bit ones are narrowed into a copy (the kernel
// numbers vertices in 32 bits). Edge weights are lent at either width, 64-bit offsets and vertex
// weights as they are; 32-bit ones are widened (the kernel's offsets and vertex weights are
// 64-bit: n + 1 and n * ncon values, not one per edge). Missing weights stay missing (the kernel
// reads them as unit weights).
std::vector<part_t> single_rank(const Graph& g, const GraphOptions& opts) {
  graphk::HugeVector<std::int32_t> narrowed(g.adjncy.size());
  const auto m = static_cast<std::int64_t>(g.adjncy.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t e = 0; e < m; ++e)
    narrowed[static_cast<std::size_t>(e)] = static_cast<std::int32_t>(g.adjncy[static_cast<std::size_t>(e)]);
  const std::span<const std::int32_t> adjncy = g.adjncy32.empty() ? std::span<const std::int32_t>(narrowed) : g.adjncy32;
  static const std::int64_t kNoEdges[1] = {0};
  const std::vector<std::int64_t> xadj64 = g.xadj.is32() ? g.xadj.to_vector() : std::vector<std::int64_t>{};
  const std::vector<std::int64_t> vwgt64 = g.vwgt.is32() ? g.vwgt.to_vector() : std::vector<std::int64_t>{};
  graphk::GraphView all;
  all.ncon = g.ncon;
  all.xadj = g.xadj.empty() ? std::span<const std::int64_t>(kNoEdges) : g.xadj.is32() ? xadj64 : g.xadj.as64();
  all.adjncy = adjncy;
  all.vwgt = g.vwgt.is32() ? std::span<const std::int64_t>(vwgt64) : g.vwgt.as64();
  all.adjwgt = g.adjwgt.as64();
  all.adjwgt32 = g.adjwgt.as32();
  return graphk::multilevel_partition(all, kernel_options(opts, true));  // `all` is a view: the view overload
}

}  // namespace

graphk::MultilevelOptions kernel_options(const GraphOptions& opts, bool validated) {
  graphk::MultilevelOptions mo;
  mo.parts = opts.parts;
  mo.imbalance = opts.imbalance;
  mo.seed = opts.seed;
  mo.validated = validated;
  mo.targets.assign(opts.target_sizes.begin(), opts.target_sizes.end());
  mo.coarsest_per_part = opts.effort.coarsest_per_part;
  mo.initial_tries = opts.effort.initial_tries;
  mo.fm_passes = opts.effort.fm_passes;
  mo.fm_horizon = opts.effort.fm_horizon;
  mo.vcycles = opts.effort.vcycles;
  mo.cluster_rounds = opts.effort.cluster_rounds;
  mo.coarsenings = opts.effort.coarsenings;
  return mo;
}

std::vector<part_t> distributed_multilevel(const Comm& comm, const Graph& g, const GraphOptions& opts,
                                           const GraphTotals& totals, FinestNumbering* keep) {
  if (comm.size() == 1) return single_rank(g, opts);
  const int K = opts.parts;
  const detail::Stopwatch clock;
  std::vector<BlockLevel> levels;
  levels.push_back(finest_block(comm, g));
  const std::int64_t limit = gather_limit(K);
  const std::vector<double> limits = part_limits(totals, K, opts.imbalance, opts.target_sizes);
  // Clusters up to twice an average vertex of a graph at the gather limit.
  const auto max_cluster = static_cast<std::int64_t>(
      std::ceil(2.0 * static_cast<double>(totals.vertex_weight[0]) / static_cast<double>(limit)));
  // Coarse edge weights sum fine ones: with the graph's total below 2^31 all fit 32 bits (the
  // exact total from validation, so that every rank takes the same decision).
  const bool narrow = totals.edge_weight < (std::int64_t{1} << 31);
  while (levels.back().vtxdist.back() > limit && levels.size() < 24) {
    BlockLevel coarse;
    const std::uint64_t seed = static_cast<std::uint64_t>(opts.seed) * 1000003ULL + 7919ULL * static_cast<std::uint64_t>(comm.rank()) + levels.size();
    if (!coarsen_block(comm, levels.back(), max_cluster, seed, coarse, narrow, opts.effort.cluster_rounds)) break;
    levels.push_back(std::move(coarse));
  }
  const double coarsen_s = clock.seconds();
  const BlockLevel& coarsest = levels.back();
  std::vector<part_t> parts;
  if (coarsest.vtxdist.back() <= 4 * limit) {
    const GraphFile arrays = coarsest.global_arrays(comm.rank());
    const Graph view = arrays.view();
    const graphk::CsrGraph all = gather_graph(comm, view, 0);
    std::vector<part_t> all_parts;
    std::string problem;
    if (comm.rank() == 0) {
      // The coarsest graph is ours, not validated: the kernel checks it.
      const graphk::MultilevelOptions mo = kernel_options(opts, false);
      const detail::Stopwatch kernel;
      try {
        all_parts = graphk::multilevel_partition(all, mo);
      } catch (const Error& e) {  // e.g. METIS's error code on the coarsest graph
        problem = std::string("partition_graph: ") + e.what();
      } catch (const std::bad_alloc&) {
        problem = "partition_graph: rank 0 ran out of memory partitioning the coarsest graph (" +
                  std::to_string(all.vertices()) + " vertices); give rank 0 more memory or use fewer parts";
      }
      detail::log(comm, 2, "partition_graph graph: kernel " + std::to_string(kernel.seconds()) + " s on " +
                               std::to_string(all.vertices()) + " vertices");
    }
    // Rank 0's failure is every rank's, before the others wait in the scatter.
    comm.agree(problem.empty() ? ErrorCode::ok : ErrorCode::internal, problem);
    parts = scatter_parts(comm, view, all_parts, 0);
  } else {
    detail::log(comm, 1, "partition_graph: coarsening stalled at " + std::to_string(coarsest.vtxdist.back()) +
                             " vertices (few local edges); starting from id blocks");
    parts = id_block_parts(comm, coarsest, K);
    refine_blocks(comm, coarsest, K, limits, parts, {.rounds = 3});
  }
  const double initial_s = clock.seconds() - coarsen_s;
  const std::size_t depth = levels.size();
  const gid_t coarsest_vertices = coarsest.vtxdist.back();
  for (std::size_t l = levels.size() - 1; l >= 1; --l) {
    const BlockLevel& fine = levels[l - 1];
    std::vector<part_t> fine_parts(static_cast<std::size_t>(fine.n));
    for (std::size_t v = 0; v < fine_parts.size(); ++v) fine_parts[v] = parts[static_cast<std::size_t>(fine.coarse_of[v])];
    parts = std::move(fine_parts);
    levels.pop_back();  // the coarser level is no longer needed
    refine_blocks(comm, fine, K, limits, parts, {.rounds = opts.effort.refine_rounds});
  }
  detail::log(comm, 1,
              "partition_graph graph: " + std::to_string(depth) + " distributed levels (coarsest " +
                  std::to_string(coarsest_vertices) + " vertices), coarsen " + std::to_string(coarsen_s) +
                  " s, initial " + std::to_string(initial_s) + " s, refine " +
                  std::to_string(clock.seconds() - coarsen_s - initial_s) + " s");
  if (keep != nullptr) {
    keep->plan = levels[0].plan;
    keep->adjncy = std::move(levels[0].graph.adjncy);
  }
  return parts;
}

std::vector<part_t> geometric_refine(const Comm& comm, const Graph& g, const GraphOptions& opts,
                                     const GraphTotals& totals, FinestNumbering* keep) {
  const std::size_t n = g.local_vertices(), nc = static_cast<std::size_t>(g.ncon);
  std::vector<double> w(n, 1.0);
  if (!g.vwgt.empty())
    for (std::size_t v = 0; v < n; ++v) w[v] = static_cast<double>(g.vwgt[v * nc]);
  std::vector<gid_t> ids(n);
  std::iota(ids.begin(), ids.end(), g.vtxdist[static_cast<std::size_t>(comm.rank())]);
  PointOptions o;
  o.parts = opts.parts;
  o.imbalance = std::min(opts.imbalance / 4, 0.001);
  o.target_sizes = opts.target_sizes;
  std::vector<part_t> parts = partition_points(comm, PointSet{g.coords, g.dim, w, 1, ids}, o).parts;
  // The curve's cut is already good and balanced: label propagation polishes it at a fraction
  // of the kernel's FM's time.
  BlockLevel finest = finest_block(comm, g);
  refine_blocks(comm, finest, opts.parts, part_limits(totals, opts.parts, opts.imbalance, opts.target_sizes), parts,
                {.moves = BlockRefine::Moves::label_propagation, .rounds = 10});
  if (keep != nullptr) {
    keep->plan = finest.plan;
    keep->adjncy = std::move(finest.graph.adjncy);
  }
  return parts;
}

}  // namespace hpart::graph
