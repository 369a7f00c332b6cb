#pragma once
// Coarsening of the multilevel partitioner: heavy-edge matching (METIS's SHEM with its 2-hop
// fallback for star-like graphs) or size-constrained label propagation clustering, and
// contraction of the pairs or clusters into a coarse graph.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/huge_pages.hpp"
#include "graph/ml_graph_view.hpp"
#include "hpart/types.hpp"

namespace hpart::graphk {

struct CoarseLevel {
  std::int32_t n = 0;  // coarse vertices
  int ncon = 1;
  // Huge-page arrays, not zero-filled (see huge_pages.hpp): the contraction writes every entry
  // it keeps, from all threads, so the pages are also first touched in parallel. Page faults
  // on first touch were ~27% of the samples of a profile of rgg2d (2^20 vertices) on a 2-core VM.
  HugeVector<std::int64_t> xadj, vwgt;
  HugeVector<std::int32_t> adjncy;  // xadj[n] entries (capacity for `spare` more, see below)
  HugeVector<std::int64_t> adjwgt;
  HugeVector<std::int32_t> adjwgt32;  // instead of adjwgt, when made narrow (see coarsen_once)
  HugeVector<std::int32_t> cmap;  // fine vertex -> its coarse vertex

  [[nodiscard]] GraphView view() const {
    GraphView v;
    v.n = n;
    v.ncon = ncon;
    v.xadj = xadj;
    v.adjncy = adjncy;
    v.vwgt = vwgt;
    v.adjwgt = adjwgt;
    v.adjwgt32 = adjwgt32;
    return v;
  }
};

// A coarsening step that keeps more than this fraction of the vertices has stalled: the
// multilevel loop stops there, and coarsen_once matches a level whose clustering stalled.
constexpr double kMinShrink = 0.85;

// One coarsening step. Pairs whose summed weight would exceed max_vwgt (per constraint) are not
// matched, so that no coarse vertex becomes too heavy to balance. The matching runs in fixed
// blocks of vertices in parallel, then sequentially over what is left; the contraction builds
// each coarse vertex's adjacency from its fine vertices in a fixed order. The result does not
// depend on the thread count.
// (Also used by the distributed driver for its rank-local matchings.) `spare`: entries of room
// the adjacency arrays keep beyond xadj[n] (capacity), so that a caller appending that many
// (the distributed driver's ghost rows) does not reallocate and copy them. narrow: store the
// coarse edge weights in adjwgt32 (the caller guarantees g.edge_total() < 2^31, which bounds
// every coarse weight); else in adjwgt. part (empty, or one per vertex): only vertices of the
// same part are matched, so that every coarse vertex lies in one part (a V-cycle's coarsening).
// cluster_rounds > 0: size-constrained label propagation clustering (that many rounds at most)
// instead of matching: clusters of any size up to max_vwgt (ml_coarsen.cpp says when it pays);
// a clustering that keeps more than kMinShrink of the vertices is replaced by a matching.
CoarseLevel coarsen_once(const GraphView& g, std::span<const std::int64_t> max_vwgt, std::uint64_t seed,
                         std::size_t spare = 0, bool narrow = false, std::span<const part_t> part = {},
                         int cluster_rounds = 0);

}  // namespace hpart::graphk
