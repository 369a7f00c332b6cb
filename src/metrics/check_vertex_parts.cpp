#include "metrics/check_vertex_parts.hpp"

#include "metrics/part_ids.hpp"

namespace hpart::graph {

void check_vertex_parts(const Comm& comm, const Graph& g, std::span<const part_t> parts, int num_parts,
                        const std::string& who, const detail::Replicated& args, const std::string& problem) {
  const std::size_t n = g.local_vertices();
  ErrorCode code = problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument;
  std::string message = problem;
  if (message.empty() && parts.size() != n) {
    code = ErrorCode::size_mismatch;
    message = std::to_string(parts.size()) + " parts for " + std::to_string(n) + " local vertices";
  }
  if (const std::size_t v = message.empty() ? detail::first_bad_part(parts, num_parts) : n; v < n) {
    code = ErrorCode::invalid_input;
    message = "vertex " + std::to_string(g.vtxdist[static_cast<std::size_t>(comm.rank())] + static_cast<gid_t>(v)) +
              " has part " + std::to_string(parts[v]) + ", outside [0, " + std::to_string(num_parts) + ")";
  }
  detail::agree(comm, args, code, message.empty() ? message : who + ": " + message);
}

}  // namespace hpart::graph
