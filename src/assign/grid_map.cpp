// Grid maps: cell queries and boxes over the partition's locator (the locators' saved form is
// locator_text.cpp).
#include "assign/grid_map.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "assign/curve_box.hpp"
#include "hierarchy/grid_locators.hpp"

namespace hpart::detail {
namespace {

std::int64_t clamp_cell(std::int64_t c, std::int64_t extent) { return std::clamp<std::int64_t>(c, 0, extent - 1); }

std::int64_t floor_cell(double x, std::int64_t extent) {
  const double f = std::floor(x);
  if (f <= 0.0) return 0;
  if (f >= static_cast<double>(extent - 1)) return extent - 1;
  return static_cast<std::int64_t>(f);
}

// Marks part `p` of a locator whose parts start at `first` (a hierarchy's node).
struct Marks {
  std::vector<char>& parts;
  part_t first = 0;
  void operator()(part_t p) const {
    // A part outside the table can only come from a locator loaded from crafted text whose node
    // boxes disagree with its node level: never written outside the table.
    const auto i = static_cast<std::size_t>(first + p);
    if (i < parts.size()) parts[i] = 1;
  }
};

void tree_box(const grid::TreeLocator& t, int n, const Box& b, const Marks& mark) {
  const grid::CutNode& node = t.nodes[static_cast<std::size_t>(n)];
  if (node.lower < 0) return mark(node.first);
  const auto a = static_cast<std::size_t>(node.dim);
  if (b.lo[a] < node.cut) tree_box(t, node.lower, b, mark);
  if (b.hi[a] >= node.cut) tree_box(t, node.upper, b, mark);
}

void tensor_box(const grid::TensorLocator& t, const std::array<std::int64_t, 3>& extent, const Box& b, const Marks& mark) {
  // Per axis the blocks the box meets; an empty block (two equal starts) holds no cell.
  std::array<std::vector<part_t>, 3> blocks;
  for (int a = 0; a < t.dim; ++a) {
    const auto& s = t.starts[static_cast<std::size_t>(a)];
    const auto ua = static_cast<std::size_t>(a);
    for (std::size_t i = 0; i < s.size(); ++i) {
      const std::int64_t end = i + 1 < s.size() ? s[i + 1] : extent[ua];
      if (s[i] < end && s[i] <= b.hi[ua] && end > b.lo[ua]) blocks[ua].push_back(static_cast<part_t>(i));
    }
  }
  const part_t px = static_cast<part_t>(t.starts[0].size());
  const part_t py = t.dim > 1 ? static_cast<part_t>(t.starts[1].size()) : 1;
  if (t.dim < 3) blocks[2] = {0};
  if (t.dim < 2) blocks[1] = {0};
  for (part_t k : blocks[2])
    for (part_t j : blocks[1])
      for (part_t i : blocks[0]) mark(i + px * (j + py * k));
}

void curve_box(const grid::CurveLocator& c, const Box& b, const Marks& mark) {
  const grid::CellKeys& ck = c.keys;
  const int key_bits = ck.dim == 2 ? 64 : 63;
  const int zero_bits = key_bits - ck.dim * ck.levels;  // left-aligned coarse keys
  CellIndex lo{0, 0, 0}, hi{0, 0, 0};
  for (int a = 0; a < ck.dim; ++a) {
    lo[static_cast<std::size_t>(a)] = static_cast<std::uint32_t>(b.lo[static_cast<std::size_t>(a)]);
    hi[static_cast<std::size_t>(a)] = static_cast<std::uint32_t>(b.hi[static_cast<std::size_t>(a)]);
  }
  const auto key = [&ck](const CellIndex& x) { return ck.key({x[0], x[1], x[2], 0}); };
  const auto mask = [&ck, zero_bits](int s) { return cube_mask(ck.dim, s + ck.shift, zero_bits); };
  const auto ranges = [&c](std::uint64_t kmin, std::uint64_t kmax, int* r0, int* r1) {
    // CurveLocator: part = number of interior splitters <= (key, 0).
    *r0 = static_cast<int>(std::upper_bound(c.inner.begin(), c.inner.end(), sfc::make_order(kmin, 0)) - c.inner.begin());
    *r1 = static_cast<int>(std::upper_bound(c.inner.begin(), c.inner.end(), sfc::make_order(kmax, 0)) - c.inner.begin());
  };
  const auto marks = [&mark](int r0, int r1) {
    for (int r = r0; r <= r1; ++r) mark(r);
  };
  descend_box(ck.dim, ck.levels - ck.shift, CellIndex{0, 0, 0}, lo, hi, key, mask, ranges, marks, ck.shift > 0);
}

// The parts of `l` (parts numbered from mark.first) with a cell in b, b within the locator's grid
// [0, extent).
void locator_box(const GridLocator* l, int dim, const std::array<std::int64_t, 3>& extent, const Box& b, const Marks& mark) {
  if (const auto* t = dynamic_cast<const grid::TreeLocator*>(l)) return tree_box(*t, 0, b, mark);
  if (const auto* t = dynamic_cast<const grid::TensorLocator*>(l)) return tensor_box(*t, extent, b, mark);
  if (const auto* c = dynamic_cast<const grid::CurveLocator*>(l)) return curve_box(*c, b, mark);
  if (const auto* h = dynamic_cast<const hier::HierLocator*>(l)) {
    // Box-shaped nodes: each node the box meets, the box cut to it, in the node's own cells.
    std::vector<char> nodes(h->node_boxes.size(), 0);
    locator_box(h->nodes.get(), dim, extent, b, Marks{nodes});
    for (std::size_t n = 0; n < nodes.size(); ++n) {
      if (!nodes[n]) continue;
      if (!h->inner[n]) {
        mark(h->first[n]);  // as HierLocator::part_of answers for a node without a locator
        continue;
      }
      const Box& nb = h->node_boxes[n];
      Box in = Box::none(dim);
      std::array<std::int64_t, 3> inner_extent{1, 1, 1};
      for (int a = 0; a < dim; ++a) {
        const auto ua = static_cast<std::size_t>(a);
        in.lo[ua] = std::max(b.lo[ua], nb.lo[ua]) - nb.lo[ua];
        in.hi[ua] = std::min(b.hi[ua], nb.hi[ua]) - nb.lo[ua];
        inner_extent[ua] = nb.size(a);
      }
      if (!in.empty()) locator_box(h->inner[n].get(), dim, inner_extent, in, Marks{mark.parts, mark.first + h->first[n]});
    }
    return;
  }
  // Any other locator (a node cut that is not box-shaped, then curves): its cells one by one
  // (exact; the cost is the box's volume).
  for (std::int64_t z = b.lo[2]; z <= (dim == 3 ? b.hi[2] : b.lo[2]); ++z)
    for (std::int64_t y = b.lo[1]; y <= b.hi[1]; ++y)
      for (std::int64_t x = b.lo[0]; x <= b.hi[0]; ++x) mark(l->part_of({x, y, z, 0}));
}

}  // namespace

part_t grid_part_of_cell(const MapData& d, const Cell& cell) {
  if (!d.locator) return 0;
  Cell c{};
  for (int a = 0; a < d.dim; ++a)
    c[static_cast<std::size_t>(a)] = clamp_cell(cell[static_cast<std::size_t>(a)], d.extent[static_cast<std::size_t>(a)]);
  return d.locator->part_of(c);
}

part_t grid_part_of(const MapData& d, const double* x) {
  Cell c{};
  for (int a = 0; a < d.dim; ++a) c[static_cast<std::size_t>(a)] = floor_cell(x[a], d.extent[static_cast<std::size_t>(a)]);
  return d.locator ? d.locator->part_of(c) : 0;
}

Box grid_cell_box(const MapData& d, const double* lo, const double* hi) {
  Box b = Box::none(d.dim);
  for (int a = 0; a < d.dim; ++a) {
    const auto ua = static_cast<std::size_t>(a);
    b.lo[ua] = floor_cell(lo[a], d.extent[ua]);
    b.hi[ua] = floor_cell(hi[a], d.extent[ua]);
  }
  return b;
}

void grid_parts_in_box(const MapData& d, const Box& cells, std::vector<char>& parts) {
  Box b = cells;
  for (int a = 0; a < d.dim; ++a) {
    const auto ua = static_cast<std::size_t>(a);
    b.lo[ua] = std::max<std::int64_t>(b.lo[ua], 0);
    b.hi[ua] = std::min<std::int64_t>(b.hi[ua], d.extent[ua] - 1);
  }
  if (b.empty()) return;
  if (!d.locator) return Marks{parts}(0);
  locator_box(d.locator.get(), d.dim, d.extent, b, Marks{parts});
}

}  // namespace hpart::detail
