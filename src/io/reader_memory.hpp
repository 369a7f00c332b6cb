#pragma once
// Memory verdicts of the graph file readers (empty = fine), so that a file whose size or declared
// shape cannot be served is the same hpart::Error on every rank instead of a std::bad_alloc on
// some: the parse of a rank's lines (its growth is not estimated beforehand: that would be a pass
// over the text) and the block of vertices each rank then owns (estimated from the header's n).
#include <new>
#include <string>

#include "core/memory_budget.hpp"
#include "core/vertex_blocks.hpp"
#include "hpart/comm.hpp"

namespace hpart::detail {

// Runs `parse()`; running out of memory there becomes a verdict naming the file.
template <class Parse>
std::string parse_within_memory(const std::string& path, std::size_t text_bytes, Parse&& parse) {
  try {
    parse();
  } catch (const std::bad_alloc&) {
    return "'" + path + "': out of memory parsing this rank's " + format_bytes(static_cast<double>(text_bytes)) +
           " of lines: use more ranks, or ranks on more nodes";
  }
  return {};
}

// This rank's block of the file's `vertices` at `bytes_per_vertex`, plus `other_bytes`.
inline std::string check_vertex_block_memory(const Comm& comm, const std::string& path, gid_t vertices,
                                             double bytes_per_vertex, double other_bytes) {
  const std::vector<gid_t> vtxdist = block_vtxdist(vertices, comm.size());
  const auto r = static_cast<std::size_t>(comm.rank());
  const double block = static_cast<double>(vtxdist[r + 1] - vtxdist[r]);
  return check_memory(block * bytes_per_vertex + other_bytes,
                      "reading '" + path + "' (" + std::to_string(vertices) + " vertices, " +
                          std::to_string(static_cast<long long>(block)) + " on this rank)",
                      "each rank owns 1/R of the vertices: use more ranks, or ranks on more nodes");
}

}  // namespace hpart::detail
