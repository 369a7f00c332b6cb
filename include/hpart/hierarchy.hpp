#pragma once
// Hierarchical partitioning: split the work among nodes first, then among the ranks of each
// node, with a method per level. Cuts between nodes are what crosses the network, so the node
// level minimises them (a graph cut of the coarsened grid by default; planes or boxes on request)
// and the rank level balances exactly.
#include <span>
#include <vector>

#include "hpart/graph.hpp"
#include "hpart/grid.hpp"
#include "hpart/partition.hpp"
#include "hpart/point_set.hpp"
#include "hpart/points.hpp"
#include "hpart/topology.hpp"

namespace hpart {

enum class NodeCut {
  // Slabs across the longest side, ordered slab-major and cut at exact weights: each cut between
  // nodes is one plane plus a one-layer step, so nodes balance to a cell while the traffic between
  // them stays that of a plane. The rank level is then a Hilbert-curve split of each node's cells.
  staircase,
  // Box-shaped node parts from node_method (blocks, tensor, uniform): balanced only to a cell
  // layer, and the rank level may be any grid method.
  boxes,
  // A graph partition (METIS) of the grid coarsened to at most 2^15 blocks, edges weighted by
  // the cell faces between blocks: node regions follow the cost, so a hotspot is carved among
  // the nodes over its small cross-section instead of whole planes. Balanced to a block of cells
  // (imbalance, at least 0.3%); the rank level splits each node's cells along the Hilbert curve.
  // The default: the least inter-node traffic of the three on every case measured.
  graph,
};

struct HierGridOptions {
  int parts = 0;  // total parts; 0 = one per rank
  NodeCut node_cut = NodeCut::graph;
  GridMethod node_method = GridMethod::blocks;  // NodeCut::boxes: must be blocks, tensor or uniform
  GridMethod rank_method = GridMethod::sfc;     // NodeCut::boxes: the rank-level method
  double imbalance = 0.001;  // sfc levels: splitter tolerance

  // fast: box-shaped nodes (blocks), then Hilbert ranges of each node's cells, no METIS node cut;
  // standard and strong: the defaults (the graph node cut: the least traffic between nodes).
  static HierGridOptions preset(Preset p, int parts);
};

// The final grid partition (part_of works for any cell), plus the levels:
struct HierGridPartition : GridPartition {
  std::vector<int> node_of_part;    // node of every part (parts are numbered node by node)
  std::vector<int> owner_of_part;   // rank of every part: node n's parts go to n's ranks in blocks
  std::vector<Box> node_boxes;      // the node-level boxes (staircase: their bounding boxes)
};

// Collective. Node i receives parts in proportion to its ranks (its share of the total parts).
// The topology (a node per rank, every node with a rank, parts >= nodes), the options and the
// grid's shape are checked and compared across ranks first: the same hpart::Error on every rank.
// A node with no cells (more nodes than cell layers) gets empty parts.
HierGridPartition partition_grid_hierarchical(const Comm& comm, const Grid& grid, const Topology& topology,
                                              const HierGridOptions& opts);

// Point sets: the node level cuts the points into the nodes' shares along node_curve, then the
// rank level cuts each node's points along rank_curve. Both levels balance to
// the splitter tolerance. With the same curve at both levels the parts are those of a flat curve
// partition with node-proportional part counts (curve ranges nest), so the hierarchy's value for
// points is the grouping and ownership by node, a curve per level, and uneven nodes; a node
// level that follows the point density as the grids' graph cut does is not built yet.
struct HierPointOptions {
  int parts = 0;  // total parts; 0 = one per rank
  Curve node_curve = Curve::hilbert;  // cuts the points into the nodes' shares
  Curve rank_curve = Curve::hilbert;  // cuts each node's points into its parts
  double imbalance = 0.001;           // splitter tolerance of both levels

  // As PointOptions::preset, at both levels.
  static HierPointOptions preset(Preset p, int parts);
};

// The Partition of the local objects (parts numbered node by node), plus the levels:
struct HierPartition : Partition {
  std::vector<int> node_of_part;   // node of every part
  std::vector<int> owner_of_part;  // rank of every part, on its node: pass to Migration
};

// Collective; validates the points and options like partition_points() and the topology like the grid
// hierarchy, with the same hpart::Error on every rank.
HierPartition partition_points_hierarchical(const Comm& comm, const PointSet& points, const Topology& topology,
                                            const HierPointOptions& opts);

// Graphs: the node level partitions the graph into the nodes' shares (node_method), then each
// node's induced subgraph is partitioned into its parts (rank_method), all ranks taking part with
// the vertices they hold. The tolerance is split between the levels so that the final parts meet
// `imbalance`.
struct HierGraphOptions {
  int parts = 0;  // total parts; 0 = one per rank
  GraphMethod node_method = GraphMethod::graph;  // graph, metis or geometric_refine
  GraphMethod rank_method = GraphMethod::graph;  // each node's induced subgraph
  double imbalance = 0.03;  // of the final parts, every constraint (sqrt(1 + imbalance) - 1 a level)
  int seed = 1;             // both levels' (GraphOptions::seed)
  GraphEffort effort;       // both levels' graph method's work for its cut (GraphOptions::effort)

  // The effort of GraphOptions::preset at both levels (the methods stay graph).
  static HierGraphOptions preset(Preset p, int parts);
};

// Collective; validates like partition_graph and the topology like the other hierarchies; the
// options are compared across ranks, and the final imbalance is reported against `imbalance`
// (PartitionMetrics::within_tolerance).
HierPartition partition_graph_hierarchical(const Comm& comm, const Graph& g, const Topology& topology,
                                           const HierGraphOptions& opts);

// Thread level (pure, no MPI): split a rank's objects, in the order given (e.g. its cells in row
// order or its points in curve order after migration), into `threads` contiguous chunks of
// bottleneck-optimal weight, one per OpenMP thread. weights: one per object, or empty with n
// objects of unit weight. Returns the chunk of each object; no chunk is empty when n >= threads.
std::vector<int> thread_chunks(std::span<const double> weights, std::size_t n, int threads);

// Halo volume split by level for a part -> node map: what crosses nodes and what stays inside.
struct LevelVolumes {
  std::int64_t total = 0, internode = 0, intranode = 0;
};
LevelVolumes level_volumes(const GridNeighbours& n, const std::vector<int>& node_of_part);

}  // namespace hpart
