// Migration conserves the id set, the payloads and the weight, and delivers every object to the
// owner of its part.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <cstring>
#include <numeric>
#include <string>

#include "hpart/hpart.hpp"
#include "test_points.hpp"
#include "test_world.hpp"

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
  hpart::PointOptions opts;
  opts.parts = K;
  const hpart::PointSet pts{.coords = mine.coords, .dim = 3, .weights = mine.weights, .ncon = 1, .ids = mine.ids};
  const hpart::Partition p = hpart::partition_points(comm, pts, opts);
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
  EXPECT_EQ(plan.migrated().objects, leaving);
  EXPECT_EQ(plan.bytes_sent(), plan.num_exports() * (sizeof(Particle) + sizeof(hpart::gid_t)));

  // A second partition of the migrated data moves nothing: every object is home already.
  std::vector<double> coords, weights;
  for (const Particle& q : after) {
    coords.insert(coords.end(), q.x.begin(), q.x.end());
    weights.push_back(q.weight);
  }
  const hpart::PointSet moved{.coords = coords, .dim = 3, .weights = weights, .ncon = 1, .ids = ids_after};
  const hpart::Partition again = hpart::partition_points(comm, moved, opts);
  EXPECT_EQ(hpart::Migration(comm, again).migrated().objects, 0);
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


// ---- Variable-size payloads --------------------------------------------------------------------

using hpart::testing::expect_error_everywhere;
using hpart::testing::HalfWorld;
using hpart::testing::World;

// The payload of object `id`: 0..40 bytes that depend on the id alone (some objects carry none).
std::vector<unsigned char> payload_of(hpart::gid_t id) {
  const auto h = hpart::testing::mix(static_cast<std::uint64_t>(id));
  std::vector<unsigned char> b(h % 41);
  for (std::size_t k = 0; k < b.size(); ++k) b[k] = static_cast<unsigned char>(hpart::testing::mix(h + k));
  return b;
}

// Objects [b, e) of a global set of n with a scrambled part each, so that every rank sends to
// every rank (dense) unless `home` keeps every object where it is.
struct Objects {
  std::vector<hpart::gid_t> ids;
  std::vector<hpart::part_t> parts;
  std::vector<std::size_t> sizes;
  std::vector<unsigned char> bytes;
};
Objects make_objects(const World& w, long long n, int K, bool home = false) {
  const auto [b, e] = hpart::testing::uneven_block(n, w.rank, w.size);
  Objects o;
  for (long long g = b; g < e; ++g) {
    o.ids.push_back(g);
    const hpart::PartOwners owners{K, w.size};
    auto p = static_cast<hpart::part_t>(hpart::testing::mix(static_cast<std::uint64_t>(g) + 99) % static_cast<std::uint64_t>(K));
    if (home)
      while (owners.owner(p) != w.rank) p = (p + 1) % K;
    o.parts.push_back(p);
    const auto pl = payload_of(g);
    o.sizes.push_back(pl.size());
    o.bytes.insert(o.bytes.end(), pl.begin(), pl.end());
  }
  return o;
}

long long global_sum(MPI_Comm comm, long long v) {
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_LONG_LONG, MPI_SUM, comm);
  return v;
}

// Every arriving record is its id's payload; counts, bytes and the id set are conserved.
void check_variable_round_trip(MPI_Comm handle, int K, hpart::Exchange mode) {
  const World w(handle);
  const hpart::Comm comm(handle);
  const Objects o = make_objects(w, 3000, K);
  hpart::Migration plan(comm, o.parts, hpart::PartOwners{K, w.size}, o.ids);
  plan.set_exchange(mode);
  const hpart::VariableRecords r = plan.move_variable(o.sizes, o.bytes);
  const std::vector<hpart::gid_t>& ids = plan.imported_ids();
  ASSERT_EQ(r.size(), plan.num_imports());
  ASSERT_EQ(ids.size(), r.size());
  long long id_sum = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    const auto expect = payload_of(ids[k]);
    const auto got = r.record(k);
    ASSERT_EQ(got.size(), expect.size()) << "id " << ids[k];
    EXPECT_TRUE(std::equal(got.begin(), got.end(), expect.begin())) << "id " << ids[k];
    id_sum += ids[k];
  }
  const long long n = global_sum(handle, static_cast<long long>(o.ids.size()));
  EXPECT_EQ(global_sum(handle, static_cast<long long>(r.size())), n);
  EXPECT_EQ(global_sum(handle, id_sum), n * (n - 1) / 2);
  EXPECT_EQ(global_sum(handle, static_cast<long long>(r.bytes.size())), global_sum(handle, static_cast<long long>(o.bytes.size())));

  // Bytes: the ids (8 each) at construction, then one 8-byte size and the payload per export.
  const hpart::PartOwners owners{K, w.size};
  std::size_t exported_payload = 0;
  for (std::size_t i = 0; i < o.ids.size(); ++i)
    if (owners.owner(o.parts[i]) != w.rank) exported_payload += o.sizes[i];
  EXPECT_EQ(plan.bytes_sent(), plan.num_exports() * 16 + exported_payload);
  EXPECT_EQ(global_sum(handle, static_cast<long long>(plan.bytes_sent())),
            global_sum(handle, static_cast<long long>(plan.bytes_received())));
  long long to_others = 0;
  for (int q = 0; q < w.size; ++q) to_others += q == w.rank ? 0 : plan.send_counts()[static_cast<std::size_t>(q)];
  EXPECT_EQ(static_cast<std::size_t>(to_others), plan.num_exports());
}

TEST(MigrationVariable, RoundTripDense) { check_variable_round_trip(MPI_COMM_WORLD, 10, hpart::Exchange::dense); }
TEST(MigrationVariable, RoundTripSparse) { check_variable_round_trip(MPI_COMM_WORLD, 10, hpart::Exchange::sparse); }
TEST(MigrationVariable, RoundTripOnASubCommunicator) {
  const HalfWorld half;
  check_variable_round_trip(half.comm, 5, hpart::Exchange::automatic);
  check_variable_round_trip(half.comm, 5, hpart::Exchange::sparse);
}

// A serialiser over the same objects: a 4-byte count, then the payload bytes.
struct PayloadSerialiser : hpart::Serialiser {
  const Objects* in = nullptr;
  std::vector<std::size_t> start;
  std::vector<std::vector<unsigned char>> arrived;
  long long lie_at = -1;  // this local object packs one byte more (or, with short_by, 4 fewer)
  bool short_by = false;
  bool unpack_short = false;
  explicit PayloadSerialiser(const Objects& o) : in(&o), start(o.sizes.size() + 1, 0) {
    for (std::size_t i = 0; i < o.sizes.size(); ++i) start[i + 1] = start[i] + o.sizes[i];
  }
  std::size_t size(std::size_t i) const override { return 4 + in->sizes[i]; }
  void pack(std::size_t i, hpart::ByteWriter& out) const override {
    const std::size_t n = in->sizes[i];
    const bool lie = static_cast<long long>(i) == lie_at;
    if (!(lie && short_by)) out.put(static_cast<std::uint32_t>(n));  // short: the count left out
    out.write(in->bytes.data() + start[i], n);
    if (lie && !short_by) out.put(static_cast<unsigned char>(0));  // long: one byte too many
  }
  void prepare(std::size_t n) override { arrived.resize(n); }
  void unpack(std::size_t k, hpart::ByteReader& r) override {
    const auto n = r.get<std::uint32_t>();
    arrived[k].resize(n);
    if (unpack_short && n > 0) arrived[k].resize(n - 1);
    r.read(arrived[k].data(), arrived[k].size());
  }
};

TEST(MigrationVariable, SerialiserMatchesByteArrayAndSparseMatchesDense) {
  const World w;
  const hpart::Comm comm(w.comm);
  const Objects o = make_objects(w, 2000, 7);
  hpart::Migration plan(comm, o.parts, hpart::PartOwners{7, w.size}, o.ids);
  plan.set_exchange(hpart::Exchange::dense);
  const auto dense = plan.move_variable(o.sizes, o.bytes);
  const auto dense_ids = plan.move(o.ids);
  PayloadSerialiser s(o);
  plan.move(s);
  plan.set_exchange(hpart::Exchange::sparse);
  EXPECT_EQ(plan.exchange(), hpart::Exchange::sparse);
  const auto sparse = plan.move_variable(o.sizes, o.bytes);
  const auto sparse_ids = plan.move(o.ids);
  EXPECT_EQ(dense.offsets, sparse.offsets);
  EXPECT_EQ(dense.bytes, sparse.bytes);
  EXPECT_EQ(dense_ids, sparse_ids);
  EXPECT_EQ(dense_ids, plan.imported_ids());
  ASSERT_EQ(s.arrived.size(), dense.size());
  for (std::size_t k = 0; k < dense.size(); ++k) {
    const auto rec = dense.record(k);
    EXPECT_EQ(s.arrived[k], std::vector<unsigned char>(rec.begin(), rec.end()));
  }
}

TEST(MigrationVariable, AutomaticExchangeFollowsTheDensityRule) {
  const World w;
  const hpart::Comm comm(w.comm);
  const Objects stay = make_objects(w, 500, 3 * w.size, true);  // nothing leaves: no peers
  EXPECT_EQ(hpart::Migration(comm, stay.parts, hpart::PartOwners{3 * w.size, w.size}).exchange(), hpart::Exchange::sparse);
  // Every rank sends to every other rank: dense from two ranks on (rank 0 may hold nothing,
  // but it receives from all).
  const Objects all = make_objects(w, 5000, 4 * w.size);
  const hpart::Migration mixed(comm, all.parts, hpart::PartOwners{4 * w.size, w.size});
  EXPECT_EQ(mixed.exchange(), w.size == 1 ? hpart::Exchange::sparse : hpart::Exchange::dense);
}

// ---- Bad input -----------------------------------------------------------------------------

// After an error the plan still works: nothing was sent, and the caller's arrays are untouched.
void expect_plan_still_moves(const hpart::Migration& plan, const Objects& o) {
  const auto r = plan.move_variable(o.sizes, o.bytes);
  EXPECT_EQ(global_sum(MPI_COMM_WORLD, static_cast<long long>(r.size())),
            global_sum(MPI_COMM_WORLD, static_cast<long long>(o.ids.size())));
}

TEST(MigrationBadInput, PackWritingMoreOrLessThanDeclaredThrowsEverywhere) {
  const World w;
  const hpart::Comm comm(w.comm);
  const Objects o = make_objects(w, 600, 5);
  const hpart::Migration plan(comm, o.parts, hpart::PartOwners{5, w.size});
  const bool liar = w.rank == w.size - 1 && !o.ids.empty();
  for (bool short_by : {false, true}) {
    PayloadSerialiser s(o);
    s.short_by = short_by;
    if (liar) s.lie_at = static_cast<long long>(o.ids.size() / 2);
    expect_error_everywhere([&] { plan.move(s); }, "pack must write exactly size(i) bytes");
    EXPECT_TRUE(s.arrived.empty());  // unpack never ran: nothing moved
  }
  expect_plan_still_moves(plan, o);
}

TEST(MigrationBadInput, UnpackReadingLessThanArrivedThrowsEverywhere) {
  const World w;
  const hpart::Comm comm(w.comm);
  const Objects o = make_objects(w, 600, 5);
  const hpart::Migration plan(comm, o.parts, hpart::PartOwners{5, w.size});
  PayloadSerialiser s(o);
  s.unpack_short = w.rank == 0;
  expect_error_everywhere([&] { plan.move(s); }, "unpack must read what pack wrote");
}

TEST(MigrationBadInput, RepeatedIdThrowsEverywhere) {
  const World w;
  const hpart::Comm comm(w.comm);
  Objects o = make_objects(w, 600, 5);
  // The same id twice on one rank, then on two ranks (the last rank takes rank 1's first id).
  std::vector<hpart::gid_t> ids = o.ids;
  if (w.rank == w.size - 1) ids[1] = ids[0];
  expect_error_everywhere([&] { (void)hpart::Migration(comm, o.parts, hpart::PartOwners{5, w.size}, ids); },
                          "is given twice (both on rank");
  if (w.size >= 2) {
    // The last rank repeats the first id of the lowest rank that holds objects (rank 0 holds
    // none from 3 ranks on).
    ids = o.ids;
    const hpart::gid_t first_held = hpart::testing::uneven_block(600, w.size >= 3 ? 1 : 0, w.size).first;
    if (w.rank == w.size - 1) ids.back() = first_held;
    expect_error_everywhere([&] { (void)hpart::Migration(comm, o.parts, hpart::PartOwners{5, w.size}, ids); },
                            "is given twice (on ranks");
  }
  ids = o.ids;
  if (w.rank == w.size - 1) ids[0] = -3;
  expect_error_everywhere([&] { (void)hpart::Migration(comm, o.parts, hpart::PartOwners{5, w.size}, ids); },
                          "ids must be non-negative");
  ids = o.ids;
  if (w.rank == w.size - 1) ids.pop_back();
  expect_error_everywhere([&] { (void)hpart::Migration(comm, o.parts, hpart::PartOwners{5, w.size}, ids); },
                          "pass one id per object");
}

TEST(MigrationBadInput, MismatchedVariableLengthsThrowEverywhere) {
  const World w;
  const hpart::Comm comm(w.comm);
  const Objects o = make_objects(w, 600, 5);
  const hpart::Migration plan(comm, o.parts, hpart::PartOwners{5, w.size});
  const bool bad = w.rank == w.size - 1;
  std::vector<std::size_t> sizes = o.sizes;
  if (bad) sizes.push_back(3);
  expect_error_everywhere([&] { (void)plan.move_variable(sizes, o.bytes); }, "pass one size per object");
  std::vector<unsigned char> bytes = o.bytes;
  if (bad) bytes.push_back(1);
  expect_error_everywhere([&] { (void)plan.move_variable(o.sizes, bytes); }, "bytes but");
  expect_plan_still_moves(plan, o);
}

}  // namespace
