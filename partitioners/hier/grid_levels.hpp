#pragma once
// The node-cut strategies of partition_grid_hierarchical (grid_hierarchy.cpp dispatches).
#include <vector>

#include "hpart/hierarchy.hpp"

namespace hpart::hier {

HierGridPartition staircase_partition(const Comm& comm, const Grid& grid, const Topology& topology,
                                      const std::vector<int>& per_node, double imbalance);

}  // namespace hpart::hier
