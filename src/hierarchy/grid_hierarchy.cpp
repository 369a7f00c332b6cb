// Hierarchical grid partitioning: node-level boxes first, then each node's box partitioned into
// that node's parts as a grid of its own (every rank takes part with the cells it holds inside
// the box), and a locator that composes the two levels.
#include <mpi.h>

#include <algorithm>
#include <memory>
#include <string>

#include "core/features.hpp"
#include "hpart/version.hpp"
#include "core/log.hpp"
#include "metrics/partition_metrics.hpp"
#include "core/validate.hpp"
#include "grid/grid_input.hpp"
#include "grid/grid_locator.hpp"
#include "hierarchy/grid_locators.hpp"
#include "hierarchy/grid_levels.hpp"
#include "hpart/hierarchy.hpp"

namespace hpart {
namespace {


}  // namespace

namespace hier {

// Parts per node in proportion to its ranks (cumulative rounding), at least one each.
std::vector<int> parts_per_node(const Topology& t, int K) {
  const auto R = static_cast<long long>(t.node_of_rank.size());
  std::vector<int> k(static_cast<std::size_t>(t.nodes));
  long long before = 0;
  for (int i = 0; i < t.nodes; ++i) {
    const long long upto = before + t.ranks_on(i);
    k[static_cast<std::size_t>(i)] = static_cast<int>(K * upto / R - K * before / R);
    before = upto;
  }
  // Nodes left without a part borrow one from the node with the most.
  for (int& ki : k)
    if (ki == 0) {
      ++ki;
      --*std::max_element(k.begin(), k.end());
    }
  return k;
}


std::string check_levels(const Comm& comm, const Topology& topology, int K) {
  const int R = comm.size();
  if (std::string p = detail::check_parts(K); !p.empty()) return p;
  if (static_cast<int>(topology.node_of_rank.size()) != R)
    return "the topology describes " + std::to_string(topology.node_of_rank.size()) + " ranks but the communicator has " +
           std::to_string(R);
  if (topology.nodes < 1 || topology.nodes > R)
    return "the topology has " + std::to_string(topology.nodes) + " nodes: it needs 1 to " + std::to_string(R) +
           " (one rank at least per node)";
  std::vector<int> ranks(static_cast<std::size_t>(topology.nodes), 0);
  for (std::size_t r = 0; r < topology.node_of_rank.size(); ++r) {
    const int node = topology.node_of_rank[r];
    if (node < 0 || node >= topology.nodes)
      return "the topology puts rank " + std::to_string(r) + " on node " + std::to_string(node) + ", outside [0, " +
             std::to_string(topology.nodes) + ")";
    ++ranks[static_cast<std::size_t>(node)];
  }
  for (int i = 0; i < topology.nodes; ++i)
    if (ranks[static_cast<std::size_t>(i)] == 0)
      return "node " + std::to_string(i) + " of the topology has no rank: number the nodes 0.." +
             std::to_string(topology.nodes - 1) + " without gaps";
  if (K < topology.nodes)
    return "parts (" + std::to_string(K) + ") must be at least the number of nodes (" + std::to_string(topology.nodes) + ")";
  // Part -> node and owner tables, node boxes, and the rank level's per-part tables.
  return detail::check_part_memory(K, 200.0, 0, 0.0);
}

void replicate_levels(detail::Replicated& args, const Topology& topology, int K) {
  args.value("parts", static_cast<long long>(K))
      .value("topology nodes", static_cast<long long>(topology.nodes))
      .values("topology node_of_rank", topology.node_of_rank);
}

std::vector<int> owners_by_node(const Topology& topology, const std::vector<int>& per_node, std::vector<int>& node_of_part) {
  std::vector<int> owner;
  node_of_part.clear();
  for (int i = 0; i < topology.nodes; ++i) {
    const std::vector<int> ranks = topology.ranks_of(i);
    const int ki = per_node[static_cast<std::size_t>(i)];
    for (int j = 0; j < ki; ++j) {
      node_of_part.push_back(i);
      owner.push_back(ranks[static_cast<std::size_t>(static_cast<long long>(j) * static_cast<long long>(ranks.size()) / ki)]);
    }
  }
  return owner;
}

}  // namespace hier

LevelVolumes level_volumes(const GridNeighbours& n, const std::vector<int>& node_of_part) {
  LevelVolumes v;
  for (std::size_t p = 0; p < n.of_part.size(); ++p)
    for (const PartNeighbour& q : n.of_part[p]) {
      v.total += q.halo_cells;
      (node_of_part[p] == node_of_part[static_cast<std::size_t>(q.part)] ? v.intranode : v.internode) += q.halo_cells;
    }
  return v;
}

namespace {

HierGridPartition hierarchical(const Comm& comm, const Grid& grid, const Topology& topology,
                               const HierGridOptions& opts) {
  const int K = opts.parts == 0 ? comm.size() : opts.parts;
  std::string problem = opts.parts < 0 ? "parts must be >= 0 (0: one per rank)" : hier::check_levels(comm, topology, K);
  if (problem.empty() && opts.node_cut == NodeCut::boxes && opts.node_method == GridMethod::sfc)
    problem = "the node level needs box-shaped parts: use blocks, tensor or uniform for node_method";
  detail::Replicated args;
  hier::replicate_levels(args, topology, K);
  args.value("node_cut", static_cast<long long>(opts.node_cut))
      .value("node_method", static_cast<long long>(opts.node_method))
      .value("rank_method", static_cast<long long>(opts.rank_method))
      .value("imbalance", opts.imbalance);
  grid::replicate_grid(args, grid);
  detail::agree(comm, args, problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);
  if (opts.node_cut == NodeCut::graph)  // METIS cuts the block graph into nodes (agreed option)
    detail::require_dependency(HPART_HAVE_METIS, "METIS", "the grid hierarchy's graph node cut (NodeCut::graph)");

  const std::vector<int> per_node = hier::parts_per_node(topology, K);
  if (opts.node_cut == NodeCut::staircase) return hier::staircase_partition(comm, grid, topology, per_node, opts.imbalance);
  if (opts.node_cut == NodeCut::graph) return hier::graph_partition(comm, grid, topology, per_node, opts.imbalance);
  const std::vector<double> node_share(per_node.begin(), per_node.end());
  GridOptions node_opts;
  node_opts.parts = topology.nodes;
  node_opts.method = opts.node_method;
  node_opts.target_sizes = node_share;
  const GridPartition nodes = partition_grid(comm, grid, node_opts);

  HierGridPartition out;
  out.node_boxes = nodes.boxes;
  auto locator = std::make_shared<hier::HierLocator>();
  locator->nodes = nodes.locator;
  locator->node_boxes = nodes.boxes;
  const Box local = grid.local.dim == 0 ? Box{} : grid.local;
  const grid::BoxCells cells(local);
  std::vector<part_t> parts(cells.size(), 0);
  std::vector<Box> boxes;
  bool box_shaped = nodes.box_shaped;
  part_t first = 0;
  for (int i = 0; i < topology.nodes; ++i) {
    const Box& nb = nodes.boxes[static_cast<std::size_t>(i)];
    if (nb.empty()) {
      // More nodes than the grid has cell layers: this node holds nothing (the same on every
      // rank: the node boxes are), so its parts are empty and no cell's locator reaches it.
      Box none{grid.dim, {}, {}};  // empty the way every grid method writes it: hi = lo - 1
      for (int d = 0; d < grid.dim; ++d) none.hi[static_cast<std::size_t>(d)] = -1;
      boxes.insert(boxes.end(), static_cast<std::size_t>(per_node[static_cast<std::size_t>(i)]), none);
      locator->inner.push_back(nullptr);
      locator->first.push_back(first);
      first += per_node[static_cast<std::size_t>(i)];
      continue;
    }
    // Node i's box as a grid of its own: each rank's cells inside it, shifted to its origin.
    const Box mine = local.empty() ? Box{} : local.intersect(nb);
    Grid sub;
    sub.dim = grid.dim;
    for (int d = 0; d < grid.dim; ++d) sub.extent[static_cast<std::size_t>(d)] = std::max<std::int64_t>(nb.size(d), 1);
    std::vector<double> cost;
    if (!mine.empty()) {
      sub.local = mine;
      for (int d = 0; d < grid.dim; ++d) {
        sub.local.lo[static_cast<std::size_t>(d)] -= nb.lo[static_cast<std::size_t>(d)];
        sub.local.hi[static_cast<std::size_t>(d)] -= nb.lo[static_cast<std::size_t>(d)];
      }
      if (!grid.cost.empty())
        grid::for_each_row(cells, mine, [&](std::size_t index, std::int64_t, std::int64_t, std::int64_t, std::int64_t n) {
          cost.insert(cost.end(), grid.cost.begin() + static_cast<std::ptrdiff_t>(index),
                      grid.cost.begin() + static_cast<std::ptrdiff_t>(index) + n);
        });
    }
    sub.cost = cost;
    GridOptions rank_opts;
    rank_opts.parts = per_node[static_cast<std::size_t>(i)];
    rank_opts.method = opts.rank_method;
    rank_opts.imbalance = opts.imbalance;
    const GridPartition inner = partition_grid(comm, sub, rank_opts);
    // Back into the local cells, row by row in the same order.
    std::size_t k = 0;
    grid::for_each_row(cells, mine, [&](std::size_t index, std::int64_t, std::int64_t, std::int64_t, std::int64_t n) {
      for (std::int64_t j = 0; j < n; ++j) parts[index + static_cast<std::size_t>(j)] = first + inner.parts[k++];
    });
    for (Box b : inner.boxes) {
      if (!b.empty())
        for (int d = 0; d < b.dim; ++d) {
          b.lo[static_cast<std::size_t>(d)] += nb.lo[static_cast<std::size_t>(d)];
          b.hi[static_cast<std::size_t>(d)] += nb.lo[static_cast<std::size_t>(d)];
        }
      boxes.push_back(b);
    }
    box_shaped = box_shaped && inner.box_shaped;
    locator->inner.push_back(inner.locator);
    locator->first.push_back(first);
    first += rank_opts.parts;
  }
  out.owner_of_part = hier::owners_by_node(topology, per_node, out.node_of_part);
  static_cast<Partition&>(out) = detail::summarise_partition(comm, std::move(parts), K, grid.cost, 1, {});
  out.boxes = std::move(boxes);
  out.box_shaped = box_shaped;
  out.locator = std::move(locator);
  return out;
}

}  // namespace

HierGridOptions HierGridOptions::preset(Preset p, int parts) {
  HierGridOptions o;
  o.parts = parts;
  if (p == Preset::fast) o.node_cut = NodeCut::boxes;  // blocks, then sfc: the defaults of those fields
  return o;
}

HierGridPartition partition_grid_hierarchical(const Comm& comm, const Grid& grid, const Topology& topology,
                                              const HierGridOptions& opts) {
  const detail::Stopwatch clock;
  HierGridPartition out = hierarchical(comm, grid, topology, opts);
  const double seconds = detail::seconds_max(comm, clock);
  out.metrics.seconds = seconds;
  return out;
}

}  // namespace hpart
