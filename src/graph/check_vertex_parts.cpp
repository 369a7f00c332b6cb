#include "graph/check_vertex_parts.hpp"

namespace hpart::graph {

void check_vertex_parts(const Comm& comm, const Graph& g, std::span<const part_t> parts, int num_parts,
                        const std::string& who) {
  const std::size_t n = g.local_vertices();
  comm.agree(parts.size() != n ? ErrorCode::size_mismatch : ErrorCode::ok,
             who + ": " + std::to_string(parts.size()) + " parts for " + std::to_string(n) + " local vertices");
  std::string problem;
  for (std::size_t v = 0; v < n && problem.empty(); ++v)
    if (parts[v] < 0 || parts[v] >= num_parts)
      problem = who + ": vertex " +
                std::to_string(g.vtxdist[static_cast<std::size_t>(comm.rank())] + static_cast<gid_t>(v)) +
                " has part " + std::to_string(parts[v]) + ", outside [0, " + std::to_string(num_parts) + ")";
  comm.agree(problem.empty() ? ErrorCode::ok : ErrorCode::invalid_input, problem);
}

}  // namespace hpart::graph
