#pragma once
// The node-cut strategies of partition_grid_hierarchical (grid_hierarchy.cpp dispatches), and
// the rank level they share.
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/log.hpp"
#include "grid/grid_input.hpp"
#include "grid/grid_locator.hpp"
#include "metrics/partition_metrics.hpp"
#include "hpart/hierarchy.hpp"

namespace hpart::hier {

// Parts per node in proportion to its ranks (cumulative rounding), at least one each.
std::vector<int> parts_per_node(const Topology& t, int K);
// "" or why a hierarchy of K parts cannot be built on this topology and communicator (parts,
// a node_of_rank entry per rank, in [0, nodes), every node with a rank, K >= nodes, memory).
std::string check_levels(const Comm& comm, const Topology& topology, int K);
// What every rank must pass alike: K and the topology.
void replicate_levels(detail::Replicated& args, const Topology& topology, int K);
// Parts numbered node by node: node i's per_node[i] parts go to its ranks in blocks. Returns the
// owner of every part and fills node_of_part.
std::vector<int> owners_by_node(const Topology& topology, const std::vector<int>& per_node, std::vector<int>& node_of_part);

// The result of a point or graph hierarchy: the final parts (numbered node by node) summarised
// with the objects' weights (a span of doubles, or a graph's IntSpan; ncon per object), each
// part's node and owner, and the call's seconds (max over ranks).
template <class Weights>
HierPartition levels_result(const Comm& comm, const Topology& topology, const std::vector<int>& per_node,
                            std::vector<part_t> parts, int K, Weights weights, int ncon,
                            const detail::Stopwatch& clock) {
  HierPartition out;
  out.owner_of_part = owners_by_node(topology, per_node, out.node_of_part);
  static_cast<Partition&>(out) = detail::summarise_partition(comm, std::move(parts), K, weights, ncon, {});
  out.metrics.seconds = detail::seconds_max(comm, clock);
  return out;
}

HierGridPartition staircase_partition(const Comm& comm, const Grid& grid, const Topology& topology,
                                      const std::vector<int>& per_node, double imbalance);

HierGridPartition graph_partition(const Comm& comm, const Grid& grid, const Topology& topology,
                                  const std::vector<int>& per_node, double imbalance);

// The rank level after a node cut: node i's cells (node_of_cell, per local cell) split along the
// Hilbert curve into per_node[i] parts; the locator asks `nodes` for any cell's node first.
HierGridPartition split_nodes_by_curve(const Comm& comm, const grid::GridInput& in, const Grid& grid,
                                       const Topology& topology, const std::vector<int>& per_node,
                                       const std::vector<part_t>& node_of_cell, double imbalance,
                                       std::shared_ptr<const detail::GridLocator> nodes);

}  // namespace hpart::hier
