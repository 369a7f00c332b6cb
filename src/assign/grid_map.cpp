// Grid maps: queries, boxes and the saved form of the grid locators (sfc splitters, the blocks'
// cut tree, tensor block starts). A locator of another kind (the hierarchies') still answers
// cells and boxes (box by visiting the box's cells) but cannot be saved.
#include "assign/grid_map.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "assign/curve_box.hpp"

namespace hpart::detail {
namespace {

std::int64_t clamp_cell(std::int64_t c, std::int64_t extent) { return std::clamp<std::int64_t>(c, 0, extent - 1); }

std::int64_t floor_cell(double x, std::int64_t extent) {
  const double f = std::floor(x);
  if (f <= 0.0) return 0;
  if (f >= static_cast<double>(extent - 1)) return extent - 1;
  return static_cast<std::int64_t>(f);
}

void mark(std::vector<char>& parts, part_t p) { parts[static_cast<std::size_t>(p)] = 1; }

void tree_box(const grid::TreeLocator& t, int n, const Box& b, std::vector<char>& parts) {
  const grid::CutNode& node = t.nodes[static_cast<std::size_t>(n)];
  if (node.lower < 0) return mark(parts, node.first);
  const auto a = static_cast<std::size_t>(node.dim);
  if (b.lo[a] < node.cut) tree_box(t, node.lower, b, parts);
  if (b.hi[a] >= node.cut) tree_box(t, node.upper, b, parts);
}

void tensor_box(const grid::TensorLocator& t, const MapData& d, const Box& b, std::vector<char>& parts) {
  // Per axis the blocks the box meets; an empty block (two equal starts) holds no cell.
  std::array<std::vector<part_t>, 3> blocks;
  for (int a = 0; a < t.dim; ++a) {
    const auto& s = t.starts[static_cast<std::size_t>(a)];
    const auto ua = static_cast<std::size_t>(a);
    for (std::size_t i = 0; i < s.size(); ++i) {
      const std::int64_t end = i + 1 < s.size() ? s[i + 1] : d.extent[ua];
      if (s[i] < end && s[i] <= b.hi[ua] && end > b.lo[ua]) blocks[ua].push_back(static_cast<part_t>(i));
    }
  }
  const part_t px = static_cast<part_t>(t.starts[0].size());
  const part_t py = t.dim > 1 ? static_cast<part_t>(t.starts[1].size()) : 1;
  if (t.dim < 3) blocks[2] = {0};
  if (t.dim < 2) blocks[1] = {0};
  for (part_t k : blocks[2])
    for (part_t j : blocks[1])
      for (part_t i : blocks[0]) mark(parts, i + px * (j + py * k));
}

void curve_box(const grid::CurveLocator& c, const Box& b, std::vector<char>& parts) {
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
  const auto marks = [&parts](int r0, int r1) {
    for (int r = r0; r <= r1; ++r) parts[static_cast<std::size_t>(r)] = 1;
  };
  descend_box(ck.dim, ck.levels - ck.shift, CellIndex{0, 0, 0}, lo, hi, key, mask, ranges, marks, ck.shift > 0);
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
  const GridLocator* l = d.locator.get();
  if (l == nullptr) return mark(parts, 0);
  if (const auto* t = dynamic_cast<const grid::TreeLocator*>(l)) return tree_box(*t, 0, b, parts);
  if (const auto* t = dynamic_cast<const grid::TensorLocator*>(l)) return tensor_box(*t, d, b, parts);
  if (const auto* c = dynamic_cast<const grid::CurveLocator*>(l)) return curve_box(*c, b, parts);
  // Any other locator: its cells one by one (exact; the cost is the box's volume).
  for (std::int64_t z = b.lo[2]; z <= (d.dim == 3 ? b.hi[2] : b.lo[2]); ++z)
    for (std::int64_t y = b.lo[1]; y <= b.hi[1]; ++y)
      for (std::int64_t x = b.lo[0]; x <= b.hi[0]; ++x) mark(parts, l->part_of({x, y, z, 0}));
}

void write_locator(TextWriter& w, const GridLocator* l) {
  if (l == nullptr) {
    w.word("locator").word("none").end_line();
  } else if (const auto* c = dynamic_cast<const grid::CurveLocator*>(l)) {
    w.word("locator").word("curve").word(to_string(c->keys.curve)).integer(c->keys.levels).integer(c->keys.shift)
        .integer(static_cast<long long>(c->inner.size())).end_line();
    for (const sfc::Order v : c->inner)
      w.hex(static_cast<std::uint64_t>(v >> 64)).integer(static_cast<long long>(static_cast<std::uint64_t>(v))).end_line();
  } else if (const auto* tree = dynamic_cast<const grid::TreeLocator*>(l)) {
    w.word("locator").word("tree").integer(static_cast<long long>(tree->nodes.size())).end_line();
    for (const grid::CutNode& n : tree->nodes)
      w.integer(n.dim).integer(n.cut).integer(n.lower).integer(n.upper).integer(n.first).end_line();
  } else if (const auto* t = dynamic_cast<const grid::TensorLocator*>(l)) {
    w.word("locator").word("tensor").end_line();
    for (int a = 0; a < t->dim; ++a) {
      const auto& s = t->starts[static_cast<std::size_t>(a)];
      w.integer(static_cast<long long>(s.size()));
      for (const std::int64_t v : s) w.integer(v);
      w.end_line();
    }
  } else {
    throw Error(ErrorCode::invalid_argument,
                "hpart::PartitionMap::save: this grid partition's locator (a hierarchical grid partition's) has no "
                "saved form yet; its map answers queries but cannot be saved");
  }
}

std::shared_ptr<const GridLocator> read_locator(TextReader& r, int dim, int parts) {
  r.expect("locator");
  const std::string_view kind = r.word("locator kind");
  if (kind == "none") return nullptr;
  constexpr long long kMax = std::numeric_limits<std::int64_t>::max();
  if (kind == "curve") {
    auto c = std::make_shared<grid::CurveLocator>();
    c->keys.dim = dim;
    const std::string_view curve = r.word("curve");
    if (curve != "hilbert" && curve != "morton") r.fail("unknown curve '" + std::string(curve) + "'");
    c->keys.curve = curve == "hilbert" ? Curve::hilbert : Curve::morton;
    c->keys.levels = static_cast<int>(r.integer("levels", 1, dim == 2 ? 32 : 21));
    c->keys.shift = static_cast<int>(r.integer("shift", 0, c->keys.levels - 1));
    const long long m = r.integer("splitters", parts - 1, parts - 1);
    for (long long i = 0; i < m; ++i) {
      const std::uint64_t k = r.hex("splitter key");
      const auto id = static_cast<gid_t>(r.integer("splitter id", 0, kMax));
      c->inner.push_back(sfc::make_order(k, id));
      if (i > 0 && c->inner[static_cast<std::size_t>(i)] < c->inner[static_cast<std::size_t>(i - 1)])
        r.fail("splitters out of order");
    }
    return c;
  }
  if (kind == "tree") {
    auto t = std::make_shared<grid::TreeLocator>();
    const long long m = r.integer("tree nodes", 1, 2LL * parts - 1);
    for (long long i = 0; i < m; ++i) {
      grid::CutNode n;
      n.dim = static_cast<int>(r.integer("cut axis", 0, dim - 1));
      n.cut = r.integer("cut", 0, kMax);
      // Children come after their parent, so every walk ends (the saved tree has no cycle).
      n.lower = static_cast<int>(r.integer("lower child", -1, m - 1));
      n.upper = static_cast<int>(r.integer("upper child", -1, m - 1));
      n.first = static_cast<part_t>(r.integer("part", 0, parts - 1));
      if ((n.lower < 0) != (n.upper < 0) || (n.lower >= 0 && (n.lower <= i || n.upper <= i)))
        r.fail("tree node " + std::to_string(i) + " has bad children");
      t->nodes.push_back(n);
    }
    return t;
  }
  if (kind == "tensor") {
    auto t = std::make_shared<grid::TensorLocator>();
    t->dim = dim;
    long long product = 1;
    for (int a = 0; a < dim; ++a) {
      const long long m = r.integer("blocks", 1, parts);
      product *= m;
      auto& s = t->starts[static_cast<std::size_t>(a)];
      for (long long i = 0; i < m; ++i) {
        s.push_back(r.integer("block start", i == 0 ? 0 : s.back(), i == 0 ? 0 : kMax));
      }
      if (product > parts) r.fail("tensor blocks exceed the parts");
    }
    if (product != parts) r.fail("tensor blocks (" + std::to_string(product) + ") differ from the parts");
    return t;
  }
  r.fail("unknown locator kind '" + std::string(kind) + "'");
}

}  // namespace hpart::detail
