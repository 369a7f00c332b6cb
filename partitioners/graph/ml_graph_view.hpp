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
    return adjwgt.empty() ? 1 : adjwgt[static_cast<std::size_t>(e)];
  }
};

inline GraphView view_of(const CsrGraph& g) {
  GraphView v;
  v.n = g.vertices();
  v.ncon = g.ncon;
  v.xadj = g.xadj;
  v.adjncy = g.adjncy;
  v.vwgt = g.vwgt;
  v.adjwgt = g.adjwgt;
  return v;
}

}  // namespace hpart::graphk
