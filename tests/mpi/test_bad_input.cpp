// Bad input raises the same hpart::Error on every rank, even when only one rank holds it, and
// never hangs (ctest's timeout would catch a hang).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "hpart/hpart.hpp"
#include "test_points.hpp"

namespace {

using hpart::testing::LocalPoints;
using hpart::testing::Shape;

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
  int s = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

// Runs `call` on every rank; expects an hpart::Error everywhere, with the same text on every
// rank, containing `needle`.
void expect_error_everywhere(const std::function<void()>& call, const std::string& needle) {
  std::string what;
  try {
    call();
  } catch (const hpart::Error& e) {
    what = e.what();
  }
  EXPECT_FALSE(what.empty()) << "no hpart::Error on rank " << world_rank();
  EXPECT_NE(what.find(needle), std::string::npos) << what;
  // Same message on every rank: compare with rank 0's.
  int len = static_cast<int>(what.size());
  MPI_Bcast(&len, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string root(static_cast<std::size_t>(len), '\0');
  if (world_rank() == 0) root = what;
  MPI_Bcast(root.data(), len, MPI_CHAR, 0, MPI_COMM_WORLD);
  EXPECT_EQ(what, root);
}

LocalPoints my_points(long long n = 2000) {
  const auto [b, e] = hpart::testing::uneven_block(n, world_rank(), world_size());
  return make_points(Shape::uniform, 3, b, e, true);
}

hpart::PointSet view(const LocalPoints& p) {
  return hpart::PointSet{.coords = p.coords, .dim = p.dim, .weights = p.weights, .ncon = 1, .ids = p.ids};
}

hpart::PointOptions parts(int k) {
  hpart::PointOptions o;
  o.parts = k;
  return o;
}

bool is_last() { return world_rank() == world_size() - 1; }

TEST(BadInput, NanCoordinateOnOneRankOnly) {
  LocalPoints p = my_points();
  if (is_last()) p.coords[1] = std::numeric_limits<double>::quiet_NaN();
  expect_error_everywhere([&] { hpart::partition_points(hpart::Comm(MPI_COMM_WORLD), view(p), parts(4)); },
                          "coordinate 1 of local point 0 is nan");
}

TEST(BadInput, InfiniteCoordinateOnOneRankOnly) {
  LocalPoints p = my_points();
  if (is_last()) p.coords.back() = std::numeric_limits<double>::infinity();
  expect_error_everywhere([&] { hpart::partition_points(hpart::Comm(MPI_COMM_WORLD), view(p), parts(4)); },
                          "coordinates must be finite");
}

TEST(BadInput, NegativeWeight) {
  LocalPoints p = my_points();
  if (is_last()) p.weights[3] = -1.0;
  expect_error_everywhere([&] { hpart::partition_points(hpart::Comm(MPI_COMM_WORLD), view(p), parts(4)); },
                          "weights must be finite and >= 0");
}

TEST(BadInput, NanWeight) {
  LocalPoints p = my_points();
  if (is_last()) p.weights[0] = std::numeric_limits<double>::quiet_NaN();
  expect_error_everywhere([&] { hpart::partition_points(hpart::Comm(MPI_COMM_WORLD), view(p), parts(4)); },
                          "weight 0 of local object 0 is nan");
}

TEST(BadInput, PartsBelowOne) {
  LocalPoints p = my_points();
  expect_error_everywhere([&] { hpart::partition_points(hpart::Comm(MPI_COMM_WORLD), view(p), parts(0)); },
                          "parts must be >= 1");
}

TEST(BadInput, WeightArrayOfWrongLengthOnOneRank) {
  LocalPoints p = my_points();
  if (is_last()) p.weights.pop_back();
  expect_error_everywhere([&] { hpart::partition_points(hpart::Comm(MPI_COMM_WORLD), view(p), parts(4)); },
                          "weights has");
}

TEST(BadInput, IdsOfWrongLength) {
  LocalPoints p = my_points();
  if (is_last()) p.ids.push_back(0);
  expect_error_everywhere([&] { hpart::partition_points(hpart::Comm(MPI_COMM_WORLD), view(p), parts(4)); },
                          "give one id per point");
}

TEST(BadInput, NegativeImbalanceAndBadTargets) {
  LocalPoints p = my_points();
  hpart::PointOptions o = parts(3);
  o.imbalance = -0.5;
  expect_error_everywhere([&] { hpart::partition_points(hpart::Comm(MPI_COMM_WORLD), view(p), o); }, "imbalance must be");
  const std::vector<double> two = {1.0, 2.0};
  o.imbalance = 0.01;
  o.target_sizes = two;
  expect_error_everywhere([&] { hpart::partition_points(hpart::Comm(MPI_COMM_WORLD), view(p), o); },
                          "target_sizes has 2 values but parts = 3");
}

TEST(BadInput, WrongDimension) {
  LocalPoints p = my_points();
  hpart::PointSet s = view(p);
  s.dim = 4;
  expect_error_everywhere([&] { hpart::partition_points(hpart::Comm(MPI_COMM_WORLD), s, parts(2)); }, "dim must be 2 or 3");
}

TEST(BadInput, ErrorOnASubCommunicatorStaysThere) {
  // Odd ranks form their own communicator with bad data; even ranks partition fine meanwhile.
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank() % 2, 0, &half);
  LocalPoints p = my_points();
  const bool odd = world_rank() % 2 == 1;
  if (odd) p.coords[0] = std::numeric_limits<double>::quiet_NaN();
  bool threw = false;
  try {
    hpart::partition_points(hpart::Comm(half), view(p), parts(3));
  } catch (const hpart::Error&) {
    threw = true;
  }
  EXPECT_EQ(threw, odd);
  MPI_Comm_free(&half);
}

// Not errors: documented, tested behaviours.
TEST(EdgeInput, RanksWithZeroPointsAndMorePartsThanPoints) {
  // Only the last rank has points, and fewer than parts.
  LocalPoints p = make_points(Shape::uniform, 2, 0, is_last() ? 5 : 0, false);
  const auto result = hpart::partition_points(hpart::Comm(MPI_COMM_WORLD), view(p), parts(8));
  EXPECT_EQ(result.metrics.objects, 5);
  EXPECT_EQ(result.metrics.empty_parts, 3);
  for (long long s : result.part_sizes) EXPECT_LE(s, 1);
}

TEST(EdgeInput, EmptyPointSetGivesEmptyParts) {
  LocalPoints p = make_points(Shape::uniform, 3, 0, 0, false);
  const auto result = hpart::partition_points(hpart::Comm(MPI_COMM_WORLD), view(p), parts(4));
  EXPECT_EQ(result.metrics.objects, 0);
  EXPECT_EQ(result.metrics.empty_parts, 4);
}

TEST(EdgeInput, AllPointsIdenticalStillBalance) {
  const auto [b, e] = hpart::testing::uneven_block(4000, world_rank(), world_size());
  LocalPoints p = make_points(Shape::identical, 3, b, e, false);
  const auto result = hpart::partition_points(hpart::Comm(MPI_COMM_WORLD), view(p), parts(8));
  for (long long s : result.part_sizes) EXPECT_EQ(s, 500);
}

TEST(EdgeInput, AllZeroWeightsBalanceCounts) {
  const auto [b, e] = hpart::testing::uneven_block(4000, world_rank(), world_size());
  LocalPoints p = make_points(Shape::uniform, 3, b, e, true);
  std::fill(p.weights.begin(), p.weights.end(), 0.0);
  const auto result = hpart::partition_points(hpart::Comm(MPI_COMM_WORLD), view(p), parts(4));
  for (long long s : result.part_sizes) EXPECT_NEAR(static_cast<double>(s), 1000.0, 2.0);
}

TEST(BadInput, NullCommunicator) {
  EXPECT_THROW(hpart::Comm(MPI_COMM_NULL), hpart::Error);
}

}  // namespace
