// Edge cut, communication volume and boundary vertices of any partition, by one ghost exchange
// of the parts: the same code measures every method.
#include <algorithm>

#include "graph/ghost_exchange.hpp"
#include "hpart/graph.hpp"

namespace hpart {

GraphMetrics graph_metrics(const Comm& comm, const Graph& g, std::span<const part_t> parts, int num_parts) {
  const std::size_t n = g.local_vertices();
  const bool bad = parts.size() != n;
  comm.agree(bad ? ErrorCode::size_mismatch : ErrorCode::ok,
             "graph_metrics: " + std::to_string(parts.size()) + " parts for " + std::to_string(n) + " local vertices");
  (void)num_parts;
  const graph::GhostExchange ghosts(comm, g);
  const std::vector<part_t> ghost_parts = ghosts.fetch(parts);
  const auto& adj = ghosts.local_adjncy();
  const auto part_at = [&](std::int32_t v) {
    return static_cast<std::size_t>(v) < n ? parts[static_cast<std::size_t>(v)] : ghost_parts[static_cast<std::size_t>(v) - n];
  };
  long long cut2 = 0, volume = 0, boundary = 0;  // cut2: every cut edge seen from both ends
  std::vector<part_t> seen;
  for (std::size_t v = 0; v < n; ++v) {
    seen.clear();
    const part_t mine = parts[v];
    for (auto e = g.xadj[v]; e < g.xadj[v + 1]; ++e) {
      const part_t q = part_at(adj[static_cast<std::size_t>(e)]);
      if (q == mine) continue;
      cut2 += g.adjwgt.empty() ? 1 : g.adjwgt[static_cast<std::size_t>(e)];
      if (std::find(seen.begin(), seen.end(), q) == seen.end()) seen.push_back(q);
    }
    volume += static_cast<long long>(seen.size());
    boundary += seen.empty() ? 0 : 1;
  }
  long long sums[3] = {cut2, volume, boundary};
  MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPI_LONG_LONG, MPI_SUM, comm.get());
  return GraphMetrics{sums[0] / 2, sums[1], sums[2]};
}

}  // namespace hpart
