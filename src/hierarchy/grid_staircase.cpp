// Hierarchical grid partitioning with staircase node cuts. The node level is a recursive
// bisection of the cells whose every cut is exact: the region's cells are ordered slab-major
// across the longest side of its bounding box (that side slowest, the others row-major) and the
// order is cut at the exact weight share with the distributed splitter search, so each boundary
// is a plane with at most a one-layer step. Bisection rather than parallel slabs: 3 nodes of a
// cube then share 1 + 2/3 faces instead of 2. The rank level splits each node's cells along the
// Hilbert curve. The locator walks the bisection tree, then one splitter lookup.
#include <algorithm>
#include <functional>
#include <bit>
#include <limits>
#include <numeric>
#include <memory>

#include <mpi.h>

#include "metrics/partition_metrics.hpp"
#include "core/validate.hpp"
#include "grid/grid_methods.hpp"
#include "hierarchy/grid_levels.hpp"
#include "hierarchy/grid_locators.hpp"
#include "points/splitter_search.hpp"

namespace hpart::hier {

SlabKeys SlabKeys::along(const Grid& g, int d) {
  SlabKeys k;
  k.dim = g.dim;
  k.d = d;
  int others[2] = {0, 0}, n = 0;
  for (int e = 0; e < g.dim; ++e)
    if (e != k.d) others[n++] = e;
  k.a = others[0];
  k.b = g.dim == 3 ? others[1] : k.d;
  k.ea = g.extent[static_cast<std::size_t>(k.a)];
  k.eb = g.dim == 3 ? g.extent[static_cast<std::size_t>(k.b)] : 1;
  const auto total = static_cast<std::uint64_t>(g.domain().volume());
  k.shift = 64 - std::max(1, static_cast<int>(std::bit_width(total - 1)));
  return k;
}

namespace {

// Curve split of `keys` (distinct) with `weights` (empty: unit) into targets.size() parts.
std::vector<sfc::Order> split(const Comm& comm, const grid::GridInput& in, std::span<const std::uint64_t> keys,
                              std::span<const double> weights, const std::vector<double>& targets, double imbalance,
                              std::vector<part_t>& parts) {
  sfc::CurveObjects objects;
  objects.keys = keys;
  if (!in.unit_cost) {
    objects.weights = weights;
    objects.set_weight_exponent(in.exponent);
  }
  sfc::SplitterSearchOptions search;
  search.parts = static_cast<int>(targets.size());
  search.targets = detail::normalised_targets(targets, search.parts);
  search.imbalance = imbalance;
  const std::vector<sfc::Order> splitters = sfc::find_splitters(comm, objects, search);
  parts.resize(keys.size());
  sfc::assign_parts(objects, splitters, search.first_bits, parts);
  return std::vector<sfc::Order>(splitters.begin() + 1, splitters.end() - 1);
}

}  // namespace

HierGridPartition staircase_partition(const Comm& comm, const Grid& grid, const Topology& topology,
                                      const std::vector<int>& per_node, double imbalance) {
  GridOptions check;
  check.parts = static_cast<int>(std::accumulate(per_node.begin(), per_node.end(), 0));
  const grid::GridInput in = grid::prepare_grid(comm, grid, check);
  auto stairs = std::make_shared<StairLocator>();
  const std::size_t n = in.local.size();
  std::vector<part_t> node_of_cell(n, 0);

  // Node level: recursive exact bisection (every rank takes part in every step, in one order).
  struct Pending {
    std::vector<std::size_t> cells;  // local cell indices in this region
    int first, count, tree;
  };
  stairs->tree.push_back(StairNode{});
  std::vector<Pending> work;
  {
    Pending root{{}, 0, topology.nodes, 0};
    root.cells.resize(n);
    std::iota(root.cells.begin(), root.cells.end(), std::size_t{0});
    work.push_back(std::move(root));
  }
  while (!work.empty()) {
    Pending w = std::move(work.back());
    work.pop_back();
    StairNode& tn = stairs->tree[static_cast<std::size_t>(w.tree)];
    if (w.count == 1) {
      tn.node = w.first;
      for (std::size_t c : w.cells) node_of_cell[c] = w.first;
      continue;
    }
    // The region's global bounding box picks the cut direction.
    std::int64_t box[6];
    for (int a = 0; a < 3; ++a) box[a] = std::numeric_limits<std::int64_t>::max(), box[3 + a] = box[a];
    for (std::size_t c : w.cells) {
      const Cell cell = in.local.cell(c);
      for (int a = 0; a < grid.dim; ++a) {
        box[a] = std::min(box[a], cell[static_cast<std::size_t>(a)]);
        box[3 + a] = std::min(box[3 + a], -cell[static_cast<std::size_t>(a)]);
      }
    }
    MPI_Allreduce(MPI_IN_PLACE, box, 6, MPI_INT64_T, MPI_MIN, comm.get());
    int d = 0;
    for (int a = 1; a < grid.dim; ++a)
      if (-box[3 + a] - box[a] > -box[3 + d] - box[d]) d = a;
    const SlabKeys keys = SlabKeys::along(grid, d);
    std::vector<std::uint64_t> k(w.cells.size());
    std::vector<double> cost(in.unit_cost ? 0 : w.cells.size());
    for (std::size_t j = 0; j < w.cells.size(); ++j) {
      k[j] = keys.key(in.local.cell(w.cells[j]));
      if (!in.unit_cost) cost[j] = grid.cost[w.cells[j]];
    }
    const int k1 = w.count / 2;
    const double lower = std::accumulate(per_node.begin() + w.first, per_node.begin() + w.first + k1, 0.0);
    const double upper = std::accumulate(per_node.begin() + w.first + k1, per_node.begin() + w.first + w.count, 0.0);
    std::vector<part_t> side;
    const std::vector<sfc::Order> inner = split(comm, in, k, cost, {lower, upper}, imbalance, side);
    Pending lo{{}, w.first, k1, static_cast<int>(stairs->tree.size())};
    Pending hi{{}, w.first + k1, w.count - k1, lo.tree + 1};
    for (std::size_t j = 0; j < w.cells.size(); ++j) (side[j] == 0 ? lo : hi).cells.push_back(w.cells[j]);
    StairNode filled;
    filled.keys = keys;
    filled.split = inner.front();
    filled.lower = lo.tree;
    filled.upper = hi.tree;
    stairs->tree[static_cast<std::size_t>(w.tree)] = filled;
    stairs->tree.push_back(StairNode{});
    stairs->tree.push_back(StairNode{});
    work.push_back(std::move(hi));
    work.push_back(std::move(lo));
  }

  return split_nodes_by_curve(comm, in, grid, topology, per_node, node_of_cell, imbalance, stairs);
}

HierGridPartition split_nodes_by_curve(const Comm& comm, const grid::GridInput& in, const Grid& grid,
                                       const Topology& topology, const std::vector<int>& per_node,
                                       const std::vector<part_t>& node_of_cell, double imbalance,
                                       std::shared_ptr<const detail::GridLocator> nodes) {
  const int K = std::accumulate(per_node.begin(), per_node.end(), 0);
  const std::size_t n = in.local.size();
  auto locator = std::make_shared<NodeCurveLocator>();
  locator->nodes = std::move(nodes);
  locator->curve = grid::CellKeys::for_grid(grid, Curve::hilbert);
  // Rank level: each node's cells along the Hilbert curve.
  std::vector<part_t> parts(n, 0);
  part_t first = 0;
  HierGridPartition out;
  for (int i = 0; i < topology.nodes; ++i) {
    std::vector<std::size_t> mine;
    for (std::size_t c = 0; c < n; ++c)
      if (node_of_cell[c] == i) mine.push_back(c);
    std::vector<std::uint64_t> sub_keys(mine.size());
    std::vector<double> sub_cost(in.unit_cost ? 0 : mine.size());
    for (std::size_t k = 0; k < mine.size(); ++k) {
      sub_keys[k] = locator->curve.key(in.local.cell(mine[k]));
      if (!in.unit_cost) sub_cost[k] = grid.cost[mine[k]];
    }
    const int ki = per_node[static_cast<std::size_t>(i)];
    std::vector<part_t> sub_parts;
    locator->rank_inner.push_back(split(comm, in, sub_keys, sub_cost, std::vector<double>(static_cast<std::size_t>(ki), 1.0),
                                        imbalance, sub_parts));
    for (std::size_t k = 0; k < mine.size(); ++k) parts[mine[k]] = first + sub_parts[k];
    locator->first.push_back(first);
    first += ki;
  }
  out.owner_of_part = owners_by_node(topology, per_node, out.node_of_part);
  out.node_boxes = grid::part_bounding_boxes(comm, in, node_of_cell, topology.nodes);
  out.boxes = grid::part_bounding_boxes(comm, in, parts, K);
  out.box_shaped = false;
  static_cast<Partition&>(out) =
      detail::summarise_partition(comm, std::move(parts), K, in.unit_cost ? std::span<const double>() : grid.cost, 1, {});
  out.locator = std::move(locator);
  return out;
}

}  // namespace hpart::hier
