#pragma once
// The locators of hierarchical grid partitions: a node level, then each node's parts. In a
// header, not in the .cpp files that build them, so that a PartitionMap (src/assign) can save
// and load them.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "grid/grid_locator.hpp"
#include "points/curve_objects.hpp"

namespace hpart::hier {

// NodeCut::boxes: a box method's locator for the nodes, then per node a locator of the node box's
// cells, relative to the box's corner (null: a node without cells, which no cell reaches).
struct HierLocator final : detail::GridLocator {
  std::shared_ptr<const detail::GridLocator> nodes;
  std::vector<Box> node_boxes;
  std::vector<std::shared_ptr<const detail::GridLocator>> inner;
  std::vector<part_t> first;
  [[nodiscard]] part_t part_of(const Cell& c) const override {
    const auto n = static_cast<std::size_t>(nodes->part_of(c));
    Cell s = c;
    for (int d = 0; d < node_boxes[n].dim; ++d) s[static_cast<std::size_t>(d)] -= node_boxes[n].lo[static_cast<std::size_t>(d)];
    return inner[n] ? first[n] + inner[n]->part_of(s) : first[n];
  }
};

// Slab-major cell order across dimension d (the other axes row-major), left-aligned in the key's
// top bits: the order the staircase node cut splits.
struct SlabKeys {
  int dim = 2, d = 0, a = 1, b = 2;
  std::int64_t ea = 1, eb = 1;
  int shift = 0;
  static SlabKeys along(const Grid& g, int d);
  [[nodiscard]] std::uint64_t key(const Cell& c) const {
    const std::int64_t cb = dim == 3 ? c[static_cast<std::size_t>(b)] : 0;
    const auto index = static_cast<std::uint64_t>((c[static_cast<std::size_t>(d)] * eb + cb) * ea + c[static_cast<std::size_t>(a)]);
    return index << shift;
  }
};

// A bisection node: cells with slab key (across keys.d) below `split` go to `lower`.
struct StairNode {
  SlabKeys keys;
  sfc::Order split = 0;
  int lower = -1, upper = -1;
  int node = 0;  // leaves: the node (machine) index
};

// NodeCut::staircase: the bisection tree of slab-order cuts; part_of answers the cell's node.
struct StairLocator final : detail::GridLocator {
  std::vector<StairNode> tree;  // tree[0] is the root; children come after their parent
  [[nodiscard]] part_t part_of(const Cell& c) const override {
    int t = 0;
    while (tree[static_cast<std::size_t>(t)].lower >= 0) {
      const StairNode& sn = tree[static_cast<std::size_t>(t)];
      t = sfc::make_order(sn.keys.key(c), 0) >= sn.split ? sn.upper : sn.lower;
    }
    return tree[static_cast<std::size_t>(t)].node;
  }
};

// NodeCut::graph: blocks of b^dim cells (x fastest), each given to a node; part_of answers the
// cell's node.
struct BlockLocator final : detail::GridLocator {
  int dim = 2;
  std::int64_t b = 1;
  std::array<std::int64_t, 3> n{1, 1, 1};  // blocks per dimension
  std::vector<int> node;                   // node of every block
  [[nodiscard]] std::int64_t count() const { return n[0] * n[1] * n[2]; }
  [[nodiscard]] std::int64_t index(std::int64_t x, std::int64_t y, std::int64_t z) const {
    return x / b + n[0] * (y / b + n[1] * (z / b));
  }
  [[nodiscard]] part_t part_of(const Cell& c) const override {
    return node[static_cast<std::size_t>(index(c[0], c[1], c[2]))];
  }
};

// A node locator (stairs or blocks), then each node's cells along the Hilbert curve.
struct NodeCurveLocator final : detail::GridLocator {
  std::shared_ptr<const detail::GridLocator> nodes;
  grid::CellKeys curve;
  std::vector<std::vector<sfc::Order>> rank_inner;  // per node: its interior splitters
  std::vector<part_t> first;                        // per node: its first part
  [[nodiscard]] part_t part_of(const Cell& c) const override {
    const auto n = static_cast<std::size_t>(nodes->part_of(c));
    const sfc::Order v = sfc::make_order(curve.key(c), 0);
    const auto& in = rank_inner[n];
    return first[n] + static_cast<part_t>(std::upper_bound(in.begin(), in.end(), v) - in.begin());
  }
};

}  // namespace hpart::hier
