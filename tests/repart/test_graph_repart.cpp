// repartition_graph under MPI: a grid graph partitioned by partition_graph, then a drifting
// hotspot of vertex weights; each incremental repartition keeps every vertex in a part, reaches
// the tolerance, migrates much less than a fresh (relabelled) partition and cuts at most 1.3x
// as many edges. Bad input fails on every rank; unreachable parts, and a cut grown past the
// watch, fall back to a fresh partition.
// Every test also runs on the two halves of the world.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "hpart/hpart.hpp"
#include "core/ghost_exchange.hpp"
#include "graph/repartition/graph_diffusion.hpp"
#include "migration/relabel_partition.hpp"
#include "test_graphs.hpp"
#include "test_world.hpp"

namespace {

using hpart::testing::expect_error_everywhere;
using hpart::testing::HalfWorld;
using hpart::testing::World;

constexpr std::int64_t kSide = 64;
constexpr int kParts = 8;

hpart::GraphOptions fresh_options() {
  hpart::GraphOptions o;
  o.parts = kParts;
  return o;
}

// Integer weights 1 + round(8 exp(-r^2 / 2 sigma^2)) around a centre on the diagonal at fraction t.
void set_hotspot(hpart::GraphFile& f, double t) {
  const double c = (0.2 + 0.6 * t) * kSide, sigma = 0.15 * kSide;
  const std::size_t n = f.xadj.size() - 1;
  f.vwgt.resize(n);
  for (std::size_t v = 0; v < n; ++v) {
    const double dx = f.coords[2 * v] - c, dy = f.coords[2 * v + 1] - c;
    f.vwgt[v] = 1 + std::llround(8.0 * std::exp(-(dx * dx + dy * dy) / (2 * sigma * sigma)));
  }
}

// This rank's rows of the kSide x kSide grid graph, weighted by the hotspot at its start.
hpart::GraphFile hotspot_grid(const World& w) {
  hpart::GraphFile f = hpart::testing::grid_graph(kSide, kSide, w.rank, w.size);
  set_hotspot(f, 0.0);
  return f;
}

double migrated_weight(MPI_Comm comm, const hpart::GraphFile& f, const std::vector<hpart::part_t>& a,
                       const std::vector<hpart::part_t>& b) {
  double w = 0.0;
  for (std::size_t v = 0; v < a.size(); ++v)
    if (a[v] != b[v]) w += static_cast<double>(f.vwgt[v]);
  MPI_Allreduce(MPI_IN_PLACE, &w, 1, MPI_DOUBLE, MPI_SUM, comm);
  return w;
}

void drifting_hotspot(MPI_Comm handle) {
  const World w(handle);
  const hpart::Comm comm(handle);
  hpart::GraphFile f = hotspot_grid(w);
  std::vector<hpart::part_t> parts = hpart::partition_graph(comm, f.view(), fresh_options()).parts;
  double incremental_total = 0.0, scratch_total = 0.0;
  for (int step = 1; step <= 4; ++step) {
    set_hotspot(f, 0.1 * step);
    const hpart::GraphRepartOptions o{.parts = kParts};
    const hpart::GraphRepartition r = hpart::repartition_graph(comm, f.view(), parts, o);
    ASSERT_EQ(r.parts.size(), parts.size());
    for (hpart::part_t p : r.parts) ASSERT_TRUE(p >= 0 && p < kParts);
    EXPECT_FALSE(r.from_scratch) << "step " << step;
    EXPECT_GE(r.steps, 1) << "step " << step;  // the drift unbalanced the parts
    EXPECT_LE(r.metrics.imbalance[0], o.imbalance + 1e-9) << "step " << step;
    // The reported migration is what changed, and what the caller can recount.
    EXPECT_DOUBLE_EQ(r.migrated.weight, migrated_weight(handle, f, parts, r.parts));
    const hpart::GraphMetrics m = hpart::graph_metrics(comm, f.view(), r.parts, kParts);
    EXPECT_EQ(m.edge_cut, r.cut.edge_cut);

    hpart::GraphPartition fresh = hpart::partition_graph(comm, f.view(), fresh_options());
    const std::vector<double> weights(f.vwgt.begin(), f.vwgt.end());
    hpart::repart::relabel_to_overlap(comm, parts, fresh.parts, weights, 1, kParts);
    const double scratch = migrated_weight(handle, f, parts, fresh.parts);
    EXPECT_LE(static_cast<double>(r.cut.edge_cut), 1.3 * static_cast<double>(fresh.cut.edge_cut))
        << "step " << step;
    incremental_total += r.migrated.weight;
    scratch_total += scratch;
    parts = r.parts;
  }
  // Measured at np 1-4: 0.54-0.55 (incremental ~6450-6540 against fresh ~11850-12040). The fresh
  // partitions coarsened by matching moved more under the drift (~15400-15650; ratio 0.40), those
  // of clustering (the default since 2026-12-07) are steadier, so the bound is 0.6.
  EXPECT_LT(incremental_total, 0.6 * scratch_total);
}

TEST(GraphRepart, DriftingHotspotMovesLittleAndBalances) { drifting_hotspot(MPI_COMM_WORLD); }
TEST(GraphRepart, DriftingHotspotOnSubCommunicators) {
  const HalfWorld half;
  drifting_hotspot(half.comm);
}

// The diffusion's layers and refinement passes visit only the vertices whose evaluation can have
// changed (the frontier); over a drift, every step's balance and refinement must give exactly
// the parts a pass over every vertex gives (a vertex the frontier missed would differ).
void frontier_equals_full_scan(MPI_Comm handle) {
  const World w(handle);
  const hpart::Comm comm(handle);
  hpart::GraphFile f = hotspot_grid(w);
  std::vector<hpart::part_t> parts = hpart::partition_graph(comm, f.view(), fresh_options()).parts;
  long long moved = 0;
  for (int step = 1; step <= 4; ++step) {
    set_hotspot(f, 0.15 * step);
    const hpart::graph::GhostExchange ghosts(comm, f.view());
    hpart::repart::GraphDiffusion frontier(comm, f.view(), ghosts, parts, kParts, 0.03, 1000.0);
    hpart::repart::GraphDiffusion full(comm, f.view(), ghosts, parts, kParts, 0.03, 1000.0);
    full.set_full_scan(true);
    // Agreed over the ranks before asserting: a rank that returned early would leave the
    // others waiting in the next collective.
    const auto same_everywhere = [&] {
      int same = frontier.parts() == full.parts() ? 1 : 0;
      MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_MIN, handle);
      return same == 1;
    };
    const int rounds = frontier.balance(8);
    EXPECT_EQ(full.balance(8), rounds) << "step " << step;
    EXPECT_GE(rounds, 1) << "step " << step;
    ASSERT_TRUE(same_everywhere()) << "step " << step << ": balance";
    frontier.refine(4);
    full.refine(4);
    ASSERT_TRUE(same_everywhere()) << "step " << step << ": refinement";
    for (std::size_t v = 0; v < parts.size(); ++v) moved += parts[v] != frontier.parts()[v];
    parts = frontier.parts();
  }
  MPI_Allreduce(MPI_IN_PLACE, &moved, 1, MPI_LONG_LONG, MPI_SUM, handle);
  EXPECT_GT(moved, 0);  // the drift made the layers move vertices
}

TEST(GraphRepart, FrontierEqualsFullScan) { frontier_equals_full_scan(MPI_COMM_WORLD); }
TEST(GraphRepart, FrontierEqualsFullScanOnSubCommunicators) {
  const HalfWorld half;
  frontier_equals_full_scan(half.comm);
}

// A balanced partition under unchanged weights: nothing to balance, and refinement only moves
// vertices that save cut, so the cut never grows.
void balanced_stays(MPI_Comm handle) {
  const World w(handle);
  const hpart::Comm comm(handle);
  hpart::GraphFile f = hpart::testing::grid_graph(kSide, kSide, w.rank, w.size);
  set_hotspot(f, 0.5);
  const hpart::GraphPartition p = hpart::partition_graph(comm, f.view(), fresh_options());
  const hpart::GraphRepartition r = hpart::repartition_graph(comm, f.view(), p.parts, {.parts = kParts});
  EXPECT_EQ(r.steps, 0);
  EXPECT_LE(r.cut.edge_cut, p.cut.edge_cut);
  EXPECT_LE(r.metrics.imbalance[0], 0.03 + 1e-9);
}

TEST(GraphRepart, BalancedPartitionStays) { balanced_stays(MPI_COMM_WORLD); }

// Small itr: migration dominates, so beyond balancing nothing moves that does not go home.
TEST(GraphRepart, SmallItrMovesNoMoreThanLargeItr) {
  const World w;
  const hpart::Comm comm(w.comm);
  hpart::GraphFile f = hpart::testing::grid_graph(kSide, kSide, w.rank, w.size);
  set_hotspot(f, 0.0);
  const std::vector<hpart::part_t> parts = hpart::partition_graph(comm, f.view(), fresh_options()).parts;
  set_hotspot(f, 0.2);
  const auto big = hpart::repartition_graph(comm, f.view(), parts, {.parts = kParts, .itr = 1000.0});
  const auto small = hpart::repartition_graph(comm, f.view(), parts, {.parts = kParts, .itr = 0.01});
  EXPECT_LE(small.migrated.weight, big.migrated.weight);
  EXPECT_LE(small.metrics.imbalance[0], 0.03 + 1e-9);
}

// migration_sizes (ParMETIS's vsize): sizes equal to the first weight are the default, exactly;
// with every other row 100 times dearer to move, what moves costs less by those sizes than what
// the same call moves without them; a negative
// size or a wrong length fails on every rank.
TEST(GraphRepart, MigrationSizesSteerWhatMoves) {
  const World w;
  const hpart::Comm comm(w.comm);
  hpart::GraphFile f = hpart::testing::grid_graph(kSide, kSide, w.rank, w.size);
  set_hotspot(f, 0.0);
  const std::vector<hpart::part_t> parts = hpart::partition_graph(comm, f.view(), fresh_options()).parts;
  set_hotspot(f, 0.2);
  const auto plain = hpart::repartition_graph(comm, f.view(), parts, {.parts = kParts, .itr = 1.0});
  const auto same = hpart::repartition_graph(comm, f.view(), parts,
                                             {.parts = kParts, .itr = 1.0, .migration_sizes = f.vwgt});
  EXPECT_EQ(plain.parts, same.parts);
  const std::size_t n = parts.size();
  std::vector<std::int64_t> sizes(n);
  for (std::size_t v = 0; v < n; ++v) sizes[v] = ((f.vtxdist[w.rank] + static_cast<std::int64_t>(v)) / kSide) % 2 ? 100 : 1;
  const auto steered = hpart::repartition_graph(comm, f.view(), parts,
                                                {.parts = kParts, .itr = 1.0, .migration_sizes = sizes});
  long long cost[2] = {0, 0};  // the sizes moved: by the call that knew them, by the one that did not
  for (std::size_t v = 0; v < n; ++v) {
    cost[0] += steered.parts[v] != parts[v] ? sizes[v] : 0;
    cost[1] += plain.parts[v] != parts[v] ? sizes[v] : 0;
  }
  MPI_Allreduce(MPI_IN_PLACE, cost, 2, MPI_LONG_LONG, MPI_SUM, w.comm);
  if (w.rank == 0) std::printf("migration cost with sizes %lld, without %lld\n", cost[0], cost[1]);
  EXPECT_GT(cost[0], 0);
  EXPECT_LT(cost[0], cost[1]);
  EXPECT_LE(steered.metrics.imbalance[0], 0.03 + 1e-9);
  std::vector<std::int64_t> bad = sizes;
  if (w.rank == w.size - 1 && !bad.empty()) bad[0] = -1;
  expect_error_everywhere([&] { hpart::repartition_graph(comm, f.view(), parts, {.parts = kParts, .migration_sizes = bad}); },
                          "sizes must be >= 0");
  bad = sizes;
  if (w.rank == w.size - 1) bad.push_back(1);
  expect_error_everywhere([&] { hpart::repartition_graph(comm, f.view(), parts, {.parts = kParts, .migration_sizes = bad}); },
                          "migration_sizes has");
}

// Every vertex in part 0 of 4: parts 1-3 have no neighbours to receive from, so diffusion
// cannot balance and a fresh partition, relabelled, is returned.
void unreachable_parts(MPI_Comm handle) {
  const World w(handle);
  const hpart::Comm comm(handle);
  hpart::GraphFile f = hpart::testing::grid_graph(32, 32, w.rank, w.size);
  set_hotspot(f, 0.3);
  const std::vector<hpart::part_t> zeros(f.xadj.size() - 1, 0);
  const hpart::GraphRepartition r = hpart::repartition_graph(comm, f.view(), zeros, {.parts = 4});
  EXPECT_TRUE(r.from_scratch);
  EXPECT_LE(r.metrics.imbalance[0], 0.03 + 1e-9);
  for (hpart::part_t p : r.parts) ASSERT_TRUE(p >= 0 && p < 4);
}

TEST(GraphRepart, UnreachablePartsFallBackToScratch) { unreachable_parts(MPI_COMM_WORLD); }
TEST(GraphRepart, UnreachablePartsOnSubCommunicators) {
  const HalfWorld half;
  unreachable_parts(half.comm);
}

// The cut watch: against a reference cut far below what any 8-part partition of the grid cuts,
// the incremental result is refused and the fresh partition (the same cut as partition_graph's,
// relabelled) returned; against a generous reference the incremental result stands.
void cut_watch(MPI_Comm handle) {
  const World w(handle);
  const hpart::Comm comm(handle);
  hpart::GraphFile f = hpart::testing::grid_graph(kSide, kSide, w.rank, w.size);
  set_hotspot(f, 0.0);
  const hpart::GraphPartition start = hpart::partition_graph(comm, f.view(), fresh_options());
  set_hotspot(f, 0.2);
  const hpart::GraphRepartition watched = hpart::repartition_graph(
      comm, f.view(), start.parts, {.parts = kParts, .reference_cut = 10.0, .max_surface_growth = 1.0});
  EXPECT_TRUE(watched.from_scratch);
  EXPECT_GT(watched.surface_growth, 1.0);
  EXPECT_LE(watched.metrics.imbalance[0], 0.03 + 1e-9);
  const hpart::GraphPartition fresh = hpart::partition_graph(comm, f.view(), fresh_options());
  EXPECT_EQ(watched.cut.edge_cut, fresh.cut.edge_cut);
  EXPECT_EQ(hpart::graph_metrics(comm, f.view(), watched.parts, kParts).edge_cut, watched.cut.edge_cut);
  // Relabelled to keep weight in place: it moves no more than the fresh labels would.
  EXPECT_LE(watched.migrated.weight, migrated_weight(handle, f, start.parts, fresh.parts));

  const double generous = 10.0 * static_cast<double>(start.cut.edge_cut);
  const hpart::GraphRepartition kept =
      hpart::repartition_graph(comm, f.view(), start.parts, {.parts = kParts, .reference_cut = generous});
  EXPECT_FALSE(kept.from_scratch);
  EXPECT_DOUBLE_EQ(kept.surface_growth, static_cast<double>(kept.cut.edge_cut) / generous);
  EXPECT_LT(kept.migrated.weight, watched.migrated.weight);
}

TEST(GraphRepart, CutWatchFallsBackToAFreshPartition) { cut_watch(MPI_COMM_WORLD); }
TEST(GraphRepart, CutWatchOnSubCommunicators) {
  const HalfWorld half;
  cut_watch(half.comm);
}

// Two constraints: the first is balanced, the second reported.
TEST(GraphRepart, FirstOfTwoConstraintsIsBalanced) {
  const World w;
  const hpart::Comm comm(w.comm);
  hpart::GraphFile f = hpart::testing::grid_graph(kSide, kSide, w.rank, w.size, 2);
  const std::vector<hpart::part_t> parts = hpart::partition_graph(comm, f.view(), fresh_options()).parts;
  for (std::size_t v = 0; v + 1 < f.xadj.size(); ++v)  // heavier first weight in the lower rows
    if (f.coords[2 * v + 1] < kSide / 3) f.vwgt[2 * v] *= 3;
  const auto r = hpart::repartition_graph(comm, f.view(), parts, {.parts = kParts});
  ASSERT_EQ(r.metrics.imbalance.size(), 2u);
  EXPECT_LE(r.metrics.imbalance[0], 0.03 + 1e-9);
}

// The Rebalancer's graph path: the loop of observe / decide / rebalance on a graph whose
// hotspot drifts. Every result keeps every vertex in a part, balances within the tolerance, is
// repartition_graph's for the same options (the Rebalancer adds the cut reference), reports the
// migration and cut one can recount, and a fresh partition becomes the cut reference.
void graph_rebalancer_loop(MPI_Comm handle) {
  const World w(handle);
  const hpart::Comm comm(handle);
  hpart::GraphFile f = hpart::testing::grid_graph(kSide, kSide, w.rank, w.size);
  set_hotspot(f, 0.0);
  hpart::Rebalancer rb(comm, {.parts = kParts, .imbalance = 0.03});
  std::vector<hpart::part_t> parts = rb.partition(f.view()).parts;
  EXPECT_EQ(rb.stats().kind, hpart::RebalanceKind::scratch);
  EXPECT_EQ(rb.stats().surface, rb.stats().surface_fresh);
  EXPECT_EQ(rb.stats().surface, static_cast<double>(hpart::graph_metrics(comm, f.view(), parts, kParts).edge_cut));
  int rebalances = 0;
  for (int step = 1; step <= 6; ++step) {
    set_hotspot(f, 0.08 * step);
    const std::vector<double> costs(f.vwgt.begin(), f.vwgt.end());
    rb.observe({.object_costs = costs});
    if (!rb.decide().rebalance) continue;
    ++rebalances;
    const double fresh_cut = rb.stats().surface_fresh;
    hpart::GraphRepartOptions o{.parts = kParts, .imbalance = 0.03, .reference_cut = fresh_cut};
    const hpart::GraphRepartition direct = hpart::repartition_graph(comm, f.view(), parts, o);
    const hpart::Partition p = rb.rebalance(f.view());  // empty parts: the last returned ones
    ASSERT_EQ(p.parts.size(), parts.size());
    for (hpart::part_t q : p.parts) ASSERT_TRUE(q >= 0 && q < kParts);
    EXPECT_EQ(p.parts, direct.parts) << "step " << step;
    EXPECT_LE(p.metrics.imbalance[0], 0.03 + 1e-9) << "step " << step;
    EXPECT_EQ(rb.stats().kind, direct.from_scratch ? hpart::RebalanceKind::scratch : hpart::RebalanceKind::diffusion);
    EXPECT_DOUBLE_EQ(rb.stats().migrated.weight, migrated_weight(handle, f, parts, p.parts));
    EXPECT_EQ(rb.stats().surface, static_cast<double>(hpart::graph_metrics(comm, f.view(), p.parts, kParts).edge_cut));
    if (rb.stats().kind == hpart::RebalanceKind::diffusion) {
      EXPECT_LE(rb.stats().surface, 1.3 * fresh_cut);
      EXPECT_EQ(rb.stats().surface_fresh, fresh_cut);
    } else {
      EXPECT_EQ(rb.stats().surface_fresh, rb.stats().surface);
    }
    parts = p.parts;
  }
  EXPECT_GE(rebalances, 1);  // the hotspot moves 0.48 of the diagonal: the load must follow
  EXPECT_EQ(rb.stats().rebalances, rebalances);
}

TEST(GraphRebalancer, LoopBalancesAndMatchesRepartitionGraph) { graph_rebalancer_loop(MPI_COMM_WORLD); }
TEST(GraphRebalancer, LoopOnSubCommunicators) {
  const HalfWorld half;
  graph_rebalancer_loop(half.comm);
}

// With incremental off, a rebalance is partition_graph relabelled to keep the most weight in
// place: the cut of the fresh partition, and no more migration than its own labels would cause.
TEST(GraphRebalancer, NotIncrementalIsAFreshRelabelledPartition) {
  const World w;
  const hpart::Comm comm(w.comm);
  hpart::GraphFile f = hpart::testing::grid_graph(kSide, kSide, w.rank, w.size);
  set_hotspot(f, 0.0);
  hpart::Rebalancer rb(comm, {.parts = kParts, .imbalance = 0.03, .incremental = false});
  const std::vector<hpart::part_t> start = rb.partition(f.view()).parts;
  set_hotspot(f, 0.3);
  const hpart::Partition p = rb.rebalance(f.view(), start);
  hpart::GraphOptions fo = fresh_options();
  fo.imbalance = 0.03;
  const hpart::GraphPartition fresh = hpart::partition_graph(comm, f.view(), fo);
  EXPECT_EQ(rb.stats().kind, hpart::RebalanceKind::scratch);
  EXPECT_EQ(rb.stats().surface, static_cast<double>(fresh.cut.edge_cut));
  EXPECT_LE(rb.stats().migrated.weight, migrated_weight(w.comm, f, start, fresh.parts));
  EXPECT_DOUBLE_EQ(rb.stats().migrated.weight, migrated_weight(w.comm, f, start, p.parts));
  EXPECT_LE(p.metrics.imbalance[0], 0.03 + 1e-9);
}

// Without a known partition, rebalance(graph) is a fresh one.
TEST(GraphRebalancer, FirstRebalanceWithoutPartsIsFresh) {
  const World w;
  const hpart::Comm comm(w.comm);
  hpart::GraphFile f = hpart::testing::grid_graph(32, 32, w.rank, w.size);
  set_hotspot(f, 0.5);
  hpart::Rebalancer rb(comm, {.parts = 4, .imbalance = 0.03});
  const hpart::Partition p = rb.rebalance(f.view());
  EXPECT_EQ(rb.stats().kind, hpart::RebalanceKind::scratch);
  EXPECT_EQ(rb.stats().rebalances, 1);
  EXPECT_LE(p.metrics.imbalance[0], 0.03 + 1e-9);
}

// One Rebalancer for the vertices as points, then as a graph, then as points again: each kind
// watches its own surface (a coarse-grid contact count is no edge cut), so a switch never
// triggers a fresh partition by comparing the two, and the reference follows the kind.
TEST(GraphRebalancer, PointsThenGraphKeepTheirOwnSurfaces) {
  const World w;
  const hpart::Comm comm(w.comm);
  hpart::GraphFile f = hpart::testing::grid_graph(kSide, kSide, w.rank, w.size);
  set_hotspot(f, 0.0);
  std::vector<double> weights(f.vwgt.begin(), f.vwgt.end());
  const auto points = [&] { return hpart::PointSet{.coords = f.coords, .dim = 2, .weights = weights, .ncon = 1, .ids = {}}; };
  hpart::Rebalancer rb(comm, {.parts = kParts, .imbalance = 0.03});
  std::vector<hpart::part_t> parts = rb.partition(points()).parts;
  set_hotspot(f, 0.15);
  parts = rb.rebalance(f.view(), parts).parts;
  EXPECT_EQ(rb.stats().kind, hpart::RebalanceKind::diffusion);
  const double cut = static_cast<double>(hpart::graph_metrics(comm, f.view(), parts, kParts).edge_cut);
  EXPECT_EQ(rb.stats().surface_fresh, cut);  // the first cut known becomes the reference
  set_hotspot(f, 0.3);
  weights.assign(f.vwgt.begin(), f.vwgt.end());
  parts = rb.rebalance(points(), parts).parts;
  EXPECT_EQ(rb.stats().kind, hpart::RebalanceKind::diffusion);
  EXPECT_EQ(rb.stats().surface_fresh, rb.stats().surface);  // a point surface again
  EXPECT_LE(rb.stats().imbalance, 0.03 + 1e-9);
}

void graph_rebalancer_bad_input(MPI_Comm handle) {
  const World w(handle);
  const hpart::Comm comm(handle);
  hpart::GraphFile f = hpart::testing::grid_graph(16, 16, w.rank, w.size);
  expect_error_everywhere([&] { hpart::Rebalancer(comm, {.parts = 4, .itr = 0.0}); }, "itr must be");
  for (const bool incremental : {true, false}) {
    hpart::Rebalancer rb(comm, {.parts = 4, .incremental = incremental});
    const std::vector<hpart::part_t> parts = rb.partition(f.view()).parts;
    std::vector<hpart::part_t> longer = parts;
    if (w.rank == w.size - 1) longer.push_back(0);
    expect_error_everywhere([&] { rb.rebalance(f.view(), longer); }, "local vertices");
    std::vector<hpart::part_t> outside = parts;
    if (w.rank == w.size - 1) outside.at(0) = 7;
    expect_error_everywhere([&] { rb.rebalance(f.view(), outside); }, "outside [0, 4)");
    // The last partition was of a 16 x 16 graph: a bigger graph needs its parts passed.
    hpart::GraphFile g = hpart::testing::grid_graph(20, 20, w.rank, w.size);
    expect_error_everywhere([&] { rb.rebalance(g.view()); }, "pass the current part of each local vertex");
    // The Rebalancer stays usable.
    EXPECT_EQ(rb.rebalance(f.view(), parts).parts.size(), parts.size());
  }
}

TEST(GraphRebalancer, BadInputFailsOnEveryRank) { graph_rebalancer_bad_input(MPI_COMM_WORLD); }
TEST(GraphRebalancer, BadInputOnSubCommunicators) {
  const HalfWorld half;
  graph_rebalancer_bad_input(half.comm);
}

void bad_input(MPI_Comm handle) {
  const World w(handle);
  const hpart::Comm comm(handle);
  hpart::GraphFile f = hpart::testing::grid_graph(16, 16, w.rank, w.size);
  std::vector<hpart::part_t> parts(f.xadj.size() - 1, 0);
  for (std::size_t v = 0; v < parts.size(); ++v) parts[v] = static_cast<hpart::part_t>(v % 4);
  // One rank (the last) passes one part too many.
  std::vector<hpart::part_t> longer = parts;
  if (w.rank == w.size - 1) longer.push_back(0);
  expect_error_everywhere([&] { hpart::repartition_graph(comm, f.view(), longer, {.parts = 4}); },
                          "parts for");
  // The last rank (it always holds vertices in these grids) names a part out of range.
  std::vector<hpart::part_t> outside = parts;
  if (w.rank == w.size - 1) outside.at(0) = 4;
  expect_error_everywhere([&] { hpart::repartition_graph(comm, f.view(), outside, {.parts = 4}); },
                          "outside [0, 4)");
  std::vector<hpart::part_t> negative = parts;
  if (w.rank == w.size - 1) negative.at(0) = -1;
  expect_error_everywhere([&] { hpart::repartition_graph(comm, f.view(), negative, {.parts = 4}); }, "has part -1");
  expect_error_everywhere([&] { hpart::repartition_graph(comm, f.view(), parts, {.parts = 4, .itr = 0.0}); },
                          "itr must be");
  expect_error_everywhere([&] { hpart::repartition_graph(comm, f.view(), parts, {.parts = 0}); }, "parts must be");
  expect_error_everywhere(
      [&] { hpart::repartition_graph(comm, f.view(), parts, {.parts = 4, .reference_cut = std::nan("")}); },
      "reference_cut must be");
  expect_error_everywhere(
      [&] { hpart::repartition_graph(comm, f.view(), parts, {.parts = 4, .reference_cut = -1.0}); },
      "reference_cut must be");
  expect_error_everywhere(
      [&] { hpart::repartition_graph(comm, f.view(), parts, {.parts = 4, .max_surface_growth = 0.9}); },
      "max_surface_growth must be");
  // An invalid graph (a negative vertex weight): validate_graph's error, on every rank.
  f.vwgt.assign(f.xadj.size() - 1, 1);
  if (w.rank == w.size - 1) f.vwgt.at(0) = -3;
  expect_error_everywhere([&] { hpart::repartition_graph(comm, f.view(), parts, {.parts = 4}); }, "weight");
}

TEST(GraphRepart, BadInputFailsOnEveryRank) { bad_input(MPI_COMM_WORLD); }
TEST(GraphRepart, BadInputOnSubCommunicators) {
  const HalfWorld half;
  bad_input(half.comm);
}

}  // namespace
