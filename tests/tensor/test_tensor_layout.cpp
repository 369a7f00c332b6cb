// ShardLayout: boxes disjoint and covering, meshes and neighbours, uneven splits from the grid
// partitioner (balanced by a cost field, aligned), explicit extents, and bad input rejected on
// every rank.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "hpart/tensor/layout.hpp"
#include "test_world.hpp"

namespace {

using namespace hpart::tensor;
using hpart::testing::expect_error_everywhere;
using hpart::testing::World;

// Every cell in exactly one primary box; replicas hold copies of primary boxes.
void expect_primary_cover(const ShardLayout& l) {
  std::int64_t covered = 0;
  for (int r = 0; r < l.size(); ++r) {
    if (!l.is_primary(r)) continue;
    const hpart::Box& b = l.box(r);
    covered += b.volume();
    EXPECT_TRUE(b.empty() || b.intersect(whole_box(l.shape())) == b) << b.str();
    for (int q = 0; q < r; ++q) {
      if (l.is_primary(q)) {
        EXPECT_TRUE(b.intersect(l.box(q)).empty()) << r << " " << q;
      }
    }
  }
  EXPECT_EQ(covered, l.shape().volume());
}

TEST(TensorLayout, SlabsCoverEvenAndUneven) {
  const World w;
  const hpart::Comm comm(w.comm);
  for (std::int64_t h : {8, 13, 1, 5}) {
    const auto shape = TensorShape::d2(2, 3, h, 7);
    if (h < w.size) continue;
    const auto l = ShardLayout::sharded(comm, shape, Mesh::slabs(w.size));
    expect_primary_cover(l);
    EXPECT_EQ(l.local_box().extent(kAxisW), 7);
    EXPECT_EQ(l.local_box().extent(kAxisN), 2);
    // Balanced unit costs: extents differ by at most one.
    const auto e = extents_from_starts(l.starts(kAxisH), h);
    const auto [mn, mx] = std::minmax_element(e.begin(), e.end());
    EXPECT_LE(*mx - *mn, 1);
  }
}

TEST(TensorLayout, MeshCoordinatesAndNeighbours) {
  const World w;
  const hpart::Comm comm(w.comm);
  const int ph = w.size % 2 == 0 ? 2 : 1;
  const Mesh mesh = Mesh::grid2d(ph, w.size / ph).with_periodic(false, true, false);
  const auto l = ShardLayout::sharded(comm, TensorShape::d2(1, 1, 9, 10), mesh);
  expect_primary_cover(l);
  for (int r = 0; r < w.size; ++r) {
    const auto c = l.mesh_coord(r);
    EXPECT_EQ(l.rank_at(c, 0), r);
    // Periodic along H: always a neighbour; along W only inside the mesh.
    const int up = l.neighbour(r, {0, 0, 0, -1, 0});
    EXPECT_GE(up, 0);
    EXPECT_EQ(l.neighbour(up, {0, 0, 0, +1, 0}), r);
    const int right = l.neighbour(r, {0, 0, 0, 0, +1});
    EXPECT_EQ(right < 0, c[kAxisW] == mesh.parts[kAxisW] - 1);
    if (right >= 0) {
      EXPECT_EQ(l.box(right).lo[kAxisW], l.box(r).hi[kAxisW] + 1);
    }
  }
}

TEST(TensorLayout, ThreeDOnTwoDMeshAndBatchShards) {
  const World w;
  const hpart::Comm comm(w.comm);
  const auto shape = TensorShape::d3(4, 2, 6, 5, 4);
  Mesh m = Mesh::grid3d(1, w.size % 2 == 0 ? 2 : 1, w.size % 2 == 0 ? w.size / 2 : w.size);
  expect_primary_cover(ShardLayout::sharded(comm, shape, m));
  expect_primary_cover(ShardLayout::sharded(comm, shape, Mesh::along(kAxisD, w.size)));
  // The batch sharded, the spatial axes whole.
  const auto b = ShardLayout::sharded(comm, shape, Mesh::along(kAxisN, w.size));
  expect_primary_cover(b);
  EXPECT_EQ(b.local_box().extent(kAxisD), b.local_box().empty() ? 0 : 6);
}

TEST(TensorLayout, ReplicatedAndOnRank) {
  const World w;
  const hpart::Comm comm(w.comm);
  const auto shape = TensorShape::d2(1, 2, 5, 3);
  const auto rep = ShardLayout::replicated(comm, shape);
  expect_primary_cover(rep);
  EXPECT_EQ(rep.local_box(), whole_box(shape));
  EXPECT_EQ(rep.is_primary(w.rank), w.rank == 0);
  const int root = w.size - 1;
  const auto one = ShardLayout::on_rank(comm, shape, root);
  expect_primary_cover(one);
  EXPECT_EQ(one.local_box().empty(), w.rank != root);
  // Half the ranks as replicas of a 1-D split over the other half's count.
  if (w.size % 2 == 0) {
    Mesh m = Mesh::slabs(w.size / 2);
    m.replicas = 2;
    const auto half = ShardLayout::sharded(comm, shape, m);
    expect_primary_cover(half);
    EXPECT_EQ(half.local_box(), half.box(w.rank % (w.size / 2)));
  }
}

TEST(TensorLayout, WeightedByCostFieldIsUneven) {
  const World w;
  const hpart::Comm comm(w.comm);
  if (w.size == 1) GTEST_SKIP() << "one shard";
  const std::int64_t H = 64, W = 16;
  const auto shape = TensorShape::d2(1, 1, H, W);
  // Each rank passes the cost of a slab of rows; rows near the top cost 10x.
  SplitOptions split;
  split.cost_box.dim = 2;
  const std::int64_t r0 = H * w.rank / w.size, r1 = H * (w.rank + 1) / w.size;
  split.cost_box.lo = {0, r0, 0, 0};
  split.cost_box.hi = {W - 1, r1 - 1, 0, 0};
  std::vector<double> cost;
  for (std::int64_t y = r0; y < r1; ++y)
    for (std::int64_t x = 0; x < W; ++x) cost.push_back(y < H / 4 ? 10.0 : 1.0);
  split.cost = cost;
  const auto l = ShardLayout::sharded(comm, shape, Mesh::slabs(w.size), split);
  expect_primary_cover(l);
  const auto e = extents_from_starts(l.starts(kAxisH), H);
  EXPECT_LT(e.front(), e.back());  // the costly top rows make the first shard thinner
  // Balanced within the binning: each shard's cost within 2 rows' worth of the mean.
  const double total = 10.0 * W * (H / 4) + 1.0 * W * (H - H / 4);
  std::int64_t s = 0;
  for (std::int64_t ext : e) {
    double c = 0;
    for (std::int64_t y = s; y < s + ext; ++y) c += W * (y < H / 4 ? 10.0 : 1.0);
    EXPECT_NEAR(c, total / w.size, 2 * 10.0 * W + 1) << "extent " << ext;
    s += ext;
  }
}

TEST(TensorLayout, AlignedStartsAndRemainder) {
  const std::vector<std::int64_t> s{0, 5, 11, 17};
  EXPECT_EQ(aligned_starts(s, 23, 4), (std::vector<std::int64_t>{0, 4, 12, 16}));  // last: 16..22 (7 cells)
  EXPECT_EQ(aligned_starts(s, 23, 1), s);
  // Too few blocks for a block each: monotone, some shards empty.
  const auto t = aligned_starts(std::vector<std::int64_t>{0, 1, 2, 3}, 5, 4);
  EXPECT_TRUE(std::is_sorted(t.begin(), t.end()));
  EXPECT_EQ(t.front(), 0);
  const World w;
  const hpart::Comm comm(w.comm);
  SplitOptions split;
  split.align_levels = 2;
  const auto l = ShardLayout::sharded(comm, TensorShape::d2(1, 1, 4 * w.size + 3, 8), Mesh::slabs(w.size), split);
  expect_primary_cover(l);
  for (std::int64_t st : l.starts(kAxisH)) EXPECT_EQ(st % 4, 0);
}

TEST(TensorLayout, ExplicitExtents) {
  const World w;
  const hpart::Comm comm(w.comm);
  SplitOptions split;
  split.method = SplitMethod::explicit_extents;
  std::vector<std::int64_t> e(static_cast<std::size_t>(w.size), 1);
  e.back() = 10;  // H = size - 1 + 10
  split.extents[kAxisH] = e;
  const auto l = ShardLayout::sharded(comm, TensorShape::d2(1, 1, w.size + 9, 4), Mesh::slabs(w.size), split);
  expect_primary_cover(l);
  EXPECT_EQ(l.local_box().extent(kAxisH), w.rank == w.size - 1 ? 10 : 1);
  // Extents that do not add up to the tensor: an error on every rank.
  split.extents[kAxisH].back() = 3;
  expect_error_everywhere(
      [&] { (void)ShardLayout::sharded(comm, TensorShape::d2(1, 1, w.size + 9, 4), Mesh::slabs(w.size), split); },
      "does not cover");
  split.extents[kAxisH].back() = 11;
  expect_error_everywhere(
      [&] { (void)ShardLayout::sharded(comm, TensorShape::d2(1, 1, w.size + 9, 4), Mesh::slabs(w.size), split); },
      "add up to more than");
}

TEST(TensorLayout, BadInputIsAnErrorOnEveryRank) {
  const World w;
  const hpart::Comm comm(w.comm);
  // A mesh that does not match the communicator.
  expect_error_everywhere([&] { (void)ShardLayout::sharded(comm, TensorShape::d2(1, 1, 8, 8), Mesh::slabs(w.size + 1)); },
                          "the communicator has");
  // Global shapes that differ across ranks (only the last rank disagrees).
  const std::int64_t h = w.rank == w.size - 1 && w.size > 1 ? 9 : 8;
  if (w.size > 1)
    expect_error_everywhere([&] { (void)ShardLayout::sharded(comm, TensorShape::d2(1, 1, h, 8), Mesh::slabs(w.size)); },
                            "TensorShape::extent[H] differs between ranks (from 8 to 9)");
  // A bad shape, D > 1 for a 2-D tensor.
  expect_error_everywhere([&] { (void)ShardLayout::replicated(comm, TensorShape{2, {1, 1, 3, 4, 4}}); }, "D = 1");
  expect_error_everywhere([&] { (void)ShardLayout::on_rank(comm, TensorShape::d2(1, 1, 4, 4), w.size); }, "root");
  // Boxes that leave a gap, or overlap.
  const auto shape = TensorShape::d2(1, 1, 4, 4);
  hpart::Box gap = whole_box(shape);
  gap.hi[kAxisH] = 2;  // every rank the top 3 rows: overlap when size > 1, a gap at size 1
  expect_error_everywhere([&] { (void)ShardLayout::from_boxes(comm, shape, w.rank == 0 ? gap : empty_box()); },
                          "do not cover");
  if (w.size > 1)
    expect_error_everywhere([&] { (void)ShardLayout::from_boxes(comm, shape, whole_box(shape)); }, "overlap");
}

// One box type for grids and tensors: each side keeps its meanings, and the two orders never mix.
TEST(TensorLayout, TensorBoxesAreBoxes) {
  const auto shape = TensorShape::d2(2, 3, 4, 5);
  const hpart::Box whole = whole_box(shape);
  EXPECT_EQ(whole.dim, kRank);
  EXPECT_EQ(whole.order, hpart::AxisOrder::last_fastest);
  EXPECT_EQ(whole.volume(), shape.volume());
  EXPECT_EQ(whole.extents(), shape.extent);
  EXPECT_EQ(whole.str(), "[0..1, 0..2, 0..0, 0..3, 0..4]");
  // Empty only along H: size() clamps that axis alone, extent() is 0 on every axis.
  hpart::Box rows = whole;
  rows.lo[kAxisH] = 3, rows.hi[kAxisH] = 2;
  EXPECT_TRUE(rows.empty());
  EXPECT_EQ(rows.size(kAxisW), 5);
  EXPECT_EQ(rows.size(kAxisH), 0);
  EXPECT_EQ(rows.extent(kAxisW), 0);
  EXPECT_EQ(rows.extents(), (Index5{0, 0, 0, 0, 0}));
  EXPECT_EQ(rows.volume(), 0);
  EXPECT_EQ(rows.str(), "[empty]");
  // Equality: bounds exactly; same_cells: every empty box alike.
  EXPECT_FALSE(rows == empty_box());
  EXPECT_TRUE(rows.same_cells(empty_box()));
  EXPECT_FALSE(whole.same_cells(empty_box()));
  EXPECT_TRUE(whole.same_cells(tensor_box({0, 0, 0, 0, 0}, {1, 2, 0, 3, 4})));
  // The spatial part in grid order (x = W, y = H).
  const hpart::Box grid = spatial_box(whole, 2);
  EXPECT_EQ(grid, hpart::Box::from_extent(2, {5, 4}));
  EXPECT_EQ(grid.str(), "[0..4, 0..3]");
  EXPECT_TRUE(spatial_box(rows, 2).empty());
  // A grid box and a tensor box never meet.
  EXPECT_FALSE(grid.same_cells(whole));
  EXPECT_THROW((void)whole.intersect(hpart::Box::from_extent(kRank, shape.extent)), hpart::Error);
  EXPECT_THROW((void)spatial_box(grid, 2), hpart::Error);
  // A grid box is not a tensor box for from_boxes (an empty Box{} is none).
  World w(MPI_COMM_WORLD);
  const hpart::Comm comm(MPI_COMM_WORLD);
  const auto one_row = TensorShape::d2(1, 1, w.size, 3);
  hpart::Box mine = whole_box(one_row);
  mine.lo[kAxisH] = mine.hi[kAxisH] = w.rank;
  EXPECT_TRUE(ShardLayout::from_boxes(comm, one_row, mine).local_box().same_cells(mine));
  if (w.rank == 0) mine = hpart::Box::from_extent(kRank, one_row.extent);
  expect_error_everywhere([&] { (void)ShardLayout::from_boxes(comm, one_row, mine); }, "not a tensor box");
}

TEST(TensorLayout, FromBoxesOnSubCommunicator) {
  const hpart::testing::HalfWorld half;
  const hpart::Comm comm(half.comm);
  const auto shape = TensorShape::d2(1, 1, 2 * half.size, 3);
  hpart::Box b = whole_box(shape);
  b.lo[kAxisH] = 2 * half.rank, b.hi[kAxisH] = 2 * half.rank + 1;
  const auto l = ShardLayout::from_boxes(comm, shape, b);
  expect_primary_cover(l);
  EXPECT_FALSE(l.has_mesh());
}

}  // namespace
