#pragma once
// Distributed refinement of a graph's block as the input gives it (global neighbour ids), in the
// owning arrays of the public type (GraphFile) with every weight explicit: geometric+refine's one
// level. The multilevel driver's levels are BlockLevel (coarsening/block_level.hpp).
#include <cstdint>
#include <vector>

#include "core/ghost_exchange.hpp"
#include "hpart/graph.hpp"

namespace hpart::graph {

// The input graph's arrays with explicit unit weights where it has none (xadj holds at least the
// 0 offset; no coordinates).
GraphFile explicit_weights(const Graph& g);

// Collective: size-constrained label propagation refinement of `parts` (the level's local
// vertices), then a balance repair so that every part weighs <= limits[part * ncon + c]. `level`
// has explicit weights (explicit_weights); `ghosts` is its plan.
void refine(const Comm& comm, const GraphFile& level, const GhostExchange& ghosts, int K,
            const std::vector<double>& limits, int rounds, std::vector<part_t>& parts);

}  // namespace hpart::graph
