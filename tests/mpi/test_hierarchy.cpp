// Topology (detected and emulated) and hierarchical grid partitioning: parts grouped by node
// inside the node boxes, balanced, a locator for both levels, and less traffic between nodes than
// a flat partition.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <string>

#include "hpart/hpart.hpp"
#include "test_world.hpp"
#include "test_grids.hpp"
#include "test_points.hpp"

namespace {

using hpart::GridMethod;
using hpart::testing::LocalGrid;
using hpart::testing::slab_grid;

using hpart::testing::World;

// An emulated topology for any rank count: pairs of ranks per node when the count is even.
std::string emulated(int ranks) { return ranks % 2 == 0 ? std::to_string(ranks / 2) + "x2" : std::to_string(ranks) + "x1"; }

hpart::Cell local_cell(const hpart::Box& b, std::size_t i) {
  const auto k = static_cast<std::int64_t>(i);
  const std::int64_t nx = b.size(0), ny = b.dim > 1 ? b.size(1) : 1;
  return {b.lo[0] + k % nx, b.lo[1] + (k / nx) % ny, b.dim == 3 ? b.lo[2] + k / (nx * ny) : 0, 0};
}

TEST(Topology, EmulatedSpecAndDetection) {
  const World w;
  const hpart::Comm comm(w.comm);
  const hpart::Topology t = hpart::detect_topology(comm, emulated(w.size));
  EXPECT_EQ(t.nodes, w.size % 2 == 0 ? w.size / 2 : w.size);
  ASSERT_EQ(t.node_of_rank.size(), static_cast<std::size_t>(w.size));
  for (int r = 0; r < w.size; ++r) EXPECT_EQ(t.node_of_rank[static_cast<std::size_t>(r)], w.size % 2 == 0 ? r / 2 : r);
  // One machine: every rank shares memory with every other.
  const hpart::Topology shared = hpart::detect_topology(comm, "");
  if (!std::getenv("HPART_TOPOLOGY")) {
    EXPECT_EQ(shared.nodes, 1);
    EXPECT_EQ(shared.source, "shared-memory");
  }
  // NUMA places (hwloc): one per rank, each a domain of the node or -1 (unknown), and the
  // gathered answer is the same on every rank.
  ASSERT_EQ(shared.numa_of_rank.size(), static_cast<std::size_t>(w.size));
  int sum = 0;
  for (int d : shared.numa_of_rank) {
    EXPECT_GE(d, -1);
    if (d >= 0) {
      EXPECT_LT(d, shared.numa_domains);
    }
    sum += d;
  }
  int lo = sum, hi = sum;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, w.comm);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, w.comm);
  EXPECT_EQ(lo, hi);
}

TEST(Topology, BadSpecsAreErrorsOnEveryRank) {
  const World w;
  const hpart::Comm comm(w.comm);
  for (const std::string& spec : {std::string("abc"), std::string("2x"), std::string("0x4"),
                                 std::to_string(w.size + 1) + "x1"}) {
    bool thrown = false;
    try {
      (void)hpart::detect_topology(comm, spec);
    } catch (const hpart::Error& e) {
      thrown = e.code() == hpart::ErrorCode::invalid_argument;
    }
    EXPECT_TRUE(thrown) << "spec '" << spec << "'";
  }
}

TEST(Hierarchy, PartsGroupedByNodeBalancedAndLocatable) {
  const World w;
  const hpart::Comm comm(w.comm);
  const hpart::Topology t = hpart::detect_topology(comm, emulated(w.size));
  for (int dim : {2, 3}) {
    const LocalGrid lg = slab_grid(dim, dim == 2 ? std::array<std::int64_t, 3>{120, 90, 1} : std::array<std::int64_t, 3>{30, 24, 20},
                                   w.rank, w.size, 20.0);
   for (const hpart::NodeCut cut : {hpart::NodeCut::graph, hpart::NodeCut::staircase, hpart::NodeCut::boxes}) {
    hpart::HierGridOptions opts;
    opts.parts = 2 * w.size + 1;
    opts.node_cut = cut;
    const hpart::HierGridPartition h = hpart::partition_grid_hierarchical(comm, lg.grid, t, opts);
    const auto& p = h;
    ASSERT_EQ(p.num_parts, opts.parts);
    ASSERT_EQ(h.node_of_part.size(), static_cast<std::size_t>(opts.parts));
    EXPECT_EQ(p.metrics.objects, lg.grid.domain().volume());
    EXPECT_EQ(p.metrics.empty_parts, 0);
    // Staircase nodes balance to a cell, graph nodes to a block of cells (small grid: tiny
    // blocks); box nodes only to a cell layer (small grid: a few %).
    EXPECT_LT(p.metrics.imbalance[0], cut == hpart::NodeCut::boxes ? 0.15 : 0.02) << static_cast<int>(cut);
    for (std::size_t i = 0; i < p.parts.size(); ++i) {
      const hpart::Cell c = local_cell(lg.grid.local, i);
      const hpart::part_t q = p.parts[i];
      ASSERT_EQ(p.part_of(c), q);
      ASSERT_TRUE(h.node_boxes[static_cast<std::size_t>(h.node_of_part[static_cast<std::size_t>(q)])].contains(c));
    }
    // Owners: every part's rank is on the part's node.
    for (std::size_t q = 0; q < h.owner_of_part.size(); ++q)
      EXPECT_EQ(t.node_of_rank[static_cast<std::size_t>(h.owner_of_part[q])], h.node_of_part[q]);
    // Level volumes add up to the total halo.
    const hpart::GridNeighbours n = hpart::grid_neighbours(comm, lg.grid, p);
    const hpart::LevelVolumes v = hpart::level_volumes(n, h.node_of_part);
    EXPECT_EQ(v.total, n.halo_volume);
    EXPECT_EQ(v.internode + v.intranode, v.total);
    if (t.nodes == 1) {
      EXPECT_EQ(v.internode, 0);
    }
   }
  }
}

// Node-level blocks cross the network less than a flat curve partition whose parts go to ranks
// in order.
TEST(Hierarchy, LessInternodeTrafficThanFlat) {
  const World w;
  const hpart::Comm comm(w.comm);
  const hpart::Topology t = hpart::detect_topology(comm, emulated(w.size));
  if (t.nodes < 2) GTEST_SKIP() << "one node";
  const LocalGrid lg = slab_grid(3, {40, 40, 40}, w.rank, w.size, 20.0);
  hpart::GridOptions flat_opts;
  flat_opts.parts = w.size;
  flat_opts.method = GridMethod::sfc;
  const auto flat = hpart::partition_grid(comm, lg.grid, flat_opts);
  std::vector<int> flat_nodes;
  for (int q = 0; q < w.size; ++q) flat_nodes.push_back(t.node_of_rank[static_cast<std::size_t>(q)]);  // part q on rank q
  const auto vf = hpart::level_volumes(hpart::grid_neighbours(comm, lg.grid, flat), flat_nodes);
  for (const hpart::NodeCut cut : {hpart::NodeCut::graph, hpart::NodeCut::staircase}) {
    hpart::HierGridOptions opts;
    opts.parts = w.size;
    opts.node_cut = cut;
    const auto hier = hpart::partition_grid_hierarchical(comm, lg.grid, t, opts);
    const auto vh = hpart::level_volumes(hpart::grid_neighbours(comm, lg.grid, hier), hier.node_of_part);
    EXPECT_LE(vh.internode, vf.internode) << static_cast<int>(cut);
    EXPECT_LT(hier.metrics.imbalance[0], 0.01) << static_cast<int>(cut);
  }
}

// The graph node cut sees only exact block sums, so two nodes get the same regions whether they
// have one rank each (a 2-rank sub-communicator) or size/2 each (the world).
TEST(Hierarchy, GraphNodesIndependentOfRanks) {
  const World w;
  if (w.size % 2 != 0) GTEST_SKIP() << "needs an even rank count";
  const hpart::Comm comm(w.comm);
  const std::array<std::int64_t, 3> extent{36, 30, 24};
  const LocalGrid lg = slab_grid(3, extent, w.rank, w.size, 20.0);
  hpart::HierGridOptions opts;
  opts.parts = 4;
  const auto world = hpart::partition_grid_hierarchical(comm, lg.grid, hpart::detect_topology(comm, "2x" + std::to_string(w.size / 2)), opts);
  MPI_Comm pair;
  MPI_Comm_split(w.comm, w.rank < 2 ? 0 : 1, w.rank, &pair);
  if (w.rank < 2) {
    const hpart::Comm two(pair);
    const LocalGrid sub = slab_grid(3, extent, w.rank, 2, 20.0);
    const auto small = hpart::partition_grid_hierarchical(two, sub.grid, hpart::detect_topology(two, "2x1"), opts);
    for (std::size_t i = 0; i < small.parts.size(); ++i) {
      const hpart::Cell c = local_cell(sub.grid.local, i);
      ASSERT_EQ(small.node_of_part[static_cast<std::size_t>(small.parts[i])],
                world.node_of_part[static_cast<std::size_t>(world.part_of(c))]) << "cell " << c[0] << "," << c[1] << "," << c[2];
    }
  }
  MPI_Comm_free(&pair);
}

// Point sets: every point in one part, parts numbered node by node with owners on their node,
// balanced, the same parts on one rank, and a migration by owner_of_part that lands every point
// on a rank of its part's node.
TEST(PointHierarchy, GroupsByNodeBalancesAndMigratesToTheNode) {
  const World w;
  const hpart::Comm comm(w.comm);
  const hpart::Topology t = hpart::detect_topology(comm, emulated(w.size));
  const long long n = 6000;
  const auto [b, e] = hpart::testing::uneven_block(n, w.rank, w.size);
  for (const bool weighted : {false, true}) {
    const auto pts = hpart::testing::make_points(hpart::testing::Shape::clusters, 3, b, e, weighted);
    const hpart::PointSet view{pts.coords, 3, pts.weights, 1, pts.ids};
    hpart::HierPointOptions opts;
    opts.parts = 2 * w.size + 1;
    opts.rank_curve = hpart::Curve::morton;
    const hpart::HierPartition h = hpart::partition_points_hierarchical(comm, view, t, opts);
    ASSERT_EQ(h.parts.size(), pts.ids.size());
    EXPECT_EQ(h.metrics.objects, n);
    EXPECT_EQ(h.metrics.empty_parts, 0);
    EXPECT_LT(h.metrics.imbalance[0], weighted ? 0.05 : 0.01);
    ASSERT_EQ(h.node_of_part.size(), static_cast<std::size_t>(opts.parts));
    for (std::size_t q = 0; q < h.owner_of_part.size(); ++q) {
      EXPECT_EQ(t.node_of_rank[static_cast<std::size_t>(h.owner_of_part[q])], h.node_of_part[q]);
      if (q > 0) {
        EXPECT_GE(h.node_of_part[q], h.node_of_part[q - 1]);  // node by node
      }
    }
    // The same points on one rank (one node per emulated node is not possible there, so compare
    // against a flat partition of the node level: the node of every point must match).
    hpart::PointOptions node_opts;
    node_opts.parts = t.nodes;
    std::vector<double> share;
    for (int i = 0; i < t.nodes; ++i)
      share.push_back(static_cast<double>(std::count(h.node_of_part.begin(), h.node_of_part.end(), i)));
    node_opts.target_sizes = share;
    const auto all = hpart::testing::make_points(hpart::testing::Shape::clusters, 3, 0, n, weighted);
    const hpart::PointSet whole{all.coords, 3, all.weights, 1, all.ids};
    const hpart::Partition ref = hpart::partition_points(hpart::Comm(MPI_COMM_SELF), whole, node_opts);
    for (std::size_t i = 0; i < pts.ids.size(); ++i)
      ASSERT_EQ(h.node_of_part[static_cast<std::size_t>(h.parts[i])], ref.parts[static_cast<std::size_t>(pts.ids[i])]);
    // Migration by the owner map: every point arrives on a rank of its node.
    const hpart::Migration m(comm, h.parts, std::span<const int>(h.owner_of_part));
    const std::vector<hpart::part_t> arrived = m.move(h.parts);
    for (hpart::part_t q : arrived) {
      EXPECT_EQ(h.owner_of_part[static_cast<std::size_t>(q)], w.rank);
    }
    std::vector<int> bad_owner = h.owner_of_part;
    bad_owner.back() = w.size;  // not a rank
    bool refused = false;
    try {
      const hpart::Migration bad(comm, h.parts, std::span<const int>(bad_owner));
    } catch (const hpart::Error& err) {
      refused = err.code() == hpart::ErrorCode::invalid_argument;
    }
    EXPECT_TRUE(refused);
    long long count = static_cast<long long>(arrived.size()), total = 0;
    MPI_Allreduce(&count, &total, 1, MPI_LONG_LONG, MPI_SUM, w.comm);
    EXPECT_EQ(total, n);
  }
  // Bad: a topology for another communicator size, and fewer parts than nodes.
  bool thrown = false;
  try {
    const auto pts = hpart::testing::make_points(hpart::testing::Shape::uniform, 2, b, e, false);
    hpart::Topology wrong = t;
    wrong.node_of_rank.push_back(0);
    hpart::HierPointOptions opts;
    (void)hpart::partition_points_hierarchical(comm, hpart::PointSet{pts.coords, 2, {}, 1, pts.ids}, wrong, opts);
  } catch (const hpart::Error& err) {
    thrown = err.code() == hpart::ErrorCode::invalid_argument;
  }
  EXPECT_TRUE(thrown);
}

TEST(Hierarchy, BadOptions) {
  const World w;
  const hpart::Comm comm(w.comm);
  const hpart::Topology t = hpart::detect_topology(comm, emulated(w.size));
  const LocalGrid lg = slab_grid(2, {40, 30, 1}, w.rank, w.size, 0.0);
  hpart::HierGridOptions opts;
  opts.node_cut = hpart::NodeCut::boxes;
  opts.node_method = GridMethod::sfc;
  bool thrown = false;
  try {
    (void)hpart::partition_grid_hierarchical(comm, lg.grid, t, opts);
  } catch (const hpart::Error& e) {
    thrown = std::string(e.what()).find("box-shaped") != std::string::npos;
  }
  EXPECT_TRUE(thrown);
  hpart::Topology wrong = t;
  wrong.node_of_rank.push_back(0);
  opts.node_method = GridMethod::blocks;
  thrown = false;
  try {
    (void)hpart::partition_grid_hierarchical(comm, lg.grid, wrong, opts);
  } catch (const hpart::Error& e) {
    thrown = std::string(e.what()).find("topology describes") != std::string::npos;
  }
  EXPECT_TRUE(thrown);
}

}  // namespace

namespace {

TEST(ThreadChunks, ContiguousBalancedNonEmpty) {
  std::vector<double> w;
  for (int i = 0; i < 1000; ++i) w.push_back(i % 17 == 0 ? 30.0 : 1.0);
  for (int threads : {1, 3, 8}) {
    const std::vector<int> c = hpart::thread_chunks(w, w.size(), threads);
    std::vector<double> load(static_cast<std::size_t>(threads), 0.0);
    for (std::size_t i = 0; i < c.size(); ++i) {
      if (i > 0) {
        ASSERT_GE(c[i], c[i - 1]);  // contiguous, in order
      }
      load[static_cast<std::size_t>(c[i])] += w[i];
    }
    double total = 0, worst = 0;
    for (double l : load) total += l, worst = std::max(worst, l);
    EXPECT_GT(*std::min_element(load.begin(), load.end()), 0.0);
    EXPECT_LE(worst, total / threads + 30.0);  // within one heaviest object of even
  }
  EXPECT_EQ(hpart::thread_chunks({}, 5, 5), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_THROW((void)hpart::thread_chunks(w, 3, 2), hpart::Error);
  EXPECT_THROW((void)hpart::thread_chunks({}, 3, 0), hpart::Error);
}

}  // namespace
