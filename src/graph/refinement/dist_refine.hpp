#pragma once
// One level of the distributed multilevel hierarchy: the owning arrays of a rank's block (global
// neighbour ids, explicit weights), and the map from the finer level's local vertices to this
// level's local vertices (clusters never span ranks, so the map is local).
#include <cstdint>
#include <vector>

#include "core/ghost_exchange.hpp"
#include "hpart/graph.hpp"

namespace hpart::graph {

struct DistLevel {
  std::vector<gid_t> vtxdist;
  std::vector<std::int64_t> xadj{0};
  std::vector<gid_t> adjncy;
  std::vector<std::int64_t> vwgt;  // n * ncon
  std::vector<std::int64_t> adjwgt;
  int ncon = 1;
  std::vector<std::int32_t> coarse_of;  // finer level's local vertex -> this level's local vertex

  [[nodiscard]] Graph view() const { return Graph{vtxdist, xadj, adjncy, vwgt, ncon, adjwgt, {}, 0}; }
  [[nodiscard]] std::size_t vertices() const { return xadj.size() - 1; }
};

// The input graph with explicit unit weights where it has none.
DistLevel copy_level(const Graph& g);

// Collective: size-constrained label propagation refinement of `parts` (this level's local
// vertices), then a balance repair so that every part weighs <= limits[part * ncon + c].
void refine(const Comm& comm, const DistLevel& level, const GhostExchange& ghosts, int K,
            const std::vector<double>& limits, int rounds, std::vector<part_t>& parts);

}  // namespace hpart::graph
