#pragma once
// Coarsening of the multilevel partitioner: heavy-edge matching (METIS's SHEM with its 2-hop
// fallback for star-like graphs) and contraction of the matched pairs into a coarse graph.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "graph/huge_pages.hpp"
#include "graph/ml_graph_view.hpp"

namespace hpart::graphk {

// An array that is not zero-filled when allocated: the contraction writes every entry it uses,
// from all threads (so the pages are first touched in parallel), and a std::vector's serial
// zero-fill of the coarse adjacency cost as much as building it. Large ones ask for transparent
// huge pages (see huge_pages.hpp): page faults on first touch were ~27% of the samples of a
// profile of rgg2d (2^20 vertices) on a 2-core VM.
template <class T>
struct Buffer {
  std::unique_ptr<T[], FreeHugeArray> data;
  std::size_t size = 0;
  void allocate(std::size_t n) {
    data.reset(static_cast<T*>(allocate_huge_array(n * sizeof(T))));
    size = n;
  }
  [[nodiscard]] std::span<const T> view(std::size_t n) const { return {data.get(), n}; }
};

struct CoarseLevel {
  std::int32_t n = 0;  // coarse vertices
  int ncon = 1;
  std::vector<std::int64_t> xadj, vwgt;
  Buffer<std::int32_t> adjncy;  // the first xadj[n] entries are used
  Buffer<std::int64_t> adjwgt;
  std::vector<std::int32_t> cmap;  // fine vertex -> its coarse vertex

  [[nodiscard]] GraphView view() const {
    GraphView v;
    v.n = n;
    v.ncon = ncon;
    v.xadj = xadj;
    v.adjncy = adjncy.view(static_cast<std::size_t>(xadj.back()));
    v.vwgt = vwgt;
    v.adjwgt = adjwgt.view(static_cast<std::size_t>(xadj.back()));
    return v;
  }
};

// One coarsening step. Pairs whose summed weight would exceed max_vwgt (per constraint) are not
// matched, so that no coarse vertex becomes too heavy to balance. The matching runs in fixed
// blocks of vertices in parallel, then sequentially over what is left; the contraction builds
// each coarse vertex's adjacency from its fine vertices in a fixed order. The result does not
// depend on the thread count.
// (Also used by the distributed driver for its rank-local matchings: cmap only.)
CoarseLevel coarsen_once(const GraphView& g, std::span<const std::int64_t> max_vwgt, std::uint64_t seed);

}  // namespace hpart::graphk
