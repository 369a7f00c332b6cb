// Grid partitioning at any rank count: every cell in exactly one part, boxes that tile the grid,
// a locator that agrees with the parts, the same partition however the grid is spread over ranks,
// balance within the bound of each method, neighbour lists and halo volumes that agree between
// the box formula and a cell count, and bad input rejected on every rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <map>
#include <string>

#include "hpart/hpart.hpp"
#include "test_world.hpp"
#include "test_grids.hpp"

namespace {

using hpart::GridMethod;
using hpart::testing::LocalGrid;
using hpart::testing::slab_grid;

using hpart::testing::World;

hpart::Cell local_cell(const hpart::Box& b, std::size_t i) {
  const auto k = static_cast<std::int64_t>(i);
  const std::int64_t nx = b.size(0), ny = b.dim > 1 ? b.size(1) : 1;
  return {b.lo[0] + k % nx, b.lo[1] + (k / nx) % ny, b.dim == 3 ? b.lo[2] + k / (nx * ny) : 0, 0};
}

struct Case {
  int dim;
  std::array<std::int64_t, 3> extent;
  int parts;
  GridMethod method;
  double peak;  // hotspot cost (0: unit cost)
};

class GridProperties : public ::testing::TestWithParam<Case> {};

TEST_P(GridProperties, TilesBalancesAndIsIndependentOfRanks) {
  const World w;
  const Case c = GetParam();
  const LocalGrid lg = slab_grid(c.dim, c.extent, w.rank, w.size, c.peak);
  hpart::GridOptions opts;
  opts.parts = c.parts;
  opts.method = c.method;
  const hpart::GridPartition p = hpart::partition_grid(hpart::Comm(w.comm), lg.grid, opts);
  const long long cells = lg.grid.domain().volume();
  ASSERT_EQ(p.metrics.objects, cells);
  ASSERT_EQ(p.boxes.size(), static_cast<std::size_t>(c.parts));

  // The locator agrees with the parts; box-shaped parts contain their cells.
  for (std::size_t i = 0; i < p.parts.size(); ++i) {
    const hpart::Cell cell = local_cell(lg.grid.local, i);
    const hpart::part_t q = p.parts[i];
    ASSERT_GE(q, 0);
    ASSERT_LT(q, c.parts);
    ASSERT_EQ(p.part_of(cell), q);
    ASSERT_TRUE(p.boxes[static_cast<std::size_t>(q)].contains(cell)) << "cell in part " << q << " outside its box";
  }
  // Boxes of box-shaped parts tile the grid: volumes add up to it and match the part sizes.
  if (p.box_shaped) {
    long long sum = 0;
    for (int q = 0; q < c.parts; ++q) {
      sum += p.boxes[static_cast<std::size_t>(q)].empty() ? 0 : p.boxes[static_cast<std::size_t>(q)].volume();
      EXPECT_EQ(p.part_sizes[static_cast<std::size_t>(q)],
                p.boxes[static_cast<std::size_t>(q)].empty() ? 0 : p.boxes[static_cast<std::size_t>(q)].volume());
    }
    EXPECT_EQ(sum, cells);
  }
  // The same grid on one rank alone gives the same partition (cell by cell via the locators).
  const LocalGrid alone = slab_grid(c.dim, c.extent, 0, 1, c.peak);
  const hpart::GridPartition ref = hpart::partition_grid(hpart::Comm(MPI_COMM_SELF), alone.grid, opts);
  for (std::size_t i = 0; i < p.parts.size(); ++i)
    ASSERT_EQ(ref.part_of(local_cell(lg.grid.local, i)), p.parts[i]) << "differs from the np 1 partition";
  EXPECT_EQ(ref.part_weights, p.part_weights);

  // Balance within what each method can promise.
  if (c.method == GridMethod::sfc) {
    const double wmax = 1.0 + c.peak, avg = p.part_weights.empty() ? 1.0 : [&] {
      double s = 0;
      for (double x : p.part_weights) s += x;
      return s / c.parts;
    }();
    EXPECT_LE(p.metrics.imbalance[0], opts.imbalance + wmax / avg);
  }
  if (c.method == GridMethod::blocks && c.peak == 0.0 && cells >= 50LL * c.parts) {
    EXPECT_LE(p.metrics.imbalance[0], 0.2);
  }
  EXPECT_EQ(p.metrics.empty_parts, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Grids, GridProperties,
    ::testing::Values(Case{2, {64, 48, 1}, 12, GridMethod::sfc, 0.0}, Case{2, {64, 48, 1}, 12, GridMethod::sfc, 20.0},
                      Case{2, {64, 48, 1}, 12, GridMethod::blocks, 0.0}, Case{2, {64, 48, 1}, 7, GridMethod::blocks, 20.0},
                      Case{2, {64, 48, 1}, 12, GridMethod::tensor, 20.0}, Case{2, {64, 48, 1}, 6, GridMethod::uniform, 0.0},
                      Case{3, {20, 16, 12}, 10, GridMethod::sfc, 8.0}, Case{3, {20, 16, 12}, 9, GridMethod::blocks, 8.0},
                      Case{3, {20, 16, 12}, 8, GridMethod::tensor, 0.0}, Case{3, {20, 16, 12}, 8, GridMethod::uniform, 0.0},
                      Case{2, {5, 3, 1}, 15, GridMethod::blocks, 0.0}, Case{3, {1, 1, 7}, 3, GridMethod::blocks, 0.0}));

TEST(GridBlocks, BalancesAHotspotToTheLayerBound) {
  const World w;
  const LocalGrid lg = slab_grid(2, {256, 256, 1}, w.rank, w.size, 50.0);
  hpart::GridOptions opts;
  opts.parts = 16;
  opts.method = GridMethod::blocks;
  const auto blocks = hpart::partition_grid(hpart::Comm(w.comm), lg.grid, opts);
  opts.method = GridMethod::uniform;
  const auto naive = hpart::partition_grid(hpart::Comm(w.comm), lg.grid, opts);
  EXPECT_LT(blocks.metrics.imbalance[0], 0.05);
  EXPECT_GT(naive.metrics.imbalance[0], 1.0);  // the hotspot lands in a few blocks
  opts.method = GridMethod::sfc;
  opts.imbalance = 0.001;
  const auto sfc = hpart::partition_grid(hpart::Comm(w.comm), lg.grid, opts);
  EXPECT_LT(sfc.metrics.imbalance[0], 0.01);
}

TEST(GridNeighbours, BoxFormulaAgreesWithCellCount) {
  const World w;
  for (GridMethod m : {GridMethod::blocks, GridMethod::tensor}) {
    for (int dim : {2, 3}) {
      const LocalGrid lg = slab_grid(dim, dim == 2 ? std::array<std::int64_t, 3>{40, 30, 1} : std::array<std::int64_t, 3>{12, 10, 9},
                                     w.rank, w.size, 5.0);
      hpart::GridOptions opts;
      opts.parts = 6;
      opts.method = m;
      const hpart::Comm comm(w.comm);
      const auto p = hpart::partition_grid(comm, lg.grid, opts);
      for (int halo : {1, 2}) {
        const auto boxes = hpart::grid_neighbours(comm, lg.grid, p, halo);
        hpart::GridPartition as_cells = p;
        as_cells.box_shaped = false;  // forces the cell-counting path
        const auto cells = hpart::grid_neighbours(comm, lg.grid, as_cells, halo);
        EXPECT_EQ(boxes.halo_volume, cells.halo_volume) << "dim " << dim << " halo " << halo;
        ASSERT_EQ(boxes.of_part.size(), cells.of_part.size());
        for (std::size_t q = 0; q < boxes.of_part.size(); ++q) {
          ASSERT_EQ(boxes.of_part[q].size(), cells.of_part[q].size()) << "part " << q;
          for (std::size_t k = 0; k < boxes.of_part[q].size(); ++k) {
            EXPECT_EQ(boxes.of_part[q][k].part, cells.of_part[q][k].part);
            EXPECT_EQ(boxes.of_part[q][k].halo_cells, cells.of_part[q][k].halo_cells);
            if (halo == 1) {
              EXPECT_EQ(boxes.of_part[q][k].contact, cells.of_part[q][k].contact);
            }
          }
        }
      }
    }
  }
}

// At uniform cost, blocks' total halo is within 10% of the ideal tensor decomposition's.
TEST(GridNeighbours, UniformBlocksHaloNearIdeal) {
  const World w;
  const hpart::Comm comm(w.comm);
  for (const auto& [dim, extent, parts] :
       {std::tuple{2, std::array<std::int64_t, 3>{256, 256, 1}, 64}, std::tuple{3, std::array<std::int64_t, 3>{32, 32, 32}, 64},
        std::tuple{2, std::array<std::int64_t, 3>{300, 200, 1}, 24}}) {
    const LocalGrid lg = slab_grid(dim, extent, w.rank, w.size, 0.0);
    hpart::GridOptions opts;
    opts.parts = parts;
    opts.method = GridMethod::blocks;
    const auto blocks = hpart::grid_neighbours(comm, lg.grid, hpart::partition_grid(comm, lg.grid, opts));
    opts.method = GridMethod::uniform;
    const auto ideal = hpart::grid_neighbours(comm, lg.grid, hpart::partition_grid(comm, lg.grid, opts));
    EXPECT_LE(static_cast<double>(blocks.halo_volume), 1.10 * static_cast<double>(ideal.halo_volume))
        << "dim " << dim << " parts " << parts;
  }
}

TEST(GridPartition, WorksOnSubCommunicators) {
  const hpart::testing::HalfWorld h;
  const int colour = h.colour, hr = h.rank, hs = h.size;
  const MPI_Comm half = h.comm;
  const LocalGrid lg = slab_grid(2, {30 + 10 * colour, 20, 1}, hr, hs, 3.0);
  hpart::GridOptions opts;
  opts.parts = 5 + colour;
  opts.method = colour ? GridMethod::sfc : GridMethod::blocks;
  const auto p = hpart::partition_grid(hpart::Comm(half), lg.grid, opts);
  EXPECT_EQ(p.metrics.objects, (30 + 10 * colour) * 20);
}

// Bad input: the same hpart::Error on every rank, never a hang.
void expect_error(const hpart::Grid& g, const hpart::GridOptions& opts, const std::string& what) {
  hpart::testing::expect_error_everywhere([&] { (void)hpart::partition_grid(hpart::Comm(MPI_COMM_WORLD), g, opts); },
                                          what);
}

TEST(GridBadInput, ExtentsAndBoxes) {
  const World w;
  hpart::GridOptions opts;
  opts.parts = 4;
  {
    LocalGrid lg = slab_grid(2, {16, 16, 1}, w.rank, w.size, 0.0);
    lg.grid.extent[0] = -5;
    expect_error(lg.grid, opts, "grid extent -5");
  }
  {
    LocalGrid lg = slab_grid(3, {8, 8, 8}, w.rank, w.size, 0.0);
    lg.grid.extent[1] = std::int64_t{1} << 22;  // beyond the 3D key resolution
    expect_error(lg.grid, opts, "outside [1, 2^21]");
  }
  {
    LocalGrid lg = slab_grid(2, {16, 16, 1}, w.rank, w.size, 0.0);
    if (w.rank == w.size - 1) lg.grid.local.hi[1] += 1;  // past the grid on the last rank
    expect_error(lg.grid, opts, "lies outside the grid");
  }
  {
    LocalGrid lg = slab_grid(2, {16, 16, 1}, w.rank, w.size, 0.0);
    if (w.rank == w.size - 1) lg.grid.local.hi[1] -= 1;  // a row nobody holds
    expect_error(lg.grid, opts, "together they must cover the grid");
  }
  if (w.size >= 2) {
    LocalGrid lg = slab_grid(2, {16, 16, 1}, w.rank, w.size, 0.0);
    if (w.rank == w.size - 1) lg.grid.local.lo[1] -= 1;  // overlaps the rank below
    expect_error(lg.grid, opts, "overlap");
  }
}

TEST(GridBadInput, CostsAndOptions) {
  const World w;
  hpart::GridOptions opts;
  opts.parts = 4;
  {
    LocalGrid lg = slab_grid(2, {16, 16, 1}, w.rank, w.size, 2.0);
    if (w.rank == w.size - 1) lg.grid.cost = std::span<const double>(lg.cost).first(lg.cost.size() - 1);
    expect_error(lg.grid, opts, "cost has");
  }
  {
    LocalGrid lg = slab_grid(2, {16, 16, 1}, w.rank, w.size, 2.0);
    if (w.rank == w.size - 1) lg.cost[3] = std::nan("");
    expect_error(lg.grid, opts, "finite");
  }
  {
    LocalGrid lg = slab_grid(2, {16, 16, 1}, w.rank, w.size, 2.0);
    if (w.rank == w.size - 1) lg.cost[0] = -1.0;
    expect_error(lg.grid, opts, ">= 0");
  }
  if (w.size >= 2) {
    LocalGrid lg = slab_grid(2, {16, 16, 1}, w.rank, w.size, 2.0);
    if (w.rank == w.size - 1) lg.grid.cost = {};
    expect_error(lg.grid, opts, "some ranks and not on others");
  }
  {
    const LocalGrid lg = slab_grid(2, {16, 16, 1}, w.rank, w.size, 0.0);
    hpart::GridOptions bad = opts;
    bad.method = GridMethod::tensor;
    bad.shape = {3, 2, 0};
    expect_error(lg.grid, bad, "tensor shape has 6 blocks but parts is 4");
    bad.parts = 0;
    expect_error(lg.grid, bad, "parts must be >= 1");
  }
  {
    const LocalGrid lg = slab_grid(2, {16, 16, 1}, w.rank, w.size, 0.0);
    const hpart::Comm comm(w.comm);
    const auto p = hpart::partition_grid(comm, lg.grid, opts);
    bool thrown = false;
    try {
      (void)hpart::grid_neighbours(comm, lg.grid, p, 9);  // blocks are 8 x 8
    } catch (const hpart::Error& e) {
      thrown = std::string(e.what()).find("larger than the block") != std::string::npos;
    }
    EXPECT_TRUE(thrown);
  }
}

}  // namespace
