// Rank-local coarsening: label propagation over the local neighbours only, so clusters never
// span ranks and contraction needs one ghost exchange (the coarse ids of the ghosts) and no
// global cluster bookkeeping. On graphs whose blocks are geometrically coherent (file order of
// meshes, generated grids) most edges are local and this loses little.
#include <mpi.h>

#include <algorithm>
#include <numeric>
#include <tuple>

#include "graph/dist_level.hpp"
#include "graph/ghost_exchange.hpp"

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

bool coarsen(const Comm& comm, const DistLevel& fine, std::int64_t max_weight, DistLevel& coarse) {
  const std::size_t n = fine.vertices(), nc = static_cast<std::size_t>(fine.ncon);
  const gid_t lo = fine.vtxdist[static_cast<std::size_t>(comm.rank())];
  std::vector<std::int32_t> cluster(n);
  std::iota(cluster.begin(), cluster.end(), 0);
  std::vector<std::int64_t> cweight(n);
  for (std::size_t v = 0; v < n; ++v) cweight[v] = fine.vwgt[v * nc];
  // Connection weight to each candidate cluster, reset per vertex via the touched list.
  std::vector<std::int64_t> conn(n, 0);
  std::vector<std::int32_t> touched;
  for (int round = 0; round < 3; ++round) {
    bool moved = false;
    for (std::size_t v = 0; v < n; ++v) {
      touched.clear();
      for (auto e = fine.xadj[v]; e < fine.xadj[v + 1]; ++e) {
        const gid_t u = fine.adjncy[static_cast<std::size_t>(e)] - lo;
        if (u < 0 || static_cast<std::size_t>(u) >= n) continue;  // ghosts never join
        const std::int32_t c = cluster[static_cast<std::size_t>(u)];
        if (conn[static_cast<std::size_t>(c)] == 0) touched.push_back(c);
        conn[static_cast<std::size_t>(c)] += fine.adjwgt[static_cast<std::size_t>(e)];
      }
      const std::int32_t own = cluster[v];
      const std::int64_t w = fine.vwgt[v * nc];
      std::int32_t best = own;
      std::int64_t best_conn = conn[static_cast<std::size_t>(own)];
      for (std::int32_t c : touched)
        if (c != own && conn[static_cast<std::size_t>(c)] > best_conn && cweight[static_cast<std::size_t>(c)] + w <= max_weight) {
          best = c;
          best_conn = conn[static_cast<std::size_t>(c)];
        }
      for (std::int32_t c : touched) conn[static_cast<std::size_t>(c)] = 0;
      conn[static_cast<std::size_t>(own)] = 0;
      if (best != own) {
        cweight[static_cast<std::size_t>(own)] -= w;
        cweight[static_cast<std::size_t>(best)] += w;
        cluster[v] = best;
        moved = true;
      }
    }
    if (!moved) break;
  }
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
  const GhostExchange ghosts(comm, fine.view());
  std::vector<gid_t> global_coarse(n);
  for (std::size_t v = 0; v < n; ++v) global_coarse[v] = clo + coarse.coarse_of[v];
  const std::vector<gid_t> ghost_coarse = ghosts.fetch(std::span<const gid_t>(global_coarse));
  const auto& ladj = ghosts.local_adjncy();
  // Coarse edges (coarse vertex, neighbour, weight), merged by sorting.
  std::vector<std::tuple<std::int32_t, gid_t, std::int64_t>> edges;
  edges.reserve(fine.adjncy.size());
  for (std::size_t v = 0; v < n; ++v) {
    const std::int32_t c = coarse.coarse_of[v];
    for (auto e = fine.xadj[v]; e < fine.xadj[v + 1]; ++e) {
      const auto u = static_cast<std::size_t>(ladj[static_cast<std::size_t>(e)]);
      const gid_t cu = u < n ? global_coarse[u] : ghost_coarse[u - n];
      if (cu == clo + c) continue;  // inside the cluster
      edges.emplace_back(c, cu, fine.adjwgt[static_cast<std::size_t>(e)]);
    }
  }
  std::sort(edges.begin(), edges.end());
  coarse.ncon = fine.ncon;
  coarse.vwgt.assign(static_cast<std::size_t>(count) * nc, 0);
  for (std::size_t v = 0; v < n; ++v)
    for (std::size_t k = 0; k < nc; ++k) coarse.vwgt[static_cast<std::size_t>(coarse.coarse_of[v]) * nc + k] += fine.vwgt[v * nc + k];
  coarse.xadj.assign(static_cast<std::size_t>(count) + 1, 0);
  coarse.adjncy.clear();
  coarse.adjwgt.clear();
  for (std::size_t i = 0; i < edges.size();) {
    const auto [c, u, w0] = edges[i];
    std::int64_t w = 0;
    std::size_t j = i;
    for (; j < edges.size() && std::get<0>(edges[j]) == c && std::get<1>(edges[j]) == u; ++j) w += std::get<2>(edges[j]);
    coarse.adjncy.push_back(u);
    coarse.adjwgt.push_back(w);
    ++coarse.xadj[static_cast<std::size_t>(c) + 1];
    i = j;
    (void)w0;
  }
  for (std::size_t c = 0; c < static_cast<std::size_t>(count); ++c) coarse.xadj[c + 1] += coarse.xadj[c];
  return true;
}

}  // namespace hpart::graph
