#include "graph/distributed_multilevel.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

#include "core/log.hpp"
#include "core/validate.hpp"
#include "graph/dist_level.hpp"
#include "graph/gathered_graph.hpp"
#include "graph/multilevel.hpp"
#include "hpart/sfc.hpp"

namespace hpart::graph {
namespace {

// The coarsest graph rank 0 partitions with the shared-memory kernel (which coarsens further
// with better matchings than rank-local label propagation can): a constant bound, so rank 0
// never holds O(global N) of a large graph.
std::int64_t gather_limit(int K) { return std::max<std::int64_t>(std::int64_t{1} << 17, 100LL * K); }

// Per part and constraint: (1 + imbalance) x total x the part's share.
std::vector<double> part_limits(const Comm& comm, const DistLevel& L, int K, double imbalance,
                                std::span<const double> targets) {
  const auto nc = static_cast<std::size_t>(L.ncon);
  std::vector<double> total(nc, 0.0);
  for (std::size_t v = 0; v < L.vertices(); ++v)
    for (std::size_t c = 0; c < nc; ++c) total[c] += static_cast<double>(L.vwgt[v * nc + c]);
  MPI_Allreduce(MPI_IN_PLACE, total.data(), static_cast<int>(nc), MPI_DOUBLE, MPI_SUM, comm.get());
  const std::vector<double> share = detail::normalised_targets(targets, K);
  std::vector<double> limits(static_cast<std::size_t>(K) * nc);
  for (std::size_t q = 0; q < static_cast<std::size_t>(K); ++q)
    for (std::size_t c = 0; c < nc; ++c) limits[q * nc + c] = (1.0 + imbalance) * total[c] * share[q];
  return limits;
}

// When coarsening stalls above the gather limit (blocks with few local edges), an initial
// partition without gathering: consecutive global ids cut at equal weight, then refinement.
std::vector<part_t> block_parts(const Comm& comm, const DistLevel& L, int K) {
  const auto nc = static_cast<std::size_t>(L.ncon);
  double mine = 0.0, before = 0.0, total = 0.0;
  for (std::size_t v = 0; v < L.vertices(); ++v) mine += static_cast<double>(L.vwgt[v * nc]);
  MPI_Exscan(&mine, &before, 1, MPI_DOUBLE, MPI_SUM, comm.get());
  if (comm.rank() == 0) before = 0.0;
  MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, comm.get());
  std::vector<part_t> parts(L.vertices());
  double at = before;
  for (std::size_t v = 0; v < L.vertices(); ++v) {
    const double mid = at + 0.5 * static_cast<double>(L.vwgt[v * nc]);
    parts[v] = std::clamp(static_cast<part_t>(total > 0 ? mid / total * K : 0), part_t{0}, static_cast<part_t>(K - 1));
    at += static_cast<double>(L.vwgt[v * nc]);
  }
  return parts;
}

// One rank: the graph straight into the kernel's arrays (no level copy, no gather).
std::vector<part_t> single_rank(const Graph& g, const GraphOptions& opts) {
  graphk::CsrGraph all;
  const std::size_t n = g.local_vertices();
  all.ncon = g.ncon;
  all.xadj.assign(g.xadj.begin(), g.xadj.end());
  all.adjncy.assign(g.adjncy.begin(), g.adjncy.end());
  all.vwgt = g.vwgt.empty() ? std::vector<std::int64_t>(n * static_cast<std::size_t>(g.ncon), 1)
                            : std::vector<std::int64_t>(g.vwgt.begin(), g.vwgt.end());
  all.adjwgt = g.adjwgt.empty() ? std::vector<std::int64_t>(g.adjncy.size(), 1)
                                : std::vector<std::int64_t>(g.adjwgt.begin(), g.adjwgt.end());
  graphk::MultilevelOptions mo;
  mo.parts = opts.parts;
  mo.imbalance = opts.imbalance;
  mo.seed = opts.seed;
  mo.targets.assign(opts.target_sizes.begin(), opts.target_sizes.end());
  return graphk::multilevel_partition(all, mo);
}

}  // namespace

std::vector<part_t> distributed_multilevel(const Comm& comm, const Graph& g, const GraphOptions& opts) {
  if (comm.size() == 1) return single_rank(g, opts);
  const int K = opts.parts;
  const detail::Stopwatch clock;
  std::vector<DistLevel> levels;
  std::vector<std::unique_ptr<GhostExchange>> plans;  // per level, built once
  levels.push_back(copy_level(g));
  const std::int64_t limit = gather_limit(K);
  double w0 = 0.0;
  for (std::size_t v = 0; v < levels[0].vertices(); ++v) w0 += static_cast<double>(levels[0].vwgt[v * static_cast<std::size_t>(g.ncon)]);
  MPI_Allreduce(MPI_IN_PLACE, &w0, 1, MPI_DOUBLE, MPI_SUM, comm.get());
  const auto max_cluster = static_cast<std::int64_t>(std::ceil(2.0 * w0 / static_cast<double>(limit)));
  while (levels.back().vtxdist.back() > limit && levels.size() < 16) {
    plans.push_back(std::make_unique<GhostExchange>(comm, levels.back().view()));
    DistLevel coarse;
    if (!coarsen(comm, levels.back(), *plans.back(), max_cluster, coarse)) break;
    levels.push_back(std::move(coarse));
  }
  const double coarsen_s = clock.seconds();
  const DistLevel& coarsest = levels.back();
  const std::vector<double> limits = part_limits(comm, coarsest, K, opts.imbalance, opts.target_sizes);
  std::vector<part_t> parts;
  if (coarsest.vtxdist.back() <= 4 * limit) {
    const graphk::CsrGraph all = gather_graph(comm, coarsest.view(), 0);
    std::vector<part_t> all_parts;
    if (comm.rank() == 0) {
      graphk::MultilevelOptions mo;
      mo.parts = K;
      mo.imbalance = opts.imbalance;
      mo.seed = opts.seed;
      mo.targets.assign(opts.target_sizes.begin(), opts.target_sizes.end());
      const detail::Stopwatch kernel;
      all_parts = graphk::multilevel_partition(all, mo);
      detail::log(comm, 2, "partition_graph graph: kernel " + std::to_string(kernel.seconds()) + " s on " +
                               std::to_string(all.vertices()) + " vertices");
    }
    parts = scatter_parts(comm, coarsest.view(), all_parts, 0);
  } else {
    detail::log(comm, 1, "partition_graph: coarsening stalled at " + std::to_string(coarsest.vtxdist.back()) +
                             " vertices (few local edges); starting from id blocks");
    parts = block_parts(comm, coarsest, K);
    refine(comm, coarsest, GhostExchange(comm, coarsest.view()), K, limits, 12, parts);
  }
  const double initial_s = clock.seconds() - coarsen_s;
  for (std::size_t l = levels.size() - 1; l >= 1; --l) {
    const DistLevel& fine = levels[l - 1];
    std::vector<part_t> fine_parts(fine.vertices());
    for (std::size_t v = 0; v < fine_parts.size(); ++v) fine_parts[v] = parts[static_cast<std::size_t>(levels[l].coarse_of[v])];
    parts = std::move(fine_parts);
    refine(comm, fine, *plans[l - 1], K, limits, 6, parts);
  }
  detail::log(comm, 1,
              "partition_graph graph: " + std::to_string(levels.size()) + " distributed levels (coarsest " +
                  std::to_string(coarsest.vtxdist.back()) + " vertices), coarsen " + std::to_string(coarsen_s) +
                  " s, initial " + std::to_string(initial_s) + " s, refine " +
                  std::to_string(clock.seconds() - coarsen_s - initial_s) + " s");
  return parts;
}

std::vector<part_t> geometric_refine(const Comm& comm, const Graph& g, const GraphOptions& opts) {
  const DistLevel L = copy_level(g);
  const std::size_t n = L.vertices(), nc = static_cast<std::size_t>(g.ncon);
  std::vector<double> w(n);
  for (std::size_t v = 0; v < n; ++v) w[v] = static_cast<double>(L.vwgt[v * nc]);
  std::vector<gid_t> ids(n);
  std::iota(ids.begin(), ids.end(), g.vtxdist[static_cast<std::size_t>(comm.rank())]);
  Options o;
  o.parts = opts.parts;
  o.imbalance = std::min(opts.imbalance / 4, 0.001);
  o.target_sizes = opts.target_sizes;
  std::vector<part_t> parts = partition(comm, PointSet{g.coords, g.dim, w, 1, ids}, o).parts;
  refine(comm, L, GhostExchange(comm, L.view()), opts.parts,
         part_limits(comm, L, opts.parts, opts.imbalance, opts.target_sizes), 10, parts);
  return parts;
}

}  // namespace hpart::graph
