// AMR patch lists at any rank count: every patch in exactly one part, weights conserved, the same
// assignment however the list is spread over ranks (and in whatever order), balance within each
// method's bound, neighbour lists that agree with a cell-by-cell count, bad input rejected on every
// rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "hpart/hpart.hpp"
#include "test_world.hpp"

namespace {

using hpart::Box;
using hpart::PatchMethod;

using hpart::testing::World;

struct Level {
  int dim = 2;
  std::array<std::int64_t, 3> extent{1, 1, 1};
  std::vector<Box> boxes;
  std::vector<double> cost;
};

// Blocks of `block` cells tiling the domain, with holes (every 7th block absent), refined into
// quarter (octant) blocks near the centre; cost = cells x (1 + 6 near the centre).
Level make_level(int dim, std::array<std::int64_t, 3> extent, std::int64_t block) {
  Level L;
  L.dim = dim;
  L.extent = extent;
  const std::int64_t nz = dim == 3 ? extent[2] : 1;
  int index = 0;
  for (std::int64_t z = 0; z < nz; z += (dim == 3 ? block : 1))
    for (std::int64_t y = 0; y < extent[1]; y += block)
      for (std::int64_t x = 0; x < extent[0]; x += block, ++index) {
        if (index % 7 == 3) continue;
        Box b;
        b.dim = dim;
        b.lo = {x, y, z, 0};
        b.hi = {std::min(x + block, extent[0]) - 1, std::min(y + block, extent[1]) - 1,
                dim == 3 ? std::min(z + block, extent[2]) - 1 : 0, 0};
        double r2 = 0;
        for (int d = 0; d < dim; ++d) {
          const double u = (static_cast<double>(b.lo[static_cast<std::size_t>(d)] + b.hi[static_cast<std::size_t>(d)]) / 2.0 + 0.5) /
                                static_cast<double>(extent[static_cast<std::size_t>(d)]) - 0.5;
          r2 += u * u;
        }
        const bool hot = r2 < 0.09;
        const std::int64_t h = block / 2;
        std::vector<Box> pieces{b};
        if (hot && h >= 1) {  // split into halves per dimension
          pieces.clear();
          for (std::int64_t oz = 0; oz < (dim == 3 ? 2 : 1); ++oz)
            for (std::int64_t oy = 0; oy < 2; ++oy)
              for (std::int64_t ox = 0; ox < 2; ++ox) {
                Box q = b;
                const std::int64_t o[3] = {ox, oy, oz};
                for (int d = 0; d < dim; ++d) {
                  const auto k = static_cast<std::size_t>(d);
                  q.lo[k] = b.lo[k] + o[d] * h;
                  q.hi[k] = o[d] ? b.hi[k] : std::min(b.hi[k], b.lo[k] + h - 1);
                }
                if (!q.empty()) pieces.push_back(q);
              }
        }
        for (const Box& q : pieces) {
          L.boxes.push_back(q);
          L.cost.push_back(static_cast<double>(q.volume()) * (hot ? 7.0 : 1.0) * (1.0 + 0.1 * (index % 5)));
        }
      }
  return L;
}

// This rank's share: a scrambled subset (none on rank 0 at np >= 3).
std::vector<std::size_t> share(std::size_t n, int rank, int ranks) {
  std::vector<std::size_t> mine;
  for (std::size_t i = 0; i < n; ++i) {
    const int owner = ranks >= 3 ? 1 + static_cast<int>((i * 7 + 3) % static_cast<std::size_t>(ranks - 1))
                                 : static_cast<int>((i * 7 + 3) % static_cast<std::size_t>(ranks));
    if (owner == rank) mine.push_back(i);
  }
  return mine;
}

struct LocalLevel {
  std::vector<Box> boxes;
  std::vector<double> cost;
  hpart::PatchList list;
};

LocalLevel local_level(const Level& L, const std::vector<std::size_t>& which, bool with_cost = true) {
  LocalLevel out;
  for (std::size_t i : which) {
    out.boxes.push_back(L.boxes[i]);
    out.cost.push_back(L.cost[i]);
  }
  out.list.dim = L.dim;
  out.list.extent = L.extent;
  out.list.boxes = out.boxes;
  if (with_cost) out.list.cost = out.cost;
  return out;
}

struct Case {
  int dim;
  std::array<std::int64_t, 3> extent;
  std::int64_t block;
  int parts;
  PatchMethod method;
};

class PatchProperties : public ::testing::TestWithParam<Case> {};

TEST_P(PatchProperties, AssignsEveryPatchOnceAndIsIndependentOfRanks) {
  const World w;
  const Case c = GetParam();
  const Level L = make_level(c.dim, c.extent, c.block);
  const std::vector<std::size_t> mine = share(L.boxes.size(), w.rank, w.size);
  const LocalLevel local = local_level(L, mine);
  hpart::PatchOptions opts;
  opts.parts = c.parts;
  opts.method = c.method;
  const hpart::PatchPartition p = hpart::partition_patches(hpart::Comm(w.comm), local.list, opts);
  ASSERT_EQ(p.parts.size(), mine.size());
  ASSERT_EQ(p.boxes.size(), static_cast<std::size_t>(c.parts));
  EXPECT_EQ(p.metrics.objects, static_cast<long long>(L.boxes.size()));
  const double total = std::accumulate(L.cost.begin(), L.cost.end(), 0.0);
  EXPECT_NEAR(std::accumulate(p.part_weights.begin(), p.part_weights.end(), 0.0), total, 1e-9 * total);
  EXPECT_EQ(std::accumulate(p.part_sizes.begin(), p.part_sizes.end(), 0LL),
            static_cast<long long>(L.boxes.size()));
  for (std::size_t i = 0; i < mine.size(); ++i) {
    const hpart::part_t q = p.parts[i];
    ASSERT_GE(q, 0);
    ASSERT_LT(q, c.parts);
    EXPECT_EQ(p.boxes[static_cast<std::size_t>(q)].intersect(local.boxes[i]), local.boxes[i]) << "patch outside its part's box";
  }
  // The whole list, reversed, on one rank: the same part for every patch.
  std::vector<std::size_t> all(L.boxes.size());
  std::iota(all.rbegin(), all.rend(), std::size_t{0});
  const LocalLevel whole = local_level(L, all);
  const hpart::PatchPartition ref = hpart::partition_patches(hpart::Comm(MPI_COMM_SELF), whole.list, opts);
  std::vector<hpart::part_t> ref_of(L.boxes.size());
  for (std::size_t k = 0; k < all.size(); ++k) ref_of[all[k]] = ref.parts[k];
  for (std::size_t i = 0; i < mine.size(); ++i) ASSERT_EQ(p.parts[i], ref_of[mine[i]]) << "differs from np 1";

  // Balance: no worse than one patch above the mean (LPT and chains both promise that), and the
  // refinement never worse than plain chains.
  const double mean = total / c.parts, biggest = *std::max_element(L.cost.begin(), L.cost.end());
  EXPECT_LE(p.metrics.imbalance[0], biggest / mean + 1e-9);
  if (c.method == PatchMethod::sfc_swap) {
    opts.method = PatchMethod::sfc;
    const hpart::PatchPartition plain = hpart::partition_patches(hpart::Comm(w.comm), local.list, opts);
    EXPECT_LE(p.metrics.imbalance[0], plain.metrics.imbalance[0] + 1e-12);
  }
  if (L.boxes.size() >= static_cast<std::size_t>(c.parts)) {
    EXPECT_EQ(p.metrics.empty_parts, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Levels, PatchProperties,
    ::testing::Values(Case{2, {96, 80, 1}, 16, 8, PatchMethod::knapsack}, Case{2, {96, 80, 1}, 16, 8, PatchMethod::sfc},
                      Case{2, {96, 80, 1}, 16, 7, PatchMethod::sfc_swap}, Case{3, {24, 20, 16}, 8, 5, PatchMethod::sfc_swap},
                      Case{3, {24, 20, 16}, 8, 6, PatchMethod::knapsack}, Case{2, {20, 20, 1}, 16, 9, PatchMethod::sfc}));

TEST(PatchPartition, CellCountIsTheDefaultCost) {
  const World w;
  const Level L = make_level(2, {64, 64, 1}, 16);
  const LocalLevel local = local_level(L, share(L.boxes.size(), w.rank, w.size), false);
  hpart::PatchOptions opts;
  opts.parts = 4;
  opts.method = PatchMethod::knapsack;
  const auto p = hpart::partition_patches(hpart::Comm(w.comm), local.list, opts);
  double cells = 0;
  for (const Box& b : L.boxes) cells += static_cast<double>(b.volume());
  EXPECT_DOUBLE_EQ(std::accumulate(p.part_weights.begin(), p.part_weights.end(), 0.0), cells);
}

TEST(PatchNeighbours, AgreeWithACellByCellCount) {
  const World w;
  for (int dim : {2, 3}) {
    const Level L = dim == 2 ? make_level(2, {48, 40, 1}, 8) : make_level(3, {16, 12, 12}, 4);
    const std::vector<std::size_t> mine = share(L.boxes.size(), w.rank, w.size);
    const LocalLevel local = local_level(L, mine);
    hpart::PatchOptions opts;
    opts.parts = 6;
    opts.method = PatchMethod::sfc_swap;
    const hpart::Comm comm(w.comm);
    const auto p = hpart::partition_patches(comm, local.list, opts);
    const auto nb = hpart::patch_neighbours(comm, local.list, p, 1);
    // Reference: label the cells, then count each patch's ghost cells owned by other parts.
    std::vector<hpart::part_t> part_of(L.boxes.size());
    {
      std::vector<std::size_t> all(L.boxes.size());
      std::iota(all.begin(), all.end(), std::size_t{0});
      const LocalLevel whole = local_level(L, all);
      const auto ref = hpart::partition_patches(hpart::Comm(MPI_COMM_SELF), whole.list, opts);
      part_of = ref.parts;
    }
    const std::int64_t nx = L.extent[0], ny = L.extent[1], nz = dim == 3 ? L.extent[2] : 1;
    std::vector<int> label(static_cast<std::size_t>(nx * ny * nz), -1);
    for (std::size_t i = 0; i < L.boxes.size(); ++i) {
      const Box& b = L.boxes[i];
      for (std::int64_t z = b.lo[2]; z <= b.hi[2]; ++z)
        for (std::int64_t y = b.lo[1]; y <= b.hi[1]; ++y)
          for (std::int64_t x = b.lo[0]; x <= b.hi[0]; ++x) label[static_cast<std::size_t>(x + nx * (y + ny * z))] = part_of[i];
    }
    std::map<std::pair<int, int>, long long> count;
    long long volume = 0;
    for (std::size_t i = 0; i < L.boxes.size(); ++i) {
      const Box& b = L.boxes[i];
      const std::int64_t hz = dim == 3 ? 1 : 0;
      for (std::int64_t z = b.lo[2] - hz; z <= b.hi[2] + hz; ++z)
        for (std::int64_t y = b.lo[1] - 1; y <= b.hi[1] + 1; ++y)
          for (std::int64_t x = b.lo[0] - 1; x <= b.hi[0] + 1; ++x) {
            if (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz) continue;
            const int q = label[static_cast<std::size_t>(x + nx * (y + ny * z))];
            if (q < 0 || q == part_of[i]) continue;
            ++count[{part_of[i], q}];
            ++volume;
          }
    }
    EXPECT_GT(volume, 0);
    EXPECT_EQ(nb.halo_volume, volume) << dim << "D";
    long long listed = 0;
    for (std::size_t a = 0; a < nb.of_part.size(); ++a)
      for (const auto& n : nb.of_part[a]) {
        EXPECT_EQ(n.halo_cells, (count[{static_cast<int>(a), n.part}])) << a << " <- " << n.part;
        EXPECT_GE(n.contact, 1);
        EXPECT_LE(n.contact, dim);
        ++listed;
      }
    EXPECT_EQ(listed, static_cast<long long>(count.size()));
  }
}

TEST(PatchPartition, WorksOnSubCommunicators) {
  const hpart::testing::HalfWorld h;
  const int colour = h.colour, hr = h.rank, hs = h.size;
  const MPI_Comm half = h.comm;
  const Level L = make_level(2, {64 + 16 * colour, 48, 1}, 16);
  const LocalLevel local = local_level(L, share(L.boxes.size(), hr, hs));
  hpart::PatchOptions opts;
  opts.parts = 3 + colour;
  const auto p = hpart::partition_patches(hpart::Comm(half), local.list, opts);
  EXPECT_EQ(p.metrics.objects, static_cast<long long>(L.boxes.size()));
}

// Bad input: the same hpart::Error on every rank (the bad patch sits on the last rank only).
using hpart::testing::expect_error_everywhere;

TEST(PatchBadInput, BoxesCostsAndOptions) {
  const World w;
  const Level L = make_level(2, {64, 48, 1}, 16);
  const hpart::Comm comm(w.comm);
  const bool last = w.rank == w.size - 1;
  hpart::PatchOptions opts;
  opts.parts = 4;
  auto run = [&](const hpart::PatchList& list, const std::string& what) {
    expect_error_everywhere([&] { (void)hpart::partition_patches(comm, list, opts); }, what);
  };
  {
    LocalLevel l = local_level(L, share(L.boxes.size(), w.rank, w.size));
    if (last) l.boxes.push_back(L.boxes[0]), l.cost.push_back(1.0);  // a second copy: overlaps
    l.list.boxes = l.boxes, l.list.cost = l.cost;
    run(l.list, "overlap");
  }
  {
    LocalLevel l = local_level(L, share(L.boxes.size(), w.rank, w.size));
    if (last && !l.boxes.empty()) l.boxes[0].hi[0] = 64;  // one cell past the domain
    if (last && l.boxes.empty()) l.boxes.push_back(Box{2, {0, 0, 0, 0}, {64, 0, 0, 0}}), l.cost.push_back(1.0);
    l.list.boxes = l.boxes, l.list.cost = l.cost;
    run(l.list, "outside the domain");
  }
  {
    LocalLevel l = local_level(L, share(L.boxes.size(), w.rank, w.size));
    if (last) l.boxes.push_back(Box{2, {5, 5, 0, 0}, {4, 5, 0, 0}}), l.cost.push_back(1.0);
    l.list.boxes = l.boxes, l.list.cost = l.cost;
    run(l.list, "is empty");
  }
  {
    LocalLevel l = local_level(L, share(L.boxes.size(), w.rank, w.size));
    if (last) l.boxes.push_back(Box{3, {0, 0, 0, 0}, {0, 0, 0, 0}}), l.cost.push_back(1.0);
    l.list.boxes = l.boxes, l.list.cost = l.cost;
    run(l.list, "has dim 3");
  }
  {
    LocalLevel l = local_level(L, share(L.boxes.size(), w.rank, w.size));
    if (last) l.cost.push_back(1.0);
    l.list.cost = l.cost;
    run(l.list, "cost has");
  }
  {
    LocalLevel l = local_level(L, share(L.boxes.size(), w.rank, w.size));
    if (last && !l.cost.empty()) l.cost[0] = std::nan("");
    if (last && l.cost.empty()) l.boxes.push_back(L.boxes[0]), l.cost.push_back(std::nan(""));
    l.list.boxes = l.boxes, l.list.cost = l.cost;
    run(l.list, "finite");
  }
  {
    LocalLevel l = local_level(L, share(L.boxes.size(), w.rank, w.size));
    if (last && !l.cost.empty()) l.cost[0] = -2.0;
    if (last && l.cost.empty()) l.boxes.push_back(L.boxes[0]), l.cost.push_back(-2.0);
    l.list.boxes = l.boxes, l.list.cost = l.cost;
    run(l.list, ">= 0");
  }
  {
    LocalLevel l = local_level(L, share(L.boxes.size(), w.rank, w.size));
    l.list.extent[0] = -3;
    run(l.list, "grid extent -3");
  }
  {
    const LocalLevel l = local_level(L, {});
    run(l.list, "empty on every rank");
  }
  {
    const LocalLevel l = local_level(L, share(L.boxes.size(), w.rank, w.size));
    opts.parts = 0;
    run(l.list, "parts");
    opts.parts = 4;
    const auto p = hpart::partition_patches(comm, l.list, opts);
    expect_error_everywhere([&] { (void)hpart::patch_neighbours(comm, l.list, p, -1); }, "halo width");
  }
  expect_error_everywhere([] { (void)hpart::patch_method_from_string("greedy"); }, "unknown patch method");
}

}  // namespace

// repartition_patches: the costs of a partitioned level drift (a hot spot moving over the
// patches); each rebalance starts from the current parts, reaches the tolerance where the swap
// refinement can, moves only a few patches (far fewer than a fresh sfc-swap partition reassigns),
// reports what moved, and gives the same parts however the list is spread over the ranks.
namespace {

// Cost of each patch of L with a hot spot at fraction t along the diagonal (peak 8x).
std::vector<double> drifted_costs(const Level& L, double t) {
  std::vector<double> cost(L.boxes.size());
  const double c = 0.2 + 0.6 * t;
  for (std::size_t i = 0; i < L.boxes.size(); ++i) {
    const Box& b = L.boxes[i];
    double r2 = 0;
    for (int d = 0; d < L.dim; ++d) {
      const auto k = static_cast<std::size_t>(d);
      const double u = (static_cast<double>(b.lo[k] + b.hi[k]) / 2.0 + 0.5) / static_cast<double>(L.extent[k]) - c;
      r2 += u * u;
    }
    cost[i] = static_cast<double>(b.volume()) * (1.0 + 7.0 * std::exp(-r2 / (2 * 0.15 * 0.15)));
  }
  return cost;
}

void patch_drift(MPI_Comm handle) {
  int rank = 0, size = 1;
  MPI_Comm_rank(handle, &rank);
  MPI_Comm_size(handle, &size);
  const hpart::Comm comm(handle);
  Level L = make_level(2, {256, 192, 1}, 8);
  const std::vector<std::size_t> mine = share(L.boxes.size(), rank, size);
  constexpr int K = 6;
  hpart::PatchOptions fresh_opts;
  fresh_opts.parts = K;
  L.cost = drifted_costs(L, 0.0);
  LocalLevel local = local_level(L, mine);
  std::vector<hpart::part_t> parts = hpart::partition_patches(comm, local.list, fresh_opts).parts;
  // The whole list on this rank alone, for the rank-independence check.
  std::vector<std::size_t> all(L.boxes.size());
  std::iota(all.begin(), all.end(), std::size_t{0});
  std::vector<hpart::part_t> parts_alone;
  {
    const LocalLevel whole = local_level(L, all);
    parts_alone = hpart::partition_patches(hpart::Comm(MPI_COMM_SELF), whole.list, fresh_opts).parts;
  }
  double incremental = 0.0, fresh = 0.0;
  for (int step = 1; step <= 4; ++step) {
    L.cost = drifted_costs(L, 0.2 * step);
    local = local_level(L, mine);
    const hpart::PatchRepartition r = hpart::repartition_patches(comm, local.list, parts, {.parts = K, .imbalance = 0.02});
    ASSERT_EQ(r.parts.size(), mine.size());
    EXPECT_LE(r.metrics.imbalance[0], 0.02 + 1e-12) << "step " << step;
    EXPECT_EQ(r.metrics.objects, static_cast<long long>(L.boxes.size()));
    // What moved, recounted over the ranks.
    double moved[2] = {0.0, 0.0};
    for (std::size_t i = 0; i < mine.size(); ++i)
      if (parts[i] != r.parts[i]) moved[0] += local.cost[i], moved[1] += 1.0;
    MPI_Allreduce(MPI_IN_PLACE, moved, 2, MPI_DOUBLE, MPI_SUM, handle);
    EXPECT_NEAR(r.migrated.weight, moved[0], 1e-9 * moved[0] + 1e-9);
    EXPECT_EQ(r.migrated.objects, static_cast<long long>(moved[1]));
    // The same on one rank holding the whole list.
    const LocalLevel whole = local_level(L, all);
    const hpart::PatchRepartition ra =
        hpart::repartition_patches(hpart::Comm(MPI_COMM_SELF), whole.list, parts_alone, {.parts = K, .imbalance = 0.02});
    for (std::size_t i = 0; i < mine.size(); ++i)
      ASSERT_EQ(r.parts[i], ra.parts[mine[i]]) << "step " << step;
    // A fresh partition of the new costs reassigns far more.
    const hpart::PatchPartition f = hpart::partition_patches(comm, local.list, fresh_opts);
    double fresh_moved = 0.0;
    for (std::size_t i = 0; i < mine.size(); ++i)
      if (parts[i] != f.parts[i]) fresh_moved += local.cost[i];
    MPI_Allreduce(MPI_IN_PLACE, &fresh_moved, 1, MPI_DOUBLE, MPI_SUM, handle);
    incremental += r.migrated.weight;
    fresh += fresh_moved;
    parts = r.parts;
    parts_alone = ra.parts;
  }
  EXPECT_GT(incremental, 0.0);
  EXPECT_LT(incremental, 0.5 * fresh);
  // Unchanged costs: nothing moves.
  const hpart::PatchRepartition same = hpart::repartition_patches(comm, local.list, parts, {.parts = K, .imbalance = 0.02});
  EXPECT_EQ(same.migrated.objects, 0);
  EXPECT_EQ(same.parts, parts);
}

}  // namespace

TEST(PatchRepartition, DriftMovesFewPatches) { patch_drift(MPI_COMM_WORLD); }
TEST(PatchRepartition, DriftOnSubCommunicators) {
  const hpart::testing::HalfWorld h;
  patch_drift(h.comm);
}

TEST(PatchRepartition, BadInputFailsOnEveryRank) {
  const World w;
  const hpart::Comm comm(w.comm);
  const Level L = make_level(2, {64, 48, 1}, 16);
  const LocalLevel l = local_level(L, share(L.boxes.size(), w.rank, w.size));
  std::vector<hpart::part_t> parts(l.boxes.size(), 0);
  const bool last = w.rank == w.size - 1;
  std::vector<hpart::part_t> wrong_length = parts;
  if (last) wrong_length.push_back(0);
  expect_error_everywhere([&] { (void)hpart::repartition_patches(comm, l.list, wrong_length, {.parts = 4}); },
                          "local patches");
  std::vector<hpart::part_t> out_of_range = parts;
  if (last && !out_of_range.empty()) out_of_range[0] = 4;
  if (last && out_of_range.empty()) out_of_range.push_back(4);  // also the wrong length: either error
  expect_error_everywhere([&] { (void)hpart::repartition_patches(comm, l.list, out_of_range, {.parts = 4}); },
                          "repartition_patches: ");
  expect_error_everywhere(
      [&] { (void)hpart::repartition_patches(comm, l.list, parts, {.parts = 4, .imbalance = std::nan("")}); },
      "imbalance must be in [0, 10)");
}
