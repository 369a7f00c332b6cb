#pragma once
// The multilevel kernels' read-only view of one level's graph: spans over a CsrGraph (the
// caller's at the finest level, our coarse graphs below) and, where the caller's weights are
// replaced (all zero, or missing), over substitute arrays, without copying the adjacency.
#include <cstdint>
#include <span>

#include "graph/csr_graph.hpp"

namespace hpart::graphk {

struct GraphView {
  std::int32_t n = 0;
  int ncon = 1;
  std::span<const std::int64_t> xadj;    // n + 1
  std::span<const std::int32_t> adjncy;  // xadj[n]
  std::span<const std::int64_t> vwgt;    // n * ncon
  // xadj[n], or empty for unit edge weights: the finest level of an unweighted graph then needs
  // no array of ones (on a 2M-vertex 3D grid, 100 MB written and streamed through every pass).
  std::span<const std::int64_t> adjwgt;
  // Or, on coarse levels whose weights all fit (the graph's total edge weight < 2^31), the same
  // in 32 bits: the widest arrays of a coarse level, so half the fresh memory the kernel must
  // zero (on a 2M-vertex 3D grid, 85 of ~430 MB per call) and half the bytes streamed.
  std::span<const std::int32_t> adjwgt32;

  [[nodiscard]] bool unit_edges() const { return adjwgt.empty() && adjwgt32.empty(); }
  [[nodiscard]] std::int64_t weight(std::int32_t v, int c) const {
    return vwgt[static_cast<std::size_t>(v) * static_cast<std::size_t>(ncon) + static_cast<std::size_t>(c)];
  }
  [[nodiscard]] const std::int64_t* weights(std::int32_t v) const {
    return vwgt.data() + static_cast<std::size_t>(v) * static_cast<std::size_t>(ncon);
  }
  [[nodiscard]] std::int64_t begin(std::int32_t v) const { return xadj[static_cast<std::size_t>(v)]; }
  [[nodiscard]] std::int64_t end(std::int32_t v) const { return xadj[static_cast<std::size_t>(v) + 1]; }
  [[nodiscard]] std::int32_t nbr(std::int64_t e) const { return adjncy[static_cast<std::size_t>(e)]; }
  [[nodiscard]] std::int64_t ewgt(std::int64_t e) const {
    if (!adjwgt32.empty()) return adjwgt32[static_cast<std::size_t>(e)];
    return adjwgt.empty() ? 1 : adjwgt[static_cast<std::size_t>(e)];
  }
  // Sum of the edge weights (each edge counted at both ends).
  [[nodiscard]] std::int64_t edge_total() const {
    if (unit_edges()) return static_cast<std::int64_t>(adjncy.size());
    std::int64_t t = 0;
    for (std::size_t e = 0; e < adjncy.size(); ++e) t += ewgt(static_cast<std::int64_t>(e));
    return t;
  }
};

inline GraphView view_of(const CsrGraph& g) {
  return GraphView{.n = g.vertices(), .ncon = g.ncon, .xadj = g.xadj, .adjncy = g.adjncy, .vwgt = g.vwgt,
                   .adjwgt = g.adjwgt, .adjwgt32 = g.adjwgt32};
}

}  // namespace hpart::graphk
