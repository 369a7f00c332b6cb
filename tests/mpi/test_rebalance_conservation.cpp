// 100 consecutive rebalances with a moving hotspot, each followed by the migration of the
// objects (ids, coordinates, weights, a constant mass and a variable-size payload): after every
// round the id set, the total weight, the total mass and the payload checksum are unchanged,
// every object sits on the owner of its part, and every payload is still its id's.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "hpart/hpart.hpp"
#include "hpart/rebalance.hpp"
#include "test_points.hpp"
#include "test_world.hpp"

namespace {

using hpart::testing::HalfWorld;
using hpart::testing::mix;
using hpart::testing::World;

// 0..24 bytes that depend on the id alone.
std::vector<unsigned char> payload_of(hpart::gid_t id) {
  const auto h = mix(static_cast<std::uint64_t>(id) ^ 0xabcdefULL);
  std::vector<unsigned char> b(h % 25);
  for (std::size_t k = 0; k < b.size(); ++k) b[k] = static_cast<unsigned char>(mix(h + k) >> 7);
  return b;
}
std::uint64_t payload_hash(std::span<const unsigned char> b, hpart::gid_t id) {
  std::uint64_t h = mix(static_cast<std::uint64_t>(id));
  for (unsigned char c : b) h = mix(h ^ c);
  return h;
}

// The local objects, structure of arrays, in one local order.
struct Objects {
  std::vector<hpart::gid_t> ids;
  std::vector<double> coords;  // 2 per object
  std::vector<double> weights, mass;
  std::vector<hpart::part_t> parts;
  std::vector<std::size_t> sizes;
  std::vector<unsigned char> bytes;
};

struct Totals {
  long long count = 0, id_sum = 0;
  std::uint64_t id_hash = 0, payload_sum = 0;
  double weight = 0, mass = 0;
};

Totals totals(MPI_Comm comm, const Objects& o) {
  Totals t;
  std::size_t at = 0;
  for (std::size_t i = 0; i < o.ids.size(); ++i) {
    ++t.count;
    t.id_sum += o.ids[i];
    t.id_hash += mix(static_cast<std::uint64_t>(o.ids[i]));
    t.payload_sum += payload_hash({o.bytes.data() + at, o.sizes[i]}, o.ids[i]);
    at += o.sizes[i];
    t.weight += o.weights[i];
    t.mass += o.mass[i];
  }
  MPI_Allreduce(MPI_IN_PLACE, &t.count, 1, MPI_LONG_LONG, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, &t.id_sum, 1, MPI_LONG_LONG, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, &t.id_hash, 1, MPI_UINT64_T, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, &t.payload_sum, 1, MPI_UINT64_T, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, &t.weight, 1, MPI_DOUBLE, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, &t.mass, 1, MPI_DOUBLE, MPI_SUM, comm);
  return t;
}

// Weights are multiples of 1/64 below 2^20, so their sums are exact in any order: equal totals
// mean equal, not close.
double quantised(double w) { return std::round(w * 64.0) / 64.0; }

// The cost of object (x, y) in round r: 1 plus a hotspot (peak 5x) moving corner to corner.
double hot_weight(double x, double y, int round, int rounds) {
  const double t = static_cast<double>(round) / rounds;
  const double cx = 0.15 + 0.7 * t, cy = 0.2 + 0.6 * t;
  const double d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
  return quantised(1.0 + 4.0 * std::exp(-d2 / (2 * 0.12 * 0.12)));
}

// Moves every array of `o` by `plan`; the ids come from the plan's checked imported_ids.
Objects moved(const hpart::Migration& plan, const Objects& o, const std::vector<hpart::part_t>& new_parts) {
  Objects m;
  m.ids = plan.imported_ids();
  struct Xy {
    double x, y;
  };
  std::vector<Xy> xy(o.ids.size());
  for (std::size_t i = 0; i < xy.size(); ++i) xy[i] = {o.coords[2 * i], o.coords[2 * i + 1]};
  for (const Xy& q : plan.move(xy)) m.coords.insert(m.coords.end(), {q.x, q.y});
  m.weights = plan.move(o.weights);
  m.mass = plan.move(o.mass);
  m.parts = plan.move(new_parts);
  const hpart::VariableRecords r = plan.move_variable(o.sizes, o.bytes);
  m.bytes = r.bytes;
  for (std::size_t k = 0; k < r.size(); ++k) m.sizes.push_back(r.offsets[k + 1] - r.offsets[k]);
  return m;
}

void check_rounds(MPI_Comm handle, int rounds) {
  const World w(handle);
  const hpart::Comm comm(handle);
  const int K = 2 * w.size + 1;
  const long long N = 3000;
  const auto [b, e] = hpart::testing::uneven_block(N, w.rank, w.size);
  Objects o;
  for (long long g = b; g < e; ++g) {
    const auto u = static_cast<std::uint64_t>(g);
    o.ids.push_back(g);
    o.coords.insert(o.coords.end(), {hpart::testing::unit(3, u, 0), hpart::testing::unit(3, u, 1)});
    o.mass.push_back(quantised(1.0 + 3.0 * hpart::testing::unit(3, u, 2)));
    const auto pl = payload_of(g);
    o.sizes.push_back(pl.size());
    o.bytes.insert(o.bytes.end(), pl.begin(), pl.end());
  }
  const auto reweigh = [&](int round) {
    o.weights.resize(o.ids.size());
    for (std::size_t i = 0; i < o.ids.size(); ++i) o.weights[i] = hot_weight(o.coords[2 * i], o.coords[2 * i + 1], round, rounds);
  };
  const auto points = [&] {
    return hpart::PointSet{.coords = o.coords, .dim = 2, .weights = o.weights, .ncon = 1, .ids = o.ids};
  };
  reweigh(0);
  hpart::RebalanceOptions ro;
  ro.parts = K;
  hpart::Rebalancer rb(comm, ro);
  hpart::Partition p = rb.partition(points());
  const Totals start = totals(handle, o);
  ASSERT_EQ(start.count, N);

  long long migrated = 0;
  for (int round = 0; round <= rounds; ++round) {
    if (round > 0) {
      reweigh(round);
      const Totals weighed = totals(handle, o);
      p = rb.rebalance(points(), o.parts);
      ASSERT_EQ(p.parts.size(), o.ids.size());
      // The weight the partition reports is the weight of the objects that were given.
      double reported = 0;
      for (std::size_t k = 0; k < static_cast<std::size_t>(K); ++k) reported += p.part_weights[k];
      EXPECT_DOUBLE_EQ(reported, weighed.weight) << "round " << round;
    }
    const hpart::Migration plan(comm, p.parts, hpart::PartOwners{K, w.size}, o.ids);
    migrated += plan.migrated().objects;
    const Totals before = totals(handle, o);
    o = moved(plan, o, p.parts);
    const Totals after = totals(handle, o);
    ASSERT_EQ(after.count, start.count) << "round " << round;
    ASSERT_EQ(after.id_sum, start.id_sum) << "round " << round;
    ASSERT_EQ(after.id_hash, start.id_hash) << "round " << round;
    ASSERT_EQ(after.payload_sum, start.payload_sum) << "round " << round;
    ASSERT_EQ(after.mass, start.mass) << "round " << round;
    ASSERT_EQ(after.weight, before.weight) << "round " << round;
    const hpart::PartOwners owners{K, w.size};
    std::size_t at = 0;
    for (std::size_t i = 0; i < o.ids.size(); ++i) {
      ASSERT_EQ(owners.owner(o.parts[i]), w.rank) << "round " << round << ", id " << o.ids[i];
      const auto expect = payload_of(o.ids[i]);
      ASSERT_EQ(o.sizes[i], expect.size());
      ASSERT_TRUE(std::equal(expect.begin(), expect.end(), o.bytes.begin() + static_cast<std::ptrdiff_t>(at)));
      at += o.sizes[i];
    }
  }
  EXPECT_EQ(rb.stats().rebalances, rounds);
  // The hotspot crosses the domain: something must have moved (and not everything every round).
  if (w.size > 1) {
    EXPECT_GT(migrated, 0);
    EXPECT_LT(migrated, N * rounds);
  }
}

TEST(RebalanceConservation, HundredRebalancesConserveIdsWeightAndPayloads) { check_rounds(MPI_COMM_WORLD, 100); }

TEST(RebalanceConservation, OnASubCommunicator) {
  const HalfWorld half;
  check_rounds(half.comm, 30);
}

}  // namespace
