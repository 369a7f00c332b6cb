// Migration conserves the id set, the payloads and the weight, and delivers every object to the
// owner of its part.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <numeric>

#include "hpart/hpart.hpp"
#include "test_points.hpp"

namespace {

using hpart::testing::LocalPoints;
using hpart::testing::Shape;

struct Particle {
  hpart::gid_t id;
  std::array<double, 3> x;
  double weight;
  hpart::part_t part;
};

// Order-independent fingerprint of a set of particles: count, sums and a hash sum.
struct Fingerprint {
  long long count = 0;
  long long id_sum = 0;
  unsigned long long hash_sum = 0;
  double weight_sum = 0.0;
};

Fingerprint fingerprint(const std::vector<Particle>& ps, MPI_Comm comm) {
  Fingerprint f;
  for (const Particle& p : ps) {
    ++f.count;
    f.id_sum += p.id;
    std::uint64_t h = hpart::testing::mix(static_cast<std::uint64_t>(p.id));
    for (double c : p.x) h = hpart::testing::mix(h ^ static_cast<std::uint64_t>(c * 1e15));
    f.hash_sum += h;
    f.weight_sum += p.weight;
  }
  MPI_Allreduce(MPI_IN_PLACE, &f.count, 1, MPI_LONG_LONG, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, &f.id_sum, 1, MPI_LONG_LONG, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, &f.hash_sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, &f.weight_sum, 1, MPI_DOUBLE, MPI_SUM, comm);
  return f;
}

std::vector<Particle> particles_of(const LocalPoints& p, const std::vector<hpart::part_t>& parts) {
  std::vector<Particle> ps(p.ids.size());
  for (std::size_t i = 0; i < ps.size(); ++i)
    ps[i] = Particle{p.ids[i], {p.coords[3 * i], p.coords[3 * i + 1], p.coords[3 * i + 2]}, p.weights[i], parts[i]};
  return ps;
}

void check_migration(MPI_Comm comm_handle, int K) {
  hpart::Comm comm(comm_handle);
  const auto [b, e] = hpart::testing::uneven_block(25000, comm.rank(), comm.size());
  const LocalPoints mine = make_points(Shape::clusters, 3, b, e, true);
  hpart::Options opts;
  opts.parts = K;
  const hpart::PointSet pts{.coords = mine.coords, .dim = 3, .weights = mine.weights, .ncon = 1, .ids = mine.ids};
  const hpart::Partition p = hpart::partition(comm, pts, opts);
  const std::vector<Particle> before = particles_of(mine, p.parts);

  const hpart::Migration plan(comm, p);
  const std::vector<Particle> after = plan.move(before);
  const std::vector<hpart::gid_t> ids_after = plan.move(mine.ids);

  const Fingerprint f0 = fingerprint(before, comm.get()), f1 = fingerprint(after, comm.get());
  EXPECT_EQ(f0.count, f1.count);
  EXPECT_EQ(f0.id_sum, f1.id_sum);
  EXPECT_EQ(f0.hash_sum, f1.hash_sum);
  EXPECT_NEAR(f0.weight_sum, f1.weight_sum, 1e-9 * f0.weight_sum);

  const hpart::PartOwners owners{K, comm.size()};
  ASSERT_EQ(after.size(), plan.num_imports());
  ASSERT_EQ(ids_after.size(), after.size());
  for (std::size_t i = 0; i < after.size(); ++i) {
    EXPECT_EQ(owners.owner(after[i].part), comm.rank());
    EXPECT_EQ(ids_after[i], after[i].id);  // two arrays moved by one plan stay aligned
  }
  long long leaving = 0;
  for (const Particle& q : before) leaving += owners.owner(q.part) != comm.rank();
  MPI_Allreduce(MPI_IN_PLACE, &leaving, 1, MPI_LONG_LONG, MPI_SUM, comm.get());
  EXPECT_EQ(plan.global_migrated(), leaving);
  EXPECT_EQ(plan.bytes_sent(), plan.num_exports() * (sizeof(Particle) + sizeof(hpart::gid_t)));

  // A second partition of the migrated data moves nothing: every object is home already.
  std::vector<double> coords, weights;
  for (const Particle& q : after) {
    coords.insert(coords.end(), q.x.begin(), q.x.end());
    weights.push_back(q.weight);
  }
  const hpart::PointSet moved{.coords = coords, .dim = 3, .weights = weights, .ncon = 1, .ids = ids_after};
  const hpart::Partition again = hpart::partition(comm, moved, opts);
  EXPECT_EQ(hpart::Migration(comm, again).global_migrated(), 0);
}

TEST(Migration, ConservesIdsPayloadsAndWeight) { check_migration(MPI_COMM_WORLD, 24); }

TEST(Migration, FewerPartsThanRanksLeavesSomeRanksEmpty) { check_migration(MPI_COMM_WORLD, 1); }

TEST(Migration, OnASubCommunicator) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm sub;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : 1, rank, &sub);  // {0} and {1..R-1}
  check_migration(sub, 7);
  MPI_Comm_free(&sub);
}

TEST(Migration, WrongRecordCountOnOneRankThrowsEverywhere) {
  hpart::Comm comm(MPI_COMM_WORLD);
  std::vector<hpart::part_t> parts(10, 0);
  const hpart::Migration plan(comm, parts, hpart::PartOwners{1, comm.size()});
  std::vector<int> payload(comm.rank() == comm.size() - 1 ? 9 : 10, 1);
  EXPECT_THROW(plan.move(payload), hpart::Error);
}

TEST(Migration, PartOutOfRangeThrowsEverywhere) {
  hpart::Comm comm(MPI_COMM_WORLD);
  std::vector<hpart::part_t> parts(10, 0);
  if (comm.rank() == 0) parts[4] = 9;
  EXPECT_THROW(hpart::Migration(comm, parts, hpart::PartOwners{3, comm.size()}), hpart::Error);
}

}  // namespace
