// Vertex coordinates from a point file: the text reader gives each rank the points that start in
// its byte range, the graph wants them in its vertex blocks, so they are re-blocked (one
// all-to-all of the overlaps, io/reblock.hpp), never gathered.
#include <string>

#include "core/agreement.hpp"
#include "hpart/io.hpp"
#include "io/reblock.hpp"

namespace hpart {

PointFile read_vertex_coords(const Comm& comm, const std::string& path, std::span<const gid_t> vtxdist, int dim) {
  const auto R = static_cast<std::size_t>(comm.size());
  std::string problem;
  if (vtxdist.size() != R + 1)
    problem = "read_vertex_coords: vtxdist has " + std::to_string(vtxdist.size()) + " values; expected ranks + 1 = " +
              std::to_string(R + 1);
  comm.agree(problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);
  PointFile file = read_points_text(comm, path, dim);
  const gid_t vertices = vtxdist[R];
  if (file.global_count != vertices)
    comm.agree(ErrorCode::invalid_input, path + " holds " + std::to_string(file.global_count) +
                                             " points, but the graph has " + std::to_string(vertices) +
                                             " vertices (one point per vertex, in vertex order)");
  const auto r = static_cast<std::size_t>(comm.rank());
  const auto first = static_cast<long long>(vtxdist[r]), count = static_cast<long long>(vtxdist[r + 1] - vtxdist[r]);
  const long long mine = file.ids.empty() ? 0 : static_cast<long long>(file.ids.front());
  PointFile out;
  out.dim = file.dim;
  out.weighted = file.weighted;
  out.global_count = file.global_count;
  out.columns = file.columns;
  out.columns_declared = file.columns_declared;
  out.coords = detail::reblock<double>(comm, file.coords, file.dim, mine, first, count);
  if (file.weighted) out.weights = detail::reblock<double>(comm, file.weights, 1, mine, first, count);
  out.ids.resize(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < out.ids.size(); ++i) out.ids[i] = static_cast<gid_t>(first) + i;
  return out;
}

}  // namespace hpart
