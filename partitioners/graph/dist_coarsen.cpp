// Rank-local coarsening: the kernel's heavy-edge matching on each rank's block with its local
// edges, so clusters never span ranks and contraction needs one ghost exchange (the coarse ids of the ghosts) and no
// global cluster bookkeeping. On graphs whose blocks are geometrically coherent (file order of
// meshes, generated grids) most edges are local and this loses little.
#include <mpi.h>

#include <algorithm>
#include <numeric>

#include "core/log.hpp"
#include "graph/dist_level.hpp"
#include "graph/ghost_exchange.hpp"
#include "graph/ml_coarsen.hpp"

namespace hpart::graph {

DistLevel copy_level(const Graph& g) {
  DistLevel L;
  L.vtxdist.assign(g.vtxdist.begin(), g.vtxdist.end());
  L.xadj.assign(g.xadj.begin(), g.xadj.end());
  L.adjncy.assign(g.adjncy.begin(), g.adjncy.end());
  L.ncon = g.ncon;
  const std::size_t n = g.local_vertices();
  L.vwgt = g.vwgt.empty() ? std::vector<std::int64_t>(n * static_cast<std::size_t>(g.ncon), 1)
                          : std::vector<std::int64_t>(g.vwgt.begin(), g.vwgt.end());
  L.adjwgt = g.adjwgt.empty() ? std::vector<std::int64_t>(g.adjncy.size(), 1)
                              : std::vector<std::int64_t>(g.adjwgt.begin(), g.adjwgt.end());
  return L;
}

bool coarsen(const Comm& comm, const DistLevel& fine, const GhostExchange& ghosts, std::int64_t max_weight,
             DistLevel& coarse) {
  const std::size_t n = fine.vertices(), nc = static_cast<std::size_t>(fine.ncon);
  const gid_t lo = fine.vtxdist[static_cast<std::size_t>(comm.rank())];
  // The rank's block with its local edges only, matched by the kernel's heavy-edge matching.
  graphk::CsrGraph local;
  local.ncon = fine.ncon;
  local.xadj.assign(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v) {
    for (auto e = fine.xadj[v]; e < fine.xadj[v + 1]; ++e) {
      const gid_t u = fine.adjncy[static_cast<std::size_t>(e)] - lo;
      if (u < 0 || static_cast<std::size_t>(u) >= n) continue;
      local.adjncy.push_back(static_cast<std::int32_t>(u));
      local.adjwgt.push_back(fine.adjwgt[static_cast<std::size_t>(e)]);
    }
    local.xadj[v + 1] = static_cast<std::int64_t>(local.adjncy.size());
  }
  local.vwgt = fine.vwgt;
  const detail::Stopwatch clock;
  std::vector<std::int32_t> cluster(n);
  if (n > 0) {
    const std::vector<std::int64_t> cap(nc, max_weight);
    const graphk::CoarseLevel matched = graphk::coarsen_once(graphk::view_of(local), cap, 1 + static_cast<std::uint64_t>(comm.rank()));
    cluster.assign(matched.cmap.begin(), matched.cmap.end());
  }
  const double match_s = clock.seconds();
  // Compact the cluster ids into this rank's coarse vertices, in order of first member.
  std::vector<std::int32_t> id(n, -1);
  std::int32_t count = 0;
  coarse.coarse_of.assign(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    std::int32_t& c = id[static_cast<std::size_t>(cluster[v])];
    if (c < 0) c = count++;
    coarse.coarse_of[v] = c;
  }
  long long sizes[2] = {static_cast<long long>(n), count};
  long long total[2] = {0, 0};
  MPI_Allreduce(sizes, total, 2, MPI_LONG_LONG, MPI_SUM, comm.get());
  if (static_cast<double>(total[1]) > 0.9 * static_cast<double>(total[0])) {
    coarse = DistLevel{};
    return false;
  }
  const int R = comm.size();
  std::vector<long long> counts(static_cast<std::size_t>(R));
  const long long mine = count;
  MPI_Allgather(&mine, 1, MPI_LONG_LONG, counts.data(), 1, MPI_LONG_LONG, comm.get());
  coarse.vtxdist.assign(static_cast<std::size_t>(R) + 1, 0);
  for (int r = 0; r < R; ++r) coarse.vtxdist[static_cast<std::size_t>(r) + 1] = coarse.vtxdist[static_cast<std::size_t>(r)] + counts[static_cast<std::size_t>(r)];
  const gid_t clo = coarse.vtxdist[static_cast<std::size_t>(comm.rank())];
  // Coarse global ids of the fine ghosts.
  std::vector<gid_t> global_coarse(n);
  for (std::size_t v = 0; v < n; ++v) global_coarse[v] = clo + coarse.coarse_of[v];
  const std::vector<gid_t> ghost_coarse = ghosts.fetch(std::span<const gid_t>(global_coarse));
  const auto& ladj = ghosts.local_adjncy();
  const double ghosts_s = clock.seconds();
  // Coarse edges, built coarse vertex by coarse vertex from its members (bucketed by a counting
  // sort), merging parallel edges in a dense accumulator over local-then-ghost coarse ids.
  std::vector<gid_t> ghost_targets(ghost_coarse.begin(), ghost_coarse.end());
  std::sort(ghost_targets.begin(), ghost_targets.end());
  ghost_targets.erase(std::unique(ghost_targets.begin(), ghost_targets.end()), ghost_targets.end());
  std::vector<std::int32_t> ghost_slot(ghost_coarse.size());
  for (std::size_t k = 0; k < ghost_coarse.size(); ++k)
    ghost_slot[k] = count + static_cast<std::int32_t>(std::lower_bound(ghost_targets.begin(), ghost_targets.end(), ghost_coarse[k]) -
                                                      ghost_targets.begin());
  std::vector<std::int64_t> first(static_cast<std::size_t>(count) + 1, 0);
  for (std::size_t v = 0; v < n; ++v) ++first[static_cast<std::size_t>(coarse.coarse_of[v]) + 1];
  for (std::size_t c = 0; c < static_cast<std::size_t>(count); ++c) first[c + 1] += first[c];
  std::vector<std::size_t> members(n);
  {
    std::vector<std::int64_t> fill(first.begin(), first.end() - 1);
    for (std::size_t v = 0; v < n; ++v) members[static_cast<std::size_t>(fill[static_cast<std::size_t>(coarse.coarse_of[v])]++)] = v;
  }
  coarse.ncon = fine.ncon;
  coarse.vwgt.assign(static_cast<std::size_t>(count) * nc, 0);
  for (std::size_t v = 0; v < n; ++v)
    for (std::size_t k = 0; k < nc; ++k) coarse.vwgt[static_cast<std::size_t>(coarse.coarse_of[v]) * nc + k] += fine.vwgt[v * nc + k];
  coarse.xadj.assign(1, 0);
  coarse.adjncy.clear();
  coarse.adjwgt.clear();
  std::vector<std::int64_t> acc(static_cast<std::size_t>(count) + ghost_targets.size(), 0);
  std::vector<std::int32_t> touched;
  for (std::int32_t c = 0; c < count; ++c) {
    touched.clear();
    for (auto m = first[static_cast<std::size_t>(c)]; m < first[static_cast<std::size_t>(c) + 1]; ++m) {
      const std::size_t v = members[static_cast<std::size_t>(m)];
      for (auto e = fine.xadj[v]; e < fine.xadj[v + 1]; ++e) {
        const auto u = static_cast<std::size_t>(ladj[static_cast<std::size_t>(e)]);
        const std::int32_t slot = u < n ? coarse.coarse_of[u] : ghost_slot[u - n];
        if (slot == c) continue;  // inside the cluster
        if (acc[static_cast<std::size_t>(slot)] == 0) touched.push_back(slot);
        acc[static_cast<std::size_t>(slot)] += fine.adjwgt[static_cast<std::size_t>(e)];
      }
    }
    std::sort(touched.begin(), touched.end());
    for (std::int32_t slot : touched) {
      coarse.adjncy.push_back(slot < count ? clo + slot : ghost_targets[static_cast<std::size_t>(slot - count)]);
      coarse.adjwgt.push_back(acc[static_cast<std::size_t>(slot)]);
      acc[static_cast<std::size_t>(slot)] = 0;
    }
    coarse.xadj.push_back(static_cast<std::int64_t>(coarse.adjncy.size()));
  }
  detail::log(comm, 2, "coarsen: " + std::to_string(n) + " -> " + std::to_string(count) + " local vertices, match " +
                           std::to_string(match_s) + " s, ghosts " + std::to_string(ghosts_s - match_s) + " s, contract " +
                           std::to_string(clock.seconds() - ghosts_s) + " s");
  return true;
}

}  // namespace hpart::graph
