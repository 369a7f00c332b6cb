#pragma once
// One level of the distributed multilevel scheme as a rank holds it: its block of the level's
// graph in the shared-memory kernel's arrays (local ids), with its ghosts (the other ranks'
// neighbours) appended as extra vertices of weight 0 that list only their local neighbours.
// With the ghosts in place the kernel itself coarsens the block (ghosts are made too heavy to
// match, so clusters never span ranks and the kernel's contraction is the level's) and refines
// it (ghosts fixed): every rank runs the full-quality kernel on its own block at once, and the
// only communication per level is one ghost exchange. Refinement of a level:
// refinement/block_refine.hpp.
#include <cstdint>
#include <memory>
#include <vector>

#include "graph/csr_graph.hpp"
#include "core/ghost_exchange.hpp"
#include "hpart/comm.hpp"
#include "hpart/graph.hpp"

namespace hpart::graph {

struct BlockLevel {
  std::vector<gid_t> vtxdist;           // the level's distribution: local i is vtxdist[rank] + i
  // n locals, then the ghosts; vwgt explicit (ghosts 0), adjwgt explicit below the finest level.
  // Coarse levels may list a ghost more than once in a row (parallel edges, summed by the kernel).
  graphk::CsrGraph graph;
  std::int32_t n = 0;                   // local vertices
  std::vector<gid_t> ghost_ids;         // global id of ghost i (vertex n + i), ascending
  std::shared_ptr<const GhostExchange> plan;  // fetches values of the ghosts from their owners
  std::vector<std::int32_t> coarse_of;  // local -> the next coarser level's local (coarsen_block)

  [[nodiscard]] std::int32_t ghosts() const { return static_cast<std::int32_t>(ghost_ids.size()); }
  // The block as a distributed graph in global ids (locals only, parallel entries merged,
  // explicit weights, no coordinates), for gathering.
  [[nodiscard]] GraphFile global_arrays(int rank) const;
};

// Collective: the input graph's block (valid graph) and its ghost plan.
BlockLevel finest_block(const Comm& comm, const Graph& g);

// Collective: the next coarser level by the kernel's coarsening of each block (cluster_rounds > 0:
// label propagation clustering, 0: heavy-edge matching; cluster weight <= max_weight per
// constraint). False (coarse untouched) when the graph as a whole shrinks by less than 10%.
// narrow: the coarse edge weights in 32 bits (the caller guarantees that the graph's edge
// weights sum below 2^31 over all ranks, the same on every rank).
bool coarsen_block(const Comm& comm, BlockLevel& fine, std::int64_t max_weight, std::uint64_t seed, BlockLevel& coarse,
                   bool narrow = false, int cluster_rounds = 0);

}  // namespace hpart::graph
