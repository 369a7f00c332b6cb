// The multilevel k-way graph partitioner (partitioners/graph): validity, balance per constraint,
// cut against METIS k-way on the shared graphs, thread-count independence, refine_partition's
// contract, targets, and the edge cases (k = 1, k > n, disconnected graphs, zero weights).
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "graph/coarsening/ml_coarsen.hpp"
#include "graph/multilevel.hpp"
#include "hpart/error.hpp"
#include "serial_graph.hpp"

namespace hpart::graphk {
namespace {

using hpart::testing::grid_graph_3d;
using hpart::testing::imbalance_per_constraint;
using hpart::testing::metis_kway;
using hpart::testing::read_metis_graph;

// Weight / target - 1 is compared with the tolerance after rounding noise.
constexpr double kSlack = 1e-9;

std::string graph_path(const std::string& name) {
#ifdef HPART_SHARED_DATA
  return std::string(HPART_SHARED_DATA) + "/graphs/" + name;
#else
  return "../shared/data/graphs/" + name;
#endif
}

bool have_graph(const std::string& name) { return std::filesystem::exists(graph_path(name)); }

MultilevelOptions options(int k, double imbalance = 0.03) {
  MultilevelOptions o;
  o.parts = k;
  o.imbalance = imbalance;
  return o;
}

// Every vertex in [0, k); no empty part when there are at least k vertices.
void expect_valid(const CsrGraph& g, const std::vector<part_t>& parts, int k) {
  ASSERT_EQ(parts.size(), static_cast<std::size_t>(g.vertices()));
  std::vector<std::int64_t> count(static_cast<std::size_t>(k), 0);
  for (part_t p : parts) {
    ASSERT_GE(p, 0);
    ASSERT_LT(p, k);
    ++count[static_cast<std::size_t>(p)];
  }
  if (g.vertices() >= k) {
    for (int p = 0; p < k; ++p) EXPECT_GT(count[static_cast<std::size_t>(p)], 0) << "part " << p << " is empty";
  }
}

void expect_balanced(const CsrGraph& g, const std::vector<part_t>& parts, int k, double tol,
                     const std::vector<double>& targets = {}) {
  const std::vector<double> imb = imbalance_per_constraint(g, parts, k, targets);
  for (std::size_t c = 0; c < imb.size(); ++c) EXPECT_LE(imb[c], tol + kSlack) << "constraint " << c;
}

// A small graph with two components (a 2D grid and a path) plus isolated vertices.
CsrGraph disconnected_graph() {
  std::vector<std::vector<std::int32_t>> adj;
  const int side = 20;
  auto add_edge = [&](std::int32_t a, std::int32_t b) {
    adj[static_cast<std::size_t>(a)].push_back(b);
    adj[static_cast<std::size_t>(b)].push_back(a);
  };
  adj.resize(side * side + 100 + 10);
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) {
      if (x + 1 < side) add_edge(y * side + x, y * side + x + 1);
      if (y + 1 < side) add_edge(y * side + x, (y + 1) * side + x);
    }
  for (int i = 0; i + 1 < 100; ++i) add_edge(side * side + i, side * side + i + 1);
  CsrGraph g;
  for (const auto& row : adj) {
    g.adjncy.insert(g.adjncy.end(), row.begin(), row.end());
    g.xadj.push_back(static_cast<std::int64_t>(g.adjncy.size()));
  }
  g.vwgt.assign(adj.size(), 1);
  g.adjwgt.assign(g.adjncy.size(), 1);
  return g;
}

TEST(Multilevel, SharedGraphsMatchMetis) {
  struct Case {
    const char* file;
    int k;
    double tol;
  };
  // test.mgraph has two tight constraints (vertex weights up to a fifth of a part at k = 64);
  // 3% is asked for and 5% is the guarantee checked.
  const Case cases[] = {{"4elt.graph", 16, 0.03}, {"add20.graph", 16, 0.03}, {"crack.graph", 64, 0.03},
                        {"delaunay_n15.graph", 16, 0.03}, {"test.mgraph", 16, 0.05}, {"test.mgraph", 64, 0.05}};
  int ran = 0;
  for (const Case& c : cases) {
    if (!have_graph(c.file)) continue;
    ++ran;
    SCOPED_TRACE(std::string(c.file) + " k=" + std::to_string(c.k));
    const CsrGraph g = read_metis_graph(graph_path(c.file));
    const std::vector<part_t> parts = multilevel_partition(g, options(c.k));
    expect_valid(g, parts, c.k);
    expect_balanced(g, parts, c.k, c.tol);
    const std::int64_t cut = edge_cut(g, parts), metis = edge_cut(g, metis_kway(g, c.k, 0.03));
    EXPECT_LE(static_cast<double>(cut), 1.25 * static_cast<double>(metis)) << "cut " << cut << " vs METIS " << metis;
  }
  if (ran == 0) GTEST_SKIP() << "shared graphs not found at " << graph_path("");
}

TEST(Multilevel, SameResultForAnyThreadCount) {
  // 48^3 vertices: more than one matching block, so the parallel paths really run; test.mgraph
  // goes through the exchange search.
  std::vector<CsrGraph> graphs{grid_graph_3d(48, 48, 48)};
  if (have_graph("test.mgraph")) graphs.push_back(read_metis_graph(graph_path("test.mgraph")));
  const int saved = omp_get_max_threads();
  for (const CsrGraph& g : graphs) {
    std::vector<std::vector<part_t>> results, refined;
    for (int threads : {1, 2, 3}) {
      omp_set_num_threads(threads);
      results.push_back(multilevel_partition(g, options(16)));
      refined.push_back(results.back());
      refine_partition(g, refined.back(), options(16, 0.01));
    }
    for (std::size_t t = 1; t < results.size(); ++t) {
      EXPECT_EQ(results[t], results[0]) << t + 1 << " threads";
      EXPECT_EQ(refined[t], refined[0]) << t + 1 << " threads";
    }
  }
  omp_set_num_threads(saved);
}

TEST(Multilevel, SeedChangesResultButStaysValid) {
  const CsrGraph g = grid_graph_3d(20, 20, 20);
  MultilevelOptions o = options(8);
  const std::vector<part_t> a = multilevel_partition(g, o);
  o.seed = 7;
  const std::vector<part_t> b = multilevel_partition(g, o);
  expect_valid(g, b, 8);
  expect_balanced(g, b, 8, 0.03);
  EXPECT_EQ(a, multilevel_partition(g, options(8)));  // same seed, same partition
}

TEST(Multilevel, RefineNeverIncreasesTheCutOfABalancedPartition) {
  std::vector<CsrGraph> graphs{grid_graph_3d(24, 24, 24)};
  if (have_graph("4elt.graph")) graphs.push_back(read_metis_graph(graph_path("4elt.graph")));
  for (const CsrGraph& g : graphs) {
    for (int k : {4, 16}) {
      // METIS's partition (when within the bounds) and a blocky one by vertex id.
      std::vector<std::vector<part_t>> inputs{metis_kway(g, k, 0.02)};
      std::vector<part_t> blocks(static_cast<std::size_t>(g.vertices()));
      for (std::size_t v = 0; v < blocks.size(); ++v) blocks[v] = static_cast<part_t>(v * static_cast<std::size_t>(k) / blocks.size());
      inputs.push_back(blocks);
      for (std::vector<part_t> parts : inputs) {
        const std::vector<double> before_imb = imbalance_per_constraint(g, parts, k);
        if (before_imb[0] > 0.03) continue;
        const std::int64_t before = edge_cut(g, parts);
        refine_partition(g, parts, options(k));
        expect_valid(g, parts, k);
        expect_balanced(g, parts, k, 0.03);
        EXPECT_LE(edge_cut(g, parts), before);
      }
    }
  }
}

TEST(Multilevel, RefineRestoresBalance) {
  std::vector<CsrGraph> graphs{grid_graph_3d(16, 16, 16)};
  if (have_graph("crack.graph")) graphs.push_back(read_metis_graph(graph_path("crack.graph")));
  for (const CsrGraph& g : graphs) {
    const int k = 12;
    // Everything in part 0 except one vertex per other part.
    std::vector<part_t> parts(static_cast<std::size_t>(g.vertices()), 0);
    for (int p = 1; p < k; ++p) parts[static_cast<std::size_t>(p) * parts.size() / k] = p;
    refine_partition(g, parts, options(k));
    expect_valid(g, parts, k);
    expect_balanced(g, parts, k, 0.03);
    // Restoring balance from that start must not leave a silly cut: within 2x METIS.
    EXPECT_LE(static_cast<double>(edge_cut(g, parts)), 2.0 * static_cast<double>(edge_cut(g, metis_kway(g, k, 0.03))));
  }
}

TEST(Multilevel, RefineFillsEmptyParts) {
  const CsrGraph g = grid_graph_3d(10, 10, 10);
  std::vector<part_t> parts(static_cast<std::size_t>(g.vertices()), 0);
  for (std::size_t v = 0; v < parts.size(); ++v) parts[v] = v < parts.size() / 2 ? 0 : 1;
  refine_partition(g, parts, options(4));  // parts 2 and 3 empty, 0 and 1 at twice their target
  expect_valid(g, parts, 4);
  expect_balanced(g, parts, 4, 0.03);
}

// A rank's block with ghosts: the left half of a grid is "local", the right half stands for
// another rank (fixed). The fixed vertices never move, the budgets hold, and the cut does not grow.
TEST(Multilevel, RefineBlockKeepsGhostsFixedAndBudgets) {
  CsrGraph g = grid_graph_3d(16, 16, 16);
  const int k = 4;
  const auto n = static_cast<std::size_t>(g.vertices());
  std::vector<std::uint8_t> fixed(n, 0);
  std::vector<part_t> parts(n);
  for (std::size_t v = 0; v < n; ++v) {
    const std::size_t x = v % 16, y = (v / 16) % 16;
    fixed[v] = x >= 8 ? 1 : 0;
    // A ragged start: parts by y bands, shifted per x so the boundaries zigzag.
    parts[v] = static_cast<part_t>(((y + (x % 3)) * k / 18) % k);
    if (fixed[v]) g.vwgt[v] = 0;  // ghosts weigh nothing in the block's balance
  }
  const std::vector<part_t> before = parts;
  std::vector<std::int64_t> local(k, 0);
  for (std::size_t v = 0; v < n; ++v) local[static_cast<std::size_t>(parts[v])] += g.vwgt[v];
  std::vector<std::int64_t> budget(k);
  for (int p = 0; p < k; ++p) budget[static_cast<std::size_t>(p)] = std::max<std::int64_t>(local[static_cast<std::size_t>(p)], 520);
  const std::int64_t cut_before = edge_cut(g, parts);
  refine_block(g, parts, k, budget, fixed);
  std::vector<std::int64_t> after(k, 0);
  for (std::size_t v = 0; v < n; ++v) {
    if (fixed[v]) {
      EXPECT_EQ(parts[v], before[v]) << "fixed vertex " << v << " moved";
    }
    ASSERT_GE(parts[v], 0);
    ASSERT_LT(parts[v], k);
    after[static_cast<std::size_t>(parts[v])] += g.vwgt[v];
  }
  for (int p = 0; p < k; ++p) EXPECT_LE(after[static_cast<std::size_t>(p)], budget[static_cast<std::size_t>(p)]) << "part " << p;
  EXPECT_LT(edge_cut(g, parts), cut_before);
}

// A part above its budget sheds weight into parts with room, ghosts still fixed.
TEST(Multilevel, RefineBlockRelievesAnOverBudgetPart) {
  CsrGraph g = grid_graph_3d(12, 12, 12);
  const int k = 3;
  const auto n = static_cast<std::size_t>(g.vertices());
  std::vector<std::uint8_t> fixed(n, 0);
  std::vector<part_t> parts(n);
  for (std::size_t v = 0; v < n; ++v) {
    const std::size_t z = v / 144;
    fixed[v] = z == 11 ? 1 : 0;
    parts[v] = z < 8 ? 0 : (z < 10 ? 1 : 2);
    if (fixed[v]) g.vwgt[v] = 0;
  }
  const std::vector<part_t> before = parts;
  const std::vector<std::int64_t> budget{600, 600, 600};  // part 0 holds 1152
  refine_block(g, parts, k, budget, fixed);
  std::vector<std::int64_t> after(k, 0);
  for (std::size_t v = 0; v < n; ++v) {
    if (fixed[v]) {
      EXPECT_EQ(parts[v], before[v]);
    }
    after[static_cast<std::size_t>(parts[v])] += g.vwgt[v];
  }
  for (int p = 0; p < k; ++p) EXPECT_LE(after[static_cast<std::size_t>(p)], 600) << "part " << p;
}

TEST(Multilevel, UnevenTargetsAreHonoured) {
  const CsrGraph g = grid_graph_3d(24, 24, 24);
  MultilevelOptions o = options(6);
  o.targets = {1.0, 2.0, 3.0, 1.0, 0.5, 4.5};
  const std::vector<part_t> parts = multilevel_partition(g, o);
  expect_valid(g, parts, 6);
  expect_balanced(g, parts, 6, 0.03, o.targets);
  // Also as a refinement target: start from equal parts, end at the requested sizes.
  std::vector<part_t> even = multilevel_partition(g, options(6));
  refine_partition(g, even, o);
  expect_balanced(g, even, 6, 0.03, o.targets);
}

TEST(Multilevel, MultiConstraintGrid) {
  // Two constraints that disagree: unit cells everywhere, and a second weight only in one half.
  CsrGraph g = grid_graph_3d(20, 20, 20);
  g.ncon = 2;
  std::vector<std::int64_t> w;
  for (std::int32_t v = 0; v < g.vertices(); ++v) {
    w.push_back(1);
    w.push_back(v % 20 < 10 ? 3 : 0);
  }
  g.vwgt.assign(w.begin(), w.end());
  const std::vector<part_t> parts = multilevel_partition(g, options(8));
  expect_valid(g, parts, 8);
  expect_balanced(g, parts, 8, 0.03);
  // A constraint that is zero everywhere is trivially met and must not get in the way.
  for (std::size_t v = 0; v < g.vwgt.size(); v += 2) g.vwgt[v + 1] = 0;
  const std::vector<part_t> first_only = multilevel_partition(g, options(8));
  expect_valid(g, first_only, 8);
  expect_balanced(g, first_only, 8, 0.03);
}

TEST(Multilevel, OnePart) {
  const CsrGraph g = grid_graph_3d(5, 5, 5);
  const std::vector<part_t> parts = multilevel_partition(g, options(1));
  EXPECT_EQ(parts, std::vector<part_t>(125, 0));
  EXPECT_EQ(edge_cut(g, parts), 0);
  std::vector<part_t> refined = parts;
  refine_partition(g, refined, options(1));
  EXPECT_EQ(refined, parts);
}

TEST(Multilevel, MorePartsThanVerticesLeavesPartsEmpty) {
  // Documented: with k > n every vertex gets a part of its own; the other parts stay empty.
  const CsrGraph g = grid_graph_3d(5, 1, 1);
  const std::vector<part_t> parts = multilevel_partition(g, options(8));
  expect_valid(g, parts, 8);
  std::vector<part_t> sorted = parts;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::unique(sorted.begin(), sorted.end()), sorted.end()) << "two vertices share a part";
  EXPECT_EQ(edge_cut(g, parts), 4);
  // refine_partition keeps such a partition valid (it may merge vertices but never leaves [0, k)).
  std::vector<part_t> refined = parts;
  refine_partition(g, refined, options(8));
  expect_valid(g, refined, 8);
  EXPECT_LE(edge_cut(g, refined), 4);
  // The empty graph has an empty partition.
  EXPECT_TRUE(multilevel_partition(CsrGraph{}, options(4)).empty());
}

TEST(Multilevel, DisconnectedGraphWithIsolatedVertices) {
  const CsrGraph g = disconnected_graph();
  for (int k : {2, 7, 32}) {
    const std::vector<part_t> parts = multilevel_partition(g, options(k));
    expect_valid(g, parts, k);
    expect_balanced(g, parts, k, 0.03);
  }
}

TEST(Multilevel, ZeroWeightVertices) {
  CsrGraph g = grid_graph_3d(16, 16, 16);
  for (std::size_t v = 0; v < g.vwgt.size(); ++v) g.vwgt[v] = v % 3 == 0 ? 0 : 2;
  std::vector<part_t> parts = multilevel_partition(g, options(10));
  expect_valid(g, parts, 10);
  expect_balanced(g, parts, 10, 0.03);
  // Only few vertices carry weight: parts still get a vertex each (zero-weight ones count).
  CsrGraph sparse = grid_graph_3d(6, 6, 6);
  std::fill(sparse.vwgt.begin(), sparse.vwgt.end(), 0);
  for (std::size_t v = 0; v < sparse.vwgt.size(); v += 20) sparse.vwgt[v] = 1;
  parts = multilevel_partition(sparse, options(16));
  expect_valid(sparse, parts, 16);
  // All weights zero: vertex counts are balanced instead.
  CsrGraph zero = grid_graph_3d(12, 12, 12);
  std::fill(zero.vwgt.begin(), zero.vwgt.end(), 0);
  parts = multilevel_partition(zero, options(8));
  expect_valid(zero, parts, 8);
  CsrGraph counted = zero;
  std::fill(counted.vwgt.begin(), counted.vwgt.end(), 1);
  expect_balanced(counted, parts, 8, 0.03);
}

// The metis method's kernel guards METIS's 32-bit input: weights of 2^54 (METIS would read their
// low 32 bits: 0) are scaled, edge weights of 2^40 too (the cut is exact on the real weights),
// k >= n gives every vertex a part of its own (METIS may put everything in one part), k == n
// balances perfectly, and all-zero vertex weights are balanced as counts.
TEST(Multilevel, MetisKwayIsGuarded) {
  CsrGraph heavy = grid_graph_3d(6, 6, 6);
  std::fill(heavy.vwgt.begin(), heavy.vwgt.end(), std::int64_t{1} << 54);  // 216 x 2^54 < 2^62
  heavy.adjwgt.assign(heavy.adjncy.size(), std::int64_t{1} << 40);
  const std::vector<part_t> parts = graphk::metis_kway(heavy, options(4));
  expect_valid(heavy, parts, 4);
  expect_balanced(heavy, parts, 4, 0.03);
  EXPECT_EQ(edge_cut(heavy, parts) % (std::int64_t{1} << 40), 0);
  EXPECT_LE(edge_cut(heavy, parts) / (std::int64_t{1} << 40), 2 * 36 + 12);
  const CsrGraph small = grid_graph_3d(5, 4, 1);  // 20 vertices
  for (int k : {20, 50}) {
    std::vector<part_t> own = graphk::metis_kway(small, options(k));
    expect_valid(small, own, k);
    std::sort(own.begin(), own.end());
    EXPECT_EQ(std::unique(own.begin(), own.end()), own.end()) << "k " << k << ": two vertices share a part";
  }
  CsrGraph zero = grid_graph_3d(8, 8, 8);
  std::fill(zero.vwgt.begin(), zero.vwgt.end(), 0);
  const std::vector<part_t> counted = graphk::metis_kway(zero, options(4));
  CsrGraph unit = zero;
  std::fill(unit.vwgt.begin(), unit.vwgt.end(), 1);
  expect_balanced(unit, counted, 4, 0.03);
  EXPECT_TRUE(graphk::metis_kway(CsrGraph{}, options(4)).empty());
}

// Coarse levels keep 32-bit edge weights when the graph's total fits: level by level they are
// the 64-bit ones, entry for entry, and so is everything else of the level.
TEST(Multilevel, NarrowCoarseWeightsEqualWideOnes) {
  CsrGraph g = grid_graph_3d(20, 20, 20);
  g.adjwgt.resize(g.adjncy.size());
  for (std::int32_t v = 0; v < g.vertices(); ++v)
    for (std::int64_t e = g.xadj[static_cast<std::size_t>(v)]; e < g.xadj[static_cast<std::size_t>(v) + 1]; ++e) {
      const std::int64_t u = g.adjncy[static_cast<std::size_t>(e)];
      g.adjwgt[static_cast<std::size_t>(e)] = 1 + ((u + v) * 7919 + u * v % 13) % 997;  // symmetric in u, v
    }
  const std::vector<std::int64_t> max_vwgt{std::int64_t{1} << 20};
  std::vector<std::unique_ptr<CoarseLevel>> narrow, wide;
  GraphView nv = view_of(g), wv = view_of(g);
  for (int level = 0; level < 4; ++level) {
    narrow.push_back(std::make_unique<CoarseLevel>(coarsen_once(nv, max_vwgt, 11 + level, 0, true)));
    wide.push_back(std::make_unique<CoarseLevel>(coarsen_once(wv, max_vwgt, 11 + level, 0, false)));
    const CoarseLevel& a = *narrow.back();
    const CoarseLevel& b = *wide.back();
    ASSERT_EQ(a.n, b.n) << "level " << level;
    EXPECT_TRUE(a.adjwgt.empty());
    EXPECT_TRUE(b.adjwgt32.empty());
    EXPECT_TRUE(std::equal(a.xadj.begin(), a.xadj.end(), b.xadj.begin(), b.xadj.end()));
    EXPECT_TRUE(std::equal(a.adjncy.begin(), a.adjncy.end(), b.adjncy.begin(), b.adjncy.end()));
    EXPECT_TRUE(std::equal(a.vwgt.begin(), a.vwgt.end(), b.vwgt.begin(), b.vwgt.end()));
    EXPECT_TRUE(std::equal(a.cmap.begin(), a.cmap.end(), b.cmap.begin(), b.cmap.end()));
    EXPECT_TRUE(std::equal(a.adjwgt32.begin(), a.adjwgt32.end(), b.adjwgt.begin(), b.adjwgt.end())) << "level " << level;
    EXPECT_EQ(a.view().edge_total(), b.view().edge_total());
    nv = a.view();
    wv = b.view();
  }
}

// Edge weights summing past 2^31 keep 64-bit coarse weights: with every weight 2^28 the
// partition is that of the unit-weight graph, its cut 2^28 times as heavy.
TEST(Multilevel, EdgeWeightsPast32BitsStayWide) {
  const CsrGraph unit = grid_graph_3d(16, 16, 16);
  CsrGraph heavy = unit;
  heavy.adjwgt.assign(heavy.adjncy.size(), std::int64_t{1} << 28);
  const std::vector<part_t> a = multilevel_partition(unit, options(8));
  const std::vector<part_t> b = multilevel_partition(heavy, options(8));
  expect_valid(heavy, b, 8);
  expect_balanced(heavy, b, 8, 0.03);
  EXPECT_EQ(edge_cut(heavy, b), edge_cut(unit, b) << 28);
  EXPECT_EQ(a, b);
}

TEST(Multilevel, EdgeCutCountsEachEdgeOnce) {
  CsrGraph g;  // triangle 0-1-2 with weights 1, 2, 3 and a pendant vertex 3 on 2 (weight 5)
  g.xadj = {0, 2, 4, 7, 8};
  g.adjncy = {1, 2, 0, 2, 0, 1, 3, 2};
  g.adjwgt = {1, 3, 1, 2, 3, 2, 5, 5};
  g.vwgt = {1, 1, 1, 1};
  EXPECT_EQ(edge_cut(g, {0, 0, 0, 0}), 0);
  EXPECT_EQ(edge_cut(g, {0, 0, 1, 1}), 5);
  EXPECT_EQ(edge_cut(g, {0, 1, 0, 1}), 1 + 2 + 5);
  EXPECT_THROW(edge_cut(g, {0, 0}), Error);
}

TEST(Multilevel, BadInputThrows) {
  const CsrGraph g = grid_graph_3d(4, 4, 1);
  auto code_of = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return e.code();
    }
    return ErrorCode::ok;
  };
  EXPECT_EQ(code_of([&] { multilevel_partition(g, options(0)); }), ErrorCode::invalid_argument);
  EXPECT_EQ(code_of([&] { multilevel_partition(g, options(4, -0.1)); }), ErrorCode::invalid_argument);
  MultilevelOptions bad_targets = options(3);
  bad_targets.targets = {1.0, 2.0};
  EXPECT_EQ(code_of([&] { multilevel_partition(g, bad_targets); }), ErrorCode::invalid_argument);
  bad_targets.targets = {1.0, 0.0, 1.0};
  EXPECT_EQ(code_of([&] { multilevel_partition(g, bad_targets); }), ErrorCode::invalid_argument);
  CsrGraph loop = g;
  loop.adjncy[0] = 0;  // vertex 0 lists itself
  EXPECT_EQ(code_of([&] { multilevel_partition(loop, options(2)); }), ErrorCode::invalid_input);
  CsrGraph negative = g;
  negative.vwgt[3] = -1;
  EXPECT_EQ(code_of([&] { multilevel_partition(negative, options(2)); }), ErrorCode::invalid_input);
  CsrGraph short_weights = g;
  short_weights.adjwgt.pop_back();
  EXPECT_EQ(code_of([&] { multilevel_partition(short_weights, options(2)); }), ErrorCode::size_mismatch);
  std::vector<part_t> parts(16, 0);
  parts[5] = 4;
  EXPECT_EQ(code_of([&] { refine_partition(g, parts, options(4)); }), ErrorCode::invalid_input);
  parts.pop_back();
  EXPECT_EQ(code_of([&] { refine_partition(g, parts, options(4)); }), ErrorCode::size_mismatch);
}

}  // namespace
}  // namespace hpart::graphk
