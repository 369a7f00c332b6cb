// Properties of the distributed SFC partitioner on random inputs, at any rank count.
#include <gtest/gtest.h>
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <numeric>

#include "hpart/hpart.hpp"
#include "test_world.hpp"
#include "test_points.hpp"

namespace {

using hpart::testing::LocalPoints;
using hpart::testing::Shape;

using hpart::testing::World;

hpart::PointSet view(const LocalPoints& p, bool with_ids = true) {
  return hpart::PointSet{.coords = p.coords, .dim = p.dim, .weights = p.weights, .ncon = 1,
                         .ids = with_ids ? std::span<const hpart::gid_t>(p.ids) : std::span<const hpart::gid_t>()};
}

// Part ids of all objects in global order, on rank 0 of `comm` (ranks hold consecutive blocks).
std::vector<hpart::part_t> gather_parts(MPI_Comm comm, const std::vector<hpart::part_t>& mine) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int n = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size), 0);
  MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  for (int r = 1; r < size; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<hpart::part_t> all(rank == 0 ? static_cast<std::size_t>(displs.back() + counts.back()) : 0);
  MPI_Gatherv(mine.data(), n, MPI_INT, all.data(), counts.data(), displs.data(), MPI_INT, 0, comm);
  return all;
}

// The same partition computed by rank 0 alone, on a one-rank sub-communicator.
std::vector<hpart::part_t> single_rank_reference(const World& w, Shape shape, int dim, long long n, bool weighted,
                                                 const hpart::PointOptions& opts) {
  MPI_Comm solo;
  MPI_Comm_split(w.comm, w.rank == 0 ? 0 : MPI_UNDEFINED, 0, &solo);
  std::vector<hpart::part_t> parts;
  if (solo != MPI_COMM_NULL) {
    const LocalPoints all = make_points(shape, dim, 0, n, weighted);
    parts = hpart::partition_points(hpart::Comm(solo), view(all), opts).parts;
    MPI_Comm_free(&solo);
  }
  return parts;
}

void expect_valid(const hpart::Partition& p, long long global_n, int K, double total_weight) {
  for (auto part : p.parts) ASSERT_TRUE(part >= 0 && part < K) << part;
  EXPECT_EQ(p.metrics.objects, global_n);
  EXPECT_EQ(static_cast<int>(p.part_sizes.size()), K);
  const double sum = std::accumulate(p.part_weights.begin(), p.part_weights.end(), 0.0);
  EXPECT_NEAR(sum, total_weight, 1e-9 * total_weight);
  EXPECT_EQ(std::accumulate(p.part_sizes.begin(), p.part_sizes.end(), 0LL), global_n);
}

struct Case {
  Shape shape;
  int dim;
  long long n;
  int parts;
  bool weighted;
  hpart::Curve method;
};

class SfcProperties : public ::testing::TestWithParam<Case> {};

TEST_P(SfcProperties, BalancedCompleteAndIndependentOfRanks) {
  const World w;
  const Case c = GetParam();
  const auto [begin, end] = hpart::testing::uneven_block(c.n, w.rank, w.size);
  const LocalPoints mine = make_points(c.shape, c.dim, begin, end, c.weighted);
  hpart::PointOptions opts;
  opts.parts = c.parts;
  opts.curve = c.method;
  const hpart::Partition p = hpart::partition_points(hpart::Comm(w.comm), view(mine), opts);
  ASSERT_EQ(p.parts.size(), mine.ids.size());

  double total = c.weighted ? std::accumulate(mine.weights.begin(), mine.weights.end(), 0.0)
                            : static_cast<double>(mine.ids.size());
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_DOUBLE, MPI_SUM, w.comm);
  expect_valid(p, c.n, c.parts, total);

  // Unit weights: within the tolerance plus one object of granularity. Heavy tails: a part can
  // always be off by the heaviest object.
  const double avg = total / c.parts;
  double wmax = 1.0;
  for (double x : mine.weights) wmax = std::max(wmax, x);
  MPI_Allreduce(MPI_IN_PLACE, &wmax, 1, MPI_DOUBLE, MPI_MAX, w.comm);
  const double bound = c.weighted ? std::max(0.01, wmax / avg) : opts.imbalance + 1.0 / avg;
  EXPECT_LE(p.metrics.imbalance[0], bound);
  if (c.n >= c.parts * 4) {
    EXPECT_EQ(p.metrics.empty_parts, 0);
  }

  const auto all = gather_parts(w.comm, p.parts);
  const auto reference = single_rank_reference(w, c.shape, c.dim, c.n, c.weighted, opts);
  if (w.rank == 0) {
    EXPECT_EQ(all, reference) << "partition depends on the number of ranks";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, SfcProperties,
    ::testing::Values(Case{Shape::uniform, 3, 20000, 16, false, hpart::Curve::hilbert},
                      Case{Shape::uniform, 3, 20000, 16, false, hpart::Curve::morton},
                      Case{Shape::uniform, 2, 15000, 7, false, hpart::Curve::hilbert},
                      Case{Shape::uniform, 2, 15000, 7, false, hpart::Curve::morton},
                      Case{Shape::clusters, 3, 30000, 64, true, hpart::Curve::hilbert},
                      Case{Shape::clusters, 2, 30000, 13, true, hpart::Curve::morton},
                      Case{Shape::plane, 3, 10000, 10, false, hpart::Curve::hilbert},
                      Case{Shape::line, 3, 10000, 9, false, hpart::Curve::hilbert},
                      Case{Shape::identical, 3, 5000, 8, false, hpart::Curve::hilbert},
                      Case{Shape::identical, 2, 5000, 3, true, hpart::Curve::morton},
                      Case{Shape::uniform, 3, 10, 16, false, hpart::Curve::hilbert},
                      Case{Shape::uniform, 3, 1, 1, false, hpart::Curve::hilbert}));

TEST(SfcPartition, SameResultForAnyThreadCount) {
  const World w;
  const auto [begin, end] = hpart::testing::uneven_block(40000, w.rank, w.size);
  const LocalPoints mine = make_points(Shape::clusters, 3, begin, end, true);
  hpart::PointOptions opts;
  opts.parts = 32;
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto one = hpart::partition_points(hpart::Comm(w.comm), view(mine), opts).parts;
  omp_set_num_threads(3);
  const auto three = hpart::partition_points(hpart::Comm(w.comm), view(mine), opts).parts;
  omp_set_num_threads(saved);
  EXPECT_EQ(one, three);
}

TEST(SfcPartition, ImplicitIdsEqualExplicitGlobalIndices) {
  const World w;
  const auto [begin, end] = hpart::testing::uneven_block(12000, w.rank, w.size);
  const LocalPoints mine = make_points(Shape::identical, 3, begin, end, false);
  hpart::PointOptions opts;
  opts.parts = 5;
  const auto with = hpart::partition_points(hpart::Comm(w.comm), view(mine, true), opts).parts;
  const auto without = hpart::partition_points(hpart::Comm(w.comm), view(mine, false), opts).parts;
  EXPECT_EQ(with, without);
}

TEST(SfcPartition, NonUniformTargetSizes) {
  const World w;
  const long long n = 30000;
  const auto [begin, end] = hpart::testing::uneven_block(n, w.rank, w.size);
  const LocalPoints mine = make_points(Shape::uniform, 3, begin, end, false);
  const std::vector<double> targets = {1, 2, 3, 4};
  hpart::PointOptions opts;
  opts.parts = 4;
  opts.target_sizes = targets;
  const auto p = hpart::partition_points(hpart::Comm(w.comm), view(mine), opts);
  for (int j = 0; j < 4; ++j) EXPECT_NEAR(p.part_weights[static_cast<std::size_t>(j)], n * (j + 1) / 10.0, 0.001 * n);
  EXPECT_LE(p.metrics.imbalance[0], 0.002);
}

// Two disjoint sub-communicators partition different data at the same time: the library must
// only talk on the communicator it is given.
TEST(SfcPartition, ConcurrentSubCommunicators) {
  const World w;
  MPI_Comm half;
  const int color = w.rank % 2;
  MPI_Comm_split(w.comm, color, w.rank, &half);
  int hrank = 0, hsize = 1;
  MPI_Comm_rank(half, &hrank);
  MPI_Comm_size(half, &hsize);
  const long long n = color == 0 ? 9000 : 7000;
  const auto [begin, end] = hpart::testing::uneven_block(n, hrank, hsize);
  const LocalPoints mine = make_points(Shape::uniform, 2, begin, end, false, 11 + static_cast<std::uint64_t>(color));
  hpart::PointOptions opts;
  opts.parts = color == 0 ? 6 : 11;
  const auto p = hpart::partition_points(hpart::Comm(half), view(mine), opts);
  EXPECT_EQ(p.metrics.objects, n);
  EXPECT_LE(p.metrics.imbalance[0], opts.imbalance + opts.parts / static_cast<double>(n));
  MPI_Comm_free(&half);
}

// Curve order keeps parts compact: on a uniform square, the parts' bounding boxes together
// cover little more than the domain (a random assignment would cover it K times).
TEST(SfcPartition, HilbertPartsAreCompact) {
  const World w;
  const auto [begin, end] = hpart::testing::uneven_block(40000, w.rank, w.size);
  const LocalPoints mine = make_points(Shape::uniform, 2, begin, end, false);
  hpart::PointOptions opts;
  opts.parts = 16;
  const auto p = hpart::partition_points(hpart::Comm(w.comm), view(mine), opts);
  std::vector<double> box(16 * 4);
  for (int k = 0; k < 16; ++k) {
    box[4 * k] = box[4 * k + 1] = 1e9;  // min x, min y (as min), then -max x, -max y (as min)
    box[4 * k + 2] = box[4 * k + 3] = 1e9;
  }
  for (std::size_t i = 0; i < p.parts.size(); ++i) {
    double* b = &box[4 * static_cast<std::size_t>(p.parts[i])];
    b[0] = std::min(b[0], mine.coords[2 * i]);
    b[1] = std::min(b[1], mine.coords[2 * i + 1]);
    b[2] = std::min(b[2], -mine.coords[2 * i]);
    b[3] = std::min(b[3], -mine.coords[2 * i + 1]);
  }
  MPI_Allreduce(MPI_IN_PLACE, box.data(), 64, MPI_DOUBLE, MPI_MIN, w.comm);
  double covered = 0.0;
  for (int k = 0; k < 16; ++k) covered += (-box[4 * k + 2] - box[4 * k]) * (-box[4 * k + 3] - box[4 * k + 1]);
  EXPECT_LT(covered, 2.0);
}

}  // namespace
