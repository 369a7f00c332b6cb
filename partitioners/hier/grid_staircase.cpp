// Hierarchical grid partitioning with staircase node cuts: the node level orders the cells
// slab-major across the longest side (that side slowest, then the others row-major) and cuts that
// order at exact weight shares with the distributed splitter search, so a node boundary is a plane
// with at most a one-layer step; the rank level splits each node's cells along the Hilbert curve.
// Both levels are curve splits, so the locator is two splitter lookups.
#include <algorithm>
#include <bit>
#include <numeric>
#include <memory>

#include "core/partition_metrics.hpp"
#include "core/validate.hpp"
#include "grid/grid_methods.hpp"
#include "hier/grid_levels.hpp"
#include "sfc/splitter_search.hpp"

namespace hpart::hier {
namespace {

// Slab-major cell order across dimension d, left-aligned in the key's top bits.
struct SlabKeys {
  int dim = 2, d = 0, a = 1, b = 2;
  std::int64_t ea = 1, eb = 1;
  int shift = 0;
  static SlabKeys for_grid(const Grid& g) {
    SlabKeys k;
    k.dim = g.dim;
    for (int e = 1; e < g.dim; ++e)
      if (g.extent[static_cast<std::size_t>(e)] >= g.extent[static_cast<std::size_t>(k.d)]) k.d = e;
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
  [[nodiscard]] std::uint64_t key(const Cell& c) const {
    const std::int64_t cb = dim == 3 ? c[static_cast<std::size_t>(b)] : 0;
    const auto index = static_cast<std::uint64_t>((c[static_cast<std::size_t>(d)] * eb + cb) * ea + c[static_cast<std::size_t>(a)]);
    return index << shift;
  }
};

struct StairLocator final : detail::GridLocator {
  SlabKeys slabs;
  std::vector<sfc::Order> node_inner;
  grid::CellKeys curve;
  std::vector<std::vector<sfc::Order>> rank_inner;
  std::vector<part_t> first;
  [[nodiscard]] part_t part_of(const Cell& c) const override {
    const sfc::Order s = sfc::make_order(slabs.key(c), 0);
    const auto n = static_cast<std::size_t>(std::upper_bound(node_inner.begin(), node_inner.end(), s) - node_inner.begin());
    const sfc::Order v = sfc::make_order(curve.key(c), 0);
    const auto& in = rank_inner[n];
    return first[n] + static_cast<part_t>(std::upper_bound(in.begin(), in.end(), v) - in.begin());
  }
};

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
  const int K = check.parts;
  auto locator = std::make_shared<StairLocator>();
  locator->slabs = SlabKeys::for_grid(grid);
  locator->curve = grid::CellKeys::for_grid(grid, Method::hilbert);

  // Node level: slab-major keys of every local cell.
  const std::size_t n = in.local.size();
  std::vector<std::uint64_t> keys(n);
  grid::for_each_row(in.local, in.local.box, [&](std::size_t index, std::int64_t x0, std::int64_t y, std::int64_t z,
                                                 std::int64_t count) {
    for (std::int64_t k = 0; k < count; ++k) keys[index + static_cast<std::size_t>(k)] = locator->slabs.key({x0 + k, y, z, 0});
  });
  std::vector<part_t> node_of_cell;
  const std::vector<double> shares(per_node.begin(), per_node.end());
  locator->node_inner = split(comm, in, keys, in.unit_cost ? std::span<const double>() : grid.cost, shares, imbalance,
                              node_of_cell);

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
    const std::vector<int> ranks = topology.ranks_of(i);
    for (int j = 0; j < ki; ++j) {
      out.node_of_part.push_back(i);
      out.owner_of_part.push_back(
          ranks[static_cast<std::size_t>(static_cast<long long>(j) * static_cast<long long>(ranks.size()) / ki)]);
    }
    first += ki;
  }
  out.node_boxes = grid::part_bounding_boxes(comm, in, node_of_cell, topology.nodes);
  out.partition.boxes = grid::part_bounding_boxes(comm, in, parts, K);
  out.partition.box_shaped = false;
  out.partition.partition =
      detail::summarise_partition(comm, std::move(parts), K, in.unit_cost ? std::span<const double>() : grid.cost, 1, {});
  out.partition.locator = std::move(locator);
  return out;
}

}  // namespace hpart::hier
