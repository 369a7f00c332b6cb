#pragma once
// Coarsening of the multilevel partitioner: heavy-edge matching (METIS's SHEM with its 2-hop
// fallback for star-like graphs) and contraction of the matched pairs into a coarse graph.
#include <cstdint>
#include <span>
#include <vector>

#include "graph/csr_graph.hpp"
#include "graph/ml_graph_view.hpp"

namespace hpart::graphk {

struct CoarseLevel {
  CsrGraph graph;                  // the coarse graph
  std::vector<std::int32_t> cmap;  // fine vertex -> its coarse vertex
};

// One coarsening step. Pairs whose summed weight would exceed max_vwgt (per constraint) are not
// matched, so that no coarse vertex becomes too heavy to balance. The matching is sequential and
// seeded; the contraction runs in parallel but builds each coarse vertex's adjacency from its
// fine vertices in a fixed order, so the result does not depend on the thread count.
CoarseLevel coarsen_once(const GraphView& g, std::span<const std::int64_t> max_vwgt, std::uint64_t seed);

}  // namespace hpart::graphk
