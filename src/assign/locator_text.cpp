// The saved form of grid locators (docs/assign.md): sfc splitters, the blocks' cut tree, tensor
// block starts, and the hierarchies' node levels (node boxes, staircase trees, node blocks) with
// each node's parts. Reading checks every count, index and range, so a loaded locator never reads
// outside its tables.
#include <algorithm>
#include <array>
#include <limits>
#include <string>

#include "assign/grid_map.hpp"
#include "hierarchy/grid_locators.hpp"

namespace hpart::detail {
namespace {

constexpr long long kMax = std::numeric_limits<std::int64_t>::max();

// The children of tree node i of m: both -1 (a leaf) or both after i, so every walk down the
// tree ends (a saved tree has no cycle).
void read_children(TextReader& r, long long i, long long m, int& lower, int& upper) {
  lower = static_cast<int>(r.integer("lower child", -1, m - 1));
  upper = static_cast<int>(r.integer("upper child", -1, m - 1));
  if ((lower < 0) != (upper < 0) || (lower >= 0 && (lower <= i || upper <= i)))
    r.fail("tree node " + std::to_string(i) + " has bad children");
}

void write_splitters(TextWriter& w, const std::vector<sfc::Order>& inner) {
  for (const sfc::Order v : inner)
    w.hex(static_cast<std::uint64_t>(v >> 64)).integer(static_cast<long long>(static_cast<std::uint64_t>(v))).end_line();
}

std::vector<sfc::Order> read_splitters(TextReader& r, long long m) {
  std::vector<sfc::Order> inner;
  for (long long i = 0; i < m; ++i) {
    const std::uint64_t k = r.hex("splitter key");
    inner.push_back(sfc::make_order(k, static_cast<gid_t>(r.integer("splitter id", 0, kMax))));
    if (i > 0 && inner[static_cast<std::size_t>(i)] < inner[static_cast<std::size_t>(i - 1)]) r.fail("splitters out of order");
  }
  return inner;
}

Curve read_curve(TextReader& r) {
  const std::string_view curve = r.word("curve");
  if (curve != "hilbert" && curve != "morton") r.fail("unknown curve '" + std::string(curve) + "'");
  return curve == "hilbert" ? Curve::hilbert : Curve::morton;
}

grid::CellKeys read_cell_keys(TextReader& r, int dim) {
  grid::CellKeys k;
  k.dim = dim;
  k.curve = read_curve(r);
  k.levels = static_cast<int>(r.integer("levels", 1, dim == 2 ? 32 : 21));
  k.shift = static_cast<int>(r.integer("shift", 0, k.levels - 1));
  return k;
}

void write_any(TextWriter& w, const GridLocator* l, int parts);

void write_hier(TextWriter& w, const hier::HierLocator& h, int parts_total) {
  w.word("locator").word("hier").integer(static_cast<long long>(h.node_boxes.size())).end_line();
  write_any(w, h.nodes.get(), static_cast<int>(h.node_boxes.size()));
  for (std::size_t n = 0; n < h.node_boxes.size(); ++n) {
    const Box& b = h.node_boxes[n];
    const part_t end = n + 1 < h.first.size() ? h.first[n + 1] : parts_total;
    w.word("node");
    for (int a = 0; a < 3; ++a) w.integer(a < b.dim ? b.lo[static_cast<std::size_t>(a)] : 0);
    for (int a = 0; a < 3; ++a) w.integer(a < b.dim ? b.hi[static_cast<std::size_t>(a)] : 0);
    w.integer(h.first[n]).integer(end - h.first[n]).end_line();
    write_any(w, h.inner[n].get(), end - h.first[n]);
  }
}

// parts: how many parts the locator answers (a hierarchy's last node needs it).
void write_any(TextWriter& w, const GridLocator* l, int parts) {
  if (l == nullptr) {
    w.word("locator").word("none").end_line();
  } else if (const auto* c = dynamic_cast<const grid::CurveLocator*>(l)) {
    w.word("locator").word("curve").word(to_string(c->keys.curve)).integer(c->keys.levels).integer(c->keys.shift)
        .integer(static_cast<long long>(c->inner.size())).end_line();
    write_splitters(w, c->inner);
  } else if (const auto* tree = dynamic_cast<const grid::TreeLocator*>(l)) {
    w.word("locator").word("tree").integer(static_cast<long long>(tree->nodes.size())).end_line();
    for (const grid::CutNode& n : tree->nodes) w.integer(n.dim).integer(n.cut).integer(n.lower).integer(n.upper).integer(n.first).end_line();
  } else if (const auto* t = dynamic_cast<const grid::TensorLocator*>(l)) {
    w.word("locator").word("tensor").end_line();
    for (int a = 0; a < t->dim; ++a) {
      const auto& s = t->starts[static_cast<std::size_t>(a)];
      w.integer(static_cast<long long>(s.size()));
      for (const std::int64_t v : s) w.integer(v);
      w.end_line();
    }
  } else if (const auto* h = dynamic_cast<const hier::HierLocator*>(l)) {
    write_hier(w, *h, parts);
  } else if (const auto* st = dynamic_cast<const hier::StairLocator*>(l)) {
    w.word("locator").word("stairs").integer(static_cast<long long>(st->tree.size())).end_line();
    for (const hier::StairNode& n : st->tree) {
      const hier::SlabKeys& k = n.keys;
      w.integer(k.d).integer(k.a).integer(k.b).integer(k.ea).integer(k.eb).integer(k.shift)
          .hex(static_cast<std::uint64_t>(n.split >> 64)).integer(static_cast<long long>(static_cast<std::uint64_t>(n.split)))
          .integer(n.lower).integer(n.upper).integer(n.node).end_line();
    }
  } else if (const auto* bl = dynamic_cast<const hier::BlockLocator*>(l)) {
    w.word("locator").word("blocks").integer(bl->b).integer(bl->n[0]).integer(bl->n[1]).integer(bl->n[2]).end_line();
    for (const int n : bl->node) w.integer(n);
    w.end_line();
  } else if (const auto* nc = dynamic_cast<const hier::NodeCurveLocator*>(l)) {
    w.word("locator").word("nodecurve").integer(static_cast<long long>(nc->first.size())).word(to_string(nc->curve.curve))
        .integer(nc->curve.levels).integer(nc->curve.shift).end_line();
    write_any(w, nc->nodes.get(), static_cast<int>(nc->first.size()));
    for (std::size_t n = 0; n < nc->first.size(); ++n) {
      w.word("node").integer(nc->first[n]).integer(static_cast<long long>(nc->rank_inner[n].size())).end_line();
      write_splitters(w, nc->rank_inner[n]);
    }
  } else {
    throw Error(ErrorCode::internal, "hpart::PartitionMap::save: a grid locator of an unknown kind");
  }
}

// parts: the locator answers [0, parts). none_ok: "none" may stand for any number of parts (a
// hierarchy's node without cells, which no cell reaches; its queries answer its first part).
struct Frame {
  int dim = 2;
  std::array<std::int64_t, 3> extent{1, 1, 1};  // the grid the locator answers for
};
std::shared_ptr<const GridLocator> read_any(TextReader& r, const Frame& f, int parts, int depth, bool none_ok = false);

std::shared_ptr<const GridLocator> read_hier(TextReader& r, const Frame& f, int parts, int depth) {
  const int dim = f.dim;
  auto h = std::make_shared<hier::HierLocator>();
  const long long nodes = r.integer("nodes", 1, parts);
  h->nodes = read_any(r, f, static_cast<int>(nodes), depth + 1);
  if (!h->nodes) r.fail("a hierarchy without a node level");
  for (long long n = 0; n < nodes; ++n) {
    r.expect("node");
    Box b = Box::none(dim);
    for (int a = 0; a < 3; ++a) {
      const long long v = r.integer("node box lo", a < dim ? -1 : 0, a < dim ? kMax : 0);
      if (a < dim) b.lo[static_cast<std::size_t>(a)] = v;
    }
    for (int a = 0; a < 3; ++a) {
      const long long v = r.integer("node box hi", a < dim ? -1 : 0, a < dim ? kMax : 0);
      if (a < dim) b.hi[static_cast<std::size_t>(a)] = v;
    }
    const auto first = static_cast<part_t>(r.integer("node first part", 0, parts - 1));
    const long long count = r.integer("node parts", 1, parts - first);
    h->node_boxes.push_back(b);
    h->first.push_back(first);
    Frame inner{dim, {1, 1, 1}};
    for (int a = 0; a < dim; ++a) inner.extent[static_cast<std::size_t>(a)] = std::max<std::int64_t>(1, b.size(a));
    h->inner.push_back(read_any(r, inner, static_cast<int>(count), depth + 1, true));
  }
  return h;
}

std::shared_ptr<const GridLocator> read_stairs(TextReader& r, int dim, int parts) {
  auto st = std::make_shared<hier::StairLocator>();
  const long long m = r.integer("stair nodes", 1, 2LL * parts - 1);
  for (long long i = 0; i < m; ++i) {
    hier::StairNode n;
    n.keys.dim = dim;
    n.keys.d = static_cast<int>(r.integer("slab axis", 0, 2));  // leaves keep the defaults
    n.keys.a = static_cast<int>(r.integer("slab axis a", 0, 2));
    n.keys.b = static_cast<int>(r.integer("slab axis b", 0, 2));
    n.keys.ea = r.integer("slab extent a", 1, 1LL << 31);
    n.keys.eb = r.integer("slab extent b", 1, 1LL << 31);
    n.keys.shift = static_cast<int>(r.integer("slab shift", 0, 63));
    const std::uint64_t k = r.hex("split key");
    n.split = sfc::make_order(k, static_cast<gid_t>(r.integer("split id", 0, kMax)));
    read_children(r, i, m, n.lower, n.upper);
    n.node = static_cast<int>(r.integer("node", 0, parts - 1));
    st->tree.push_back(n);
  }
  return st;
}

// extent: the grid's, which every cell (clamped to it) indexes a block of.
std::shared_ptr<const GridLocator> read_blocks(TextReader& r, int dim, int parts, const std::array<std::int64_t, 3>& extent) {
  auto bl = std::make_shared<hier::BlockLocator>();
  bl->dim = dim;
  bl->b = r.integer("block side", 1, 1LL << 31);
  long long count = 1;
  for (int a = 0; a < 3; ++a) {
    const std::int64_t need = a < dim ? (extent[static_cast<std::size_t>(a)] + bl->b - 1) / bl->b : 1;
    bl->n[static_cast<std::size_t>(a)] = r.integer("blocks", need, need);
    count *= bl->n[static_cast<std::size_t>(a)];
    if (count > (1LL << 24)) r.fail("too many blocks");
  }
  for (long long i = 0; i < count; ++i) bl->node.push_back(static_cast<int>(r.integer("block node", 0, parts - 1)));
  return bl;
}

std::shared_ptr<const GridLocator> read_node_curve(TextReader& r, const Frame& f, int parts, int depth) {
  const int dim = f.dim;
  auto nc = std::make_shared<hier::NodeCurveLocator>();
  const long long nodes = r.integer("nodes", 1, parts);
  nc->curve = read_cell_keys(r, dim);
  nc->nodes = read_any(r, f, static_cast<int>(nodes), depth + 1);
  if (!dynamic_cast<const hier::StairLocator*>(nc->nodes.get()) && !dynamic_cast<const hier::BlockLocator*>(nc->nodes.get()))
    r.fail("a node curve's node level must be stairs or blocks");
  for (long long n = 0; n < nodes; ++n) {
    r.expect("node");
    const auto first = static_cast<part_t>(r.integer("node first part", 0, parts - 1));
    const long long m = r.integer("splitters", 0, parts - 1 - first);
    nc->first.push_back(first);
    nc->rank_inner.push_back(read_splitters(r, m));
  }
  return nc;
}

std::shared_ptr<const GridLocator> read_any(TextReader& r, const Frame& f, int parts, int depth, bool none_ok) {
  const int dim = f.dim;
  if (depth > 4) r.fail("locators nested too deep");
  r.expect("locator");
  const std::string_view kind = r.word("locator kind");
  if (kind == "none") {
    if (parts != 1 && !none_ok) r.fail("a locator 'none' has one part");
    return nullptr;
  }
  if (kind == "curve") {
    auto c = std::make_shared<grid::CurveLocator>();
    c->keys = read_cell_keys(r, dim);
    c->inner = read_splitters(r, r.integer("splitters", parts - 1, parts - 1));
    return c;
  }
  if (kind == "tree") {
    auto t = std::make_shared<grid::TreeLocator>();
    const long long m = r.integer("tree nodes", 1, 2LL * parts - 1);
    for (long long i = 0; i < m; ++i) {
      grid::CutNode n;
      n.dim = static_cast<int>(r.integer("cut axis", 0, dim - 1));
      n.cut = r.integer("cut", 0, kMax);
      read_children(r, i, m, n.lower, n.upper);
      n.first = static_cast<part_t>(r.integer("part", 0, parts - 1));
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
      if (product > parts) r.fail("tensor blocks exceed the parts");
      auto& s = t->starts[static_cast<std::size_t>(a)];
      for (long long i = 0; i < m; ++i) s.push_back(r.integer("block start", i == 0 ? 0 : s.back(), i == 0 ? 0 : kMax));
    }
    if (product != parts) r.fail("tensor blocks (" + std::to_string(product) + ") differ from the parts");
    return t;
  }
  if (kind == "hier") return read_hier(r, f, parts, depth);
  if (kind == "stairs") return read_stairs(r, dim, parts);
  if (kind == "blocks") return read_blocks(r, dim, parts, f.extent);
  if (kind == "nodecurve") return read_node_curve(r, f, parts, depth);
  r.fail("unknown locator kind '" + std::string(kind) + "'");
}

}  // namespace

void write_locator(TextWriter& w, const GridLocator* locator, int parts) { write_any(w, locator, parts); }

std::shared_ptr<const GridLocator> read_locator(TextReader& r, int dim, int parts, const std::array<std::int64_t, 3>& extent) {
  return read_any(r, Frame{dim, extent}, parts, 0);
}

}  // namespace hpart::detail
