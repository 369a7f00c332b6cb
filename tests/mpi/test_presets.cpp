// The presets (hpart::Preset fast / standard / strong) of every kind that has them: each gives a
// valid partition (one part in range per object, within the tolerance it records), standard is
// the kind's defaults, fast and strong change what the headers say, and the names round-trip.
#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "hpart/hpart.hpp"
#include "test_grids.hpp"
#include "test_points.hpp"
#include "test_world.hpp"

namespace {

using hpart::Preset;
constexpr Preset kPresets[] = {Preset::fast, Preset::standard, Preset::strong};

void expect_valid(const hpart::Partition& p, std::size_t local, int K, const char* what) {
  ASSERT_EQ(p.parts.size(), local) << what;
  for (hpart::part_t q : p.parts) ASSERT_TRUE(q >= 0 && q < K) << what;
  EXPECT_TRUE(p.metrics.within_tolerance) << what << " imbalance " << p.metrics.imbalance[0];
}

TEST(Presets, NamesRoundTrip) {
  for (Preset p : kPresets) EXPECT_EQ(hpart::preset_from_string(hpart::to_string(p)), p);
  EXPECT_EQ(hpart::preset_from_string("default"), Preset::standard);
  hpart::testing::expect_error_everywhere([] { (void)hpart::preset_from_string("best"); }, "unknown preset 'best'");
}

TEST(Presets, Points) {
  const hpart::testing::World w;
  const hpart::Comm comm(w.comm);
  // Unit weights and enough points that one point is below the strong preset's 0.01% of a part.
  const long long n = 200000, b = n * w.rank / w.size, e = n * (w.rank + 1) / w.size;
  const auto pts = hpart::testing::make_points(hpart::testing::Shape::clusters, 3, b, e, false);
  const hpart::PointSet view{.coords = pts.coords, .dim = 3, .weights = pts.weights, .ids = pts.ids};
  const int K = 9;
  for (Preset p : kPresets) {
    const hpart::PointOptions o = hpart::PointOptions::preset(p, K);
    EXPECT_EQ(o.parts, K);
    expect_valid(hpart::partition_points(comm, view, o), pts.ids.size(), K, hpart::to_string(p));
  }
  const hpart::PointOptions fast = hpart::PointOptions::preset(Preset::fast, K);
  EXPECT_EQ(fast.curve, hpart::Curve::morton);
  EXPECT_EQ(hpart::partition_points(comm, view, fast).parts,
            hpart::partition_points(comm, view, {.parts = K, .curve = hpart::Curve::morton, .imbalance = 0.01}).parts);
  const hpart::PointOptions standard = hpart::PointOptions::preset(Preset::standard, K);
  EXPECT_EQ(hpart::partition_points(comm, view, standard).parts, hpart::partition_points(comm, view, {.parts = K}).parts);
  EXPECT_LT(hpart::PointOptions::preset(Preset::strong, K).imbalance, standard.imbalance);
  const hpart::HierPointOptions h = hpart::HierPointOptions::preset(Preset::fast, K);
  EXPECT_EQ(h.node_curve, hpart::Curve::morton);
  EXPECT_EQ(h.rank_curve, hpart::Curve::morton);
}

TEST(Presets, GridsAndHierarchy) {
  const hpart::testing::World w;
  const hpart::Comm comm(w.comm);
  const auto lg = hpart::testing::slab_grid(2, {96, 80, 1}, w.rank, w.size, 4.0);
  hpart::Grid g = lg.grid;
  g.cost = lg.cost;
  const int K = 6;
  for (Preset p : kPresets) {
    const hpart::GridPartition r = hpart::partition_grid(comm, g, hpart::GridOptions::preset(p, K));
    expect_valid(r, static_cast<std::size_t>(g.local.volume()), K, hpart::to_string(p));
  }
  EXPECT_EQ(hpart::GridOptions::preset(Preset::fast, K).method, hpart::GridMethod::sfc);
  EXPECT_EQ(hpart::GridOptions::preset(Preset::standard, K).method, hpart::GridOptions{}.method);
  const hpart::Topology topo = hpart::detect_topology(comm, std::to_string(w.size) + "x1");
  for (Preset p : kPresets) {
    const hpart::HierGridPartition r =
        hpart::partition_grid_hierarchical(comm, g, topo, hpart::HierGridOptions::preset(p, 2 * w.size));
    ASSERT_EQ(r.parts.size(), static_cast<std::size_t>(g.local.volume()));
    for (hpart::part_t q : r.parts) ASSERT_TRUE(q >= 0 && q < 2 * w.size);
  }
  EXPECT_EQ(hpart::HierGridOptions::preset(Preset::fast, K).node_cut, hpart::NodeCut::boxes);
  EXPECT_EQ(hpart::HierGridOptions::preset(Preset::standard, K).node_cut, hpart::HierGridOptions{}.node_cut);
}

TEST(Presets, Patches) {
  const hpart::testing::World w;
  const hpart::Comm comm(w.comm);
  // A 12 x 10 array of 8 x 8 patches over a 96 x 80 level, dealt round-robin over the ranks,
  // costs growing towards one corner.
  std::vector<hpart::Box> boxes;
  std::vector<double> cost;
  for (int j = 0, k = 0; j < 10; ++j)
    for (int i = 0; i < 12; ++i, ++k) {
      if (k % w.size != w.rank) continue;
      hpart::Box b = hpart::Box::from_extent(2, {8, 8, 1, 1});
      b.lo[0] = 8 * i, b.hi[0] = 8 * i + 7, b.lo[1] = 8 * j, b.hi[1] = 8 * j + 7;
      boxes.push_back(b);
      cost.push_back(1.0 + i + j);
    }
  const hpart::PatchList list{.dim = 2, .extent = {96, 80, 1}, .boxes = boxes, .cost = cost};
  const int K = 5;
  for (Preset p : kPresets) {
    const hpart::PatchPartition r = hpart::partition_patches(comm, list, hpart::PatchOptions::preset(p, K));
    ASSERT_EQ(r.parts.size(), boxes.size());
    for (hpart::part_t q : r.parts) ASSERT_TRUE(q >= 0 && q < K);
  }
  EXPECT_EQ(hpart::PatchOptions::preset(Preset::fast, K).method, hpart::PatchMethod::sfc);
  EXPECT_EQ(hpart::PatchOptions::preset(Preset::strong, K).imbalance, 0.0);
}

}  // namespace
