#pragma once
// hpart's distributed graph partitioner: rank-local label-propagation coarsening until the graph
// is small, the coarsest graph gathered onto rank 0 and partitioned by the shared-memory
// multilevel kernel, then projection level by level with distributed size-constrained label
// propagation refinement and a balance repair. Also geometric+refine: a Hilbert partition of the
// vertex coordinates refined the same way.
#include <vector>

#include "hpart/graph.hpp"

namespace hpart::graph {

std::vector<part_t> distributed_multilevel(const Comm& comm, const Graph& g, const GraphOptions& opts);
std::vector<part_t> geometric_refine(const Comm& comm, const Graph& g, const GraphOptions& opts);

}  // namespace hpart::graph
