#pragma once
// hpart's distributed graph partitioner: every rank coarsens its block with the shared-memory
// kernel (block_level.hpp) until the graph is small, the coarsest graph is gathered onto rank 0
// and partitioned by the full kernel, then every level is refined by the kernel on all blocks at
// once, ghosts fixed. Also geometric+refine: a Hilbert partition of the vertex coordinates
// refined by distributed label propagation.
#include <memory>
#include <vector>

#include "graph/ghost_exchange.hpp"
#include "hpart/graph.hpp"

namespace hpart::graph {

// `ghosts`: the input graph's ghost plan when the caller has built it (partition_graph shares it
// with the metrics), or null.
std::vector<part_t> distributed_multilevel(const Comm& comm, const Graph& g, const GraphOptions& opts,
                                           std::shared_ptr<const GhostExchange> ghosts = nullptr);
std::vector<part_t> geometric_refine(const Comm& comm, const Graph& g, const GraphOptions& opts);

}  // namespace hpart::graph
