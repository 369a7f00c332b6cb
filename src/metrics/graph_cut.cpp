// Edge cut, communication volume and boundary vertices of any partition, by one ghost exchange
// of the parts: the same code measures every method.
#include <algorithm>
#include <string>

#include "metrics/graph_cut.hpp"

namespace hpart {

namespace {

// Over the rank's vertices; part_at(e) is the part of adjacency entry e's neighbour.
template <class PartAt>
GraphMetrics count(const Graph& g, std::span<const part_t> parts, PartAt part_at) {
  const std::size_t n = g.local_vertices();
  long long cut2 = 0, volume = 0, boundary = 0;  // cut2: every cut edge seen from both ends
#pragma omp parallel reduction(+ : cut2, volume, boundary)
  {
    std::vector<part_t> seen;  // the other parts this vertex touches
#pragma omp for schedule(static, 4096)
    for (std::int64_t iv = 0; iv < static_cast<std::int64_t>(n); ++iv) {
      const auto v = static_cast<std::size_t>(iv);
      seen.clear();
      const part_t mine = parts[v];
      for (auto e = g.xadj[v]; e < g.xadj[v + 1]; ++e) {
        const part_t q = part_at(static_cast<std::size_t>(e));
        if (q == mine) continue;
        cut2 += g.adjwgt.empty() ? 1 : g.adjwgt[static_cast<std::size_t>(e)];
        if (std::find(seen.begin(), seen.end(), q) == seen.end()) seen.push_back(q);
      }
      volume += static_cast<long long>(seen.size());
      boundary += seen.empty() ? 0 : 1;
    }
  }
  return GraphMetrics{cut2, volume, boundary};
}

}  // namespace

namespace {

GraphMetrics summed(const Comm& comm, const GraphMetrics& m) {
  long long sums[3] = {m.edge_cut, m.comm_volume, m.boundary_vertices};
  MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPI_LONG_LONG, MPI_SUM, comm.get());
  return GraphMetrics{sums[0] / 2, sums[1], sums[2]};
}

}  // namespace

namespace graph {

GraphMetrics graph_metrics_with(const Comm& comm, const Graph& g, std::span<const part_t> parts,
                                const GhostExchange& ghosts) {
  return graph_metrics_with(comm, g, parts, ghosts, ghosts.local_adjncy());
}

GraphMetrics graph_metrics_with(const Comm& comm, const Graph& g, std::span<const part_t> parts,
                                const GhostExchange& ghosts, std::span<const std::int32_t> adj) {
  const std::size_t n = g.local_vertices();
  const std::vector<part_t> ghost_parts = ghosts.fetch(parts);
  return summed(comm, count(g, parts, [&](std::size_t e) {
    const auto v = static_cast<std::size_t>(adj[e]);
    return v < n ? parts[v] : ghost_parts[v - n];
  }));
}

GraphMetrics graph_metrics_of_valid(const Comm& comm, const Graph& g, std::span<const part_t> parts) {
  if (comm.size() > 1) return graph_metrics_with(comm, g, parts, GhostExchange(comm, g));
  // One rank: every neighbour is local, no ghost plan to build.
  if (!g.adjncy32.empty())
    return summed(comm, count(g, parts, [&](std::size_t e) { return parts[static_cast<std::size_t>(g.adjncy32[e])]; }));
  return summed(comm, count(g, parts, [&](std::size_t e) { return parts[static_cast<std::size_t>(g.adjncy[e])]; }));
}

}  // namespace graph

}  // namespace hpart
