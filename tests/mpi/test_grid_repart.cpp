// repartition_grid at any rank count and on sub-communicators: a blocks partition whose cost
// hotspot drifts is rebalanced by moving its cut planes. Every result tiles the grid with boxes
// that agree with the parts and the locator, stays within the tolerance, reports the migration
// a recount finds, is the same however the grid is spread over the ranks, and moves less than
// fresh blocks partitions; unchanged costs move nothing; a tree that no longer fits falls back
// to a fresh partition; bad input fails on every rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <vector>

#include "hpart/hpart.hpp"
#include "test_grids.hpp"
#include "test_world.hpp"

namespace {

using hpart::testing::expect_error_everywhere;
using hpart::testing::HalfWorld;
using hpart::testing::LocalGrid;
using hpart::testing::slab_grid;
using hpart::testing::World;

constexpr int kParts = 8;
constexpr double kTolerance = 0.03;

hpart::Cell local_cell(const hpart::Box& b, std::size_t i) {
  const auto k = static_cast<std::int64_t>(i);
  const std::int64_t nx = b.size(0), ny = b.dim > 1 ? b.size(1) : 1;
  return {b.lo[0] + k % nx, b.lo[1] + (k / nx) % ny, b.dim == 3 ? b.lo[2] + k / (nx * ny) : 0, 0};
}

// Cost 1 + 8 exp(-r^2 / 2 sigma^2) around a centre on the diagonal at fraction t of the way.
void set_costs(LocalGrid& lg, double t) {
  const hpart::Grid& g = lg.grid;
  const auto n = static_cast<std::size_t>(g.local.empty() ? 0 : g.local.volume());
  lg.cost.resize(n);
  const double c = 0.2 + 0.6 * t, sigma = 0.15;
  for (std::size_t i = 0; i < n; ++i) {
    const hpart::Cell cell = local_cell(g.local, i);
    double r2 = 0.0;
    for (int d = 0; d < g.dim; ++d) {
      const double u = (static_cast<double>(cell[static_cast<std::size_t>(d)]) + 0.5) /
                           static_cast<double>(g.extent[static_cast<std::size_t>(d)]) - c;
      r2 += u * u;
    }
    lg.cost[i] = 1.0 + 8.0 * std::exp(-r2 / (2 * sigma * sigma));
  }
  lg.grid.cost = lg.cost;
}

hpart::GridPartition fresh_blocks(const hpart::Comm& comm, const hpart::Grid& g) {
  hpart::GridOptions o;
  o.parts = kParts;
  o.method = hpart::GridMethod::blocks;
  return hpart::partition_grid(comm, g, o);
}

// Cost of the local cells whose part differs between a and b, summed over the ranks.
double moved_between(MPI_Comm comm, const LocalGrid& lg, const hpart::GridPartition& a, const hpart::GridPartition& b) {
  double w = 0.0;
  for (std::size_t i = 0; i < lg.cost.size(); ++i) {
    const hpart::Cell cell = local_cell(lg.grid.local, i);
    if (a.part_of(cell) != b.part_of(cell)) w += lg.cost[i];
  }
  MPI_Allreduce(MPI_IN_PLACE, &w, 1, MPI_DOUBLE, MPI_SUM, comm);
  return w;
}

void drifting_hotspot(MPI_Comm handle, int dim, std::array<std::int64_t, 3> extent) {
  int rank = 0, size = 1;
  MPI_Comm_rank(handle, &rank);
  MPI_Comm_size(handle, &size);
  const hpart::Comm comm(handle);
  LocalGrid lg = slab_grid(dim, extent, rank, size, 0.0);
  LocalGrid alone = slab_grid(dim, extent, 0, 1, 0.0);  // the whole grid on this rank alone
  set_costs(lg, 0.0);
  hpart::GridPartition current = fresh_blocks(comm, lg.grid);
  hpart::GridPartition current_alone = fresh_blocks(hpart::Comm(MPI_COMM_SELF), (set_costs(alone, 0.0), alone.grid));
  const long long cells = lg.grid.domain().volume();
  double incremental = 0.0, fresh = 0.0;
  int kept = 0;
  for (int step = 1; step <= 6; ++step) {
    set_costs(lg, 0.12 * step);
    const hpart::GridRepartOptions o{.parts = kParts, .imbalance = kTolerance};
    const hpart::GridRepartition r = hpart::repartition_grid(comm, lg.grid, current, o);
    const hpart::GridPartition& p = r;
    EXPECT_FALSE(r.from_scratch) << "step " << step;
    kept += (kParts - 1) - r.steps;
    // Every cell in exactly one part, inside that part's box, as the locator says.
    ASSERT_EQ(p.metrics.objects, cells);
    long long volume = 0;
    for (const hpart::Box& b : p.boxes) volume += b.empty() ? 0 : b.volume();
    EXPECT_EQ(volume, cells);
    for (std::size_t i = 0; i < p.parts.size(); ++i) {
      const hpart::Cell cell = local_cell(lg.grid.local, i);
      const hpart::part_t q = p.parts[i];
      ASSERT_TRUE(q >= 0 && q < kParts);
      ASSERT_EQ(p.part_of(cell), q);
      ASSERT_TRUE(p.boxes[static_cast<std::size_t>(q)].contains(cell));
    }
    // Within the tolerance (layers are whole cells: a fresh partition's own imbalance is allowed on top).
    const hpart::GridPartition f = fresh_blocks(comm, lg.grid);
    EXPECT_LE(p.metrics.imbalance[0], kTolerance + f.metrics.imbalance[0] + 1e-12) << "step " << step;
    // The migration reported is what a recount finds, and the cell count too.
    EXPECT_NEAR(r.migrated.weight, moved_between(handle, lg, current, p), 1e-9 * r.migrated.weight + 1e-9);
    // The same on one rank alone.
    set_costs(alone, 0.12 * step);
    const hpart::GridRepartition ra = hpart::repartition_grid(hpart::Comm(MPI_COMM_SELF), alone.grid, current_alone, o);
    EXPECT_EQ(ra.boxes, p.boxes) << "step " << step << ": differs from the np 1 result";
    EXPECT_EQ(ra.steps, r.steps);
    incremental += r.migrated.weight;
    fresh += moved_between(handle, lg, current, f);
    current = p;
    current_alone = ra;
  }
  EXPECT_GT(kept, 0);                // some planes stayed where they were
  EXPECT_GT(incremental, 0.0);       // and the drift moved others
  EXPECT_LT(incremental, fresh);     // less than fresh partitions moved
}

TEST(GridRepart, DriftingHotspot2d) { drifting_hotspot(MPI_COMM_WORLD, 2, {96, 80, 1}); }
TEST(GridRepart, DriftingHotspot3d) { drifting_hotspot(MPI_COMM_WORLD, 3, {24, 20, 28}); }
TEST(GridRepart, DriftingHotspotOnSubCommunicators) {
  const HalfWorld half;
  drifting_hotspot(half.comm, 2, {96, 80, 1});
}

// Unchanged costs: every plane stays, nothing moves, the partition is the previous one.
TEST(GridRepart, UnchangedCostsMoveNothing) {
  const World w;
  const hpart::Comm comm(w.comm);
  LocalGrid lg = slab_grid(2, {64, 48, 1}, w.rank, w.size, 0.0);
  set_costs(lg, 0.3);
  const hpart::GridPartition p = fresh_blocks(comm, lg.grid);
  const hpart::GridRepartition r = hpart::repartition_grid(comm, lg.grid, p, {.parts = kParts});
  EXPECT_EQ(r.steps, 0);
  EXPECT_EQ(r.migrated.objects, 0);
  EXPECT_EQ(r.migrated.weight, 0.0);
  EXPECT_EQ(r.boxes, p.boxes);
  EXPECT_EQ(r.parts, p.parts);
}

// An 8 x 2 grid in 4 parts is cut along x twice; all the cost in column 0 moves the root plane
// to x = 1, where the lower box (one column, two parts) can no longer be cut along x: fresh.
TEST(GridRepart, TreeThatNoLongerFitsFallsBackToFresh) {
  const World w;
  const hpart::Comm comm(w.comm);
  LocalGrid lg = slab_grid(2, {8, 2, 1}, w.rank, w.size, 0.0);
  hpart::GridOptions o;
  o.parts = 4;
  o.method = hpart::GridMethod::blocks;
  const hpart::GridPartition p = hpart::partition_grid(comm, lg.grid, o);
  lg.cost.assign(static_cast<std::size_t>(lg.grid.local.empty() ? 0 : lg.grid.local.volume()), 1.0);
  for (std::size_t i = 0; i < lg.cost.size(); ++i)
    if (local_cell(lg.grid.local, i)[0] == 0) lg.cost[i] = 100.0;
  lg.grid.cost = lg.cost;
  const hpart::GridRepartition r = hpart::repartition_grid(comm, lg.grid, p, {.parts = 4});
  EXPECT_TRUE(r.from_scratch);
  const hpart::GridPartition f = hpart::partition_grid(comm, lg.grid, o);
  EXPECT_EQ(r.boxes, f.boxes);
  EXPECT_DOUBLE_EQ(r.migrated.weight, moved_between(w.comm, lg, p, r));
}

void bad_input(MPI_Comm handle) {
  int rank = 0, size = 1;
  MPI_Comm_rank(handle, &rank);
  MPI_Comm_size(handle, &size);
  const hpart::Comm comm(handle);
  LocalGrid lg = slab_grid(2, {64, 48, 1}, rank, size, 0.0);
  set_costs(lg, 0.0);
  const hpart::GridPartition blocks = fresh_blocks(comm, lg.grid);
  expect_error_everywhere([&] { hpart::repartition_grid(comm, lg.grid, blocks, {.parts = kParts + 1}); },
                          "has 8 parts but parts = 9");
  expect_error_everywhere(
      [&] { hpart::repartition_grid(comm, lg.grid, blocks, {.parts = kParts, .imbalance = std::nan("")}); },
      "imbalance must be in [0, 10)");
  expect_error_everywhere([&] { hpart::repartition_grid(comm, lg.grid, blocks, {.parts = kParts, .imbalance = -1}); },
                          "imbalance must be in [0, 10)");
  hpart::GridOptions so;
  so.parts = kParts;
  so.method = hpart::GridMethod::sfc;
  const hpart::GridPartition sfc = hpart::partition_grid(comm, lg.grid, so);
  expect_error_everywhere([&] { hpart::repartition_grid(comm, lg.grid, sfc, {.parts = kParts}); },
                          "not made by the blocks method");
  // A partition of another grid.
  LocalGrid other = slab_grid(2, {32, 48, 1}, rank, size, 0.0);
  const hpart::GridPartition small = fresh_blocks(comm, other.grid);
  expect_error_everywhere([&] { hpart::repartition_grid(comm, lg.grid, small, {.parts = kParts}); },
                          "cover 1536 cells, the grid has 3072");
  // Bad costs are caught as by partition_grid.
  if (!lg.cost.empty()) lg.cost[0] = -1.0;
  expect_error_everywhere([&] { hpart::repartition_grid(comm, lg.grid, blocks, {.parts = kParts}); }, "cost");
}

TEST(GridRepart, BadInputFailsOnEveryRank) { bad_input(MPI_COMM_WORLD); }
TEST(GridRepart, BadInputOnSubCommunicators) {
  const HalfWorld half;
  bad_input(half.comm);
}

}  // namespace
