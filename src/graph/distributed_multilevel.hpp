#pragma once
// hpart's distributed graph partitioner: every rank coarsens its block with the shared-memory
// kernel (block_level.hpp) until the graph is small, the coarsest graph is gathered onto rank 0
// and partitioned by the full kernel, then every level is refined by the kernel on all blocks at
// once, ghosts fixed. Also geometric+refine: a Hilbert partition of the vertex coordinates
// refined by label propagation on the same finest level (refinement/block_refine.hpp).
#include <memory>
#include <vector>

#include "core/ghost_exchange.hpp"
#include "graph/graph_totals.hpp"
#include "graph/multilevel.hpp"
#include "hpart/graph.hpp"

namespace hpart::graph {

// The input graph's ghost plan and the local numbering of its adjacency (then ghost rows), as
// the driver built them for its finest level: partition_graph's metrics reuse them.
struct FinestNumbering {
  std::shared_ptr<const GhostExchange> plan;
  graphk::HugeVector<std::int32_t> adjncy;
};

// The shared-memory kernel's options for a partition_graph call (parts, imbalance, seed,
// targets, the effort's kernel fields); `validated`: the kernel may skip its own pass over the
// edges (validate_graph ran on this graph).
graphk::MultilevelOptions kernel_options(const GraphOptions& opts, bool validated);

// `totals`: validation's (graph::validate). `keep` (optional, more than one rank): receives the
// finest level's numbering.
std::vector<part_t> distributed_multilevel(const Comm& comm, const Graph& g, const GraphOptions& opts,
                                           const GraphTotals& totals, FinestNumbering* keep = nullptr);
std::vector<part_t> geometric_refine(const Comm& comm, const Graph& g, const GraphOptions& opts,
                                     const GraphTotals& totals, FinestNumbering* keep = nullptr);

}  // namespace hpart::graph
