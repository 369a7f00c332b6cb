// Halo exchange against a serial reference (every halo cell equals the global cell it mirrors,
// wrapped on periodic axes, zero past the other edges), its adjoint <Hx, y> = <x, H^T y>, the
// overlap of begin()/end() with interior work, and the thin-shard error.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "hpart/tensor/halo.hpp"
#include "hpart/tensor/ops.hpp"
#include "tensor_test_support.hpp"
#include "test_world.hpp"

namespace {

using namespace hpart::tensor;
using hpart::testing::expect_error_everywhere;
using hpart::testing::World;
namespace htest = hpart::testing;

struct Case {
  TensorShape shape;
  Mesh mesh;
  Halo halo;
  std::string name;
};

// Expected local array (halo included) of this rank, from the global field.
template <class T, class M>
int count_wrong(const ShardTensor<T, M>& t, const std::vector<T>& global) {
  const auto h = htest::host_array(t);
  const ShardLayout& l = t.layout();
  const TensorShape& s = l.shape();
  const hpart::Box& b = t.box();
  const Index5 m = t.margins();
  int wrong = 0;
  for (std::size_t i0 = 0; i0 < h.extent(0); ++i0)
    for (std::size_t i1 = 0; i1 < h.extent(1); ++i1)
      for (std::size_t i2 = 0; i2 < h.extent(2); ++i2)
        for (std::size_t i3 = 0; i3 < h.extent(3); ++i3)
          for (std::size_t i4 = 0; i4 < h.extent(4); ++i4) {
            const std::size_t loc[5] = {i0, i1, i2, i3, i4};
            Index5 g{};
            bool zero = false;
            for (int a = 0; a < kRank; ++a) {
              const auto ua = static_cast<std::size_t>(a);
              std::int64_t x = static_cast<std::int64_t>(loc[ua]) - m[ua] + b.lo[ua];
              const std::int64_t e = s.extent[ua];
              if (x < 0 || x >= e) {
                if (l.periodic(a)) x = ((x % e) + e) % e;
                else zero = true;
              }
              g[ua] = x;
            }
            const T expect = zero ? T(0) : global[static_cast<std::size_t>(htest::flat_index(s, g))];
            if (h(i0, i1, i2, i3, i4) != expect) ++wrong;
          }
  return wrong;
}

std::vector<Case> cases(int P) {
  std::vector<Case> out;
  const Mesh m2 = htest::mesh2d_for(P);
  for (std::int64_t extra : {0, 3}) {
    const std::int64_t H = 3 * P + extra, W = 2 * m2.parts[kAxisW] + 3 + extra;
    for (int per = 0; per < 4; ++per) {
      const bool ph = per & 1, pw = per & 2;
      out.push_back({TensorShape::d2(2, 3, H, 7), Mesh::slabs(P).with_periodic(false, ph, pw), Halo{0, 1, 1},
                     "slabs H=" + std::to_string(H) + " per=" + std::to_string(per)});
      out.push_back({TensorShape::d2(1, 2, H, W), m2.with_periodic(false, ph, pw), Halo{0, 2, 1},
                     "mesh2d H=" + std::to_string(H) + " W=" + std::to_string(W) + " per=" + std::to_string(per)});
    }
  }
  // 3-D tensors on a 1-D mesh (along D) and a 2-D mesh (H, W), all periodic or none.
  for (bool per : {false, true}) {
    Mesh d = Mesh::along(kAxisD, P).with_periodic(per, per, per);
    out.push_back({TensorShape::d3(1, 2, 2 * P + 1, 4, 5), d, Halo::uniform(1, 3), "3d on D mesh"});
    Mesh hw = Mesh::grid3d(1, m2.parts[kAxisH], m2.parts[kAxisW]).with_periodic(per, per, per);
    out.push_back({TensorShape::d3(2, 1, 3, 2 * P + 1, 2 * P + 2), hw, Halo::uniform(1, 3), "3d on HW mesh"});
  }
  // A domain of size 1 along H (one shard there), periodic: the halo mirrors the shard itself.
  out.push_back({TensorShape::d2(1, 1, 1, 4 * P), Mesh::along(kAxisW, P).with_periodic(false, true, true),
                 Halo{0, 1, 2}, "H = 1 periodic"});
  out.push_back({TensorShape::d2(1, 1, 1, 4 * P), Mesh::along(kAxisW, P), Halo{0, 1, 2}, "H = 1"});
  // Batch sharded together with H (an empty batch shard on some sizes).
  if (P % 2 == 0) {
    Mesh nb = Mesh::slabs(P / 2);
    nb.parts[kAxisN] = 2;
    out.push_back({TensorShape::d2(3, 1, 2 * P, 5), nb.with_periodic(false, true, false), Halo{0, 1, 1}, "batch x H"});
    // A batch of 1 split in two: half the ranks hold empty shards, the others exchange as usual.
    out.push_back({TensorShape::d2(1, 2, 2 * P, 5), nb.with_periodic(false, false, true), Halo{0, 1, 1}, "batch of 1 x H"});
  }
  return out;
}

const HaloTransfer kTransfers[] = {HaloTransfer::automatic, HaloTransfer::pack,      HaloTransfer::direct_datatype,
                                   HaloTransfer::direct_runs, HaloTransfer::pack_runs, HaloTransfer::shared_memory};
std::string transfer_name(HaloTransfer t) {
  return t == HaloTransfer::automatic ? "automatic" : t == HaloTransfer::pack ? "pack"
         : t == HaloTransfer::direct_datatype ? "direct_datatype" : t == HaloTransfer::direct_runs ? "direct_runs"
         : t == HaloTransfer::pack_runs ? "pack_runs" : "shared_memory";
}

template <class T>
void run_forward_cases(MPI_Comm c, HaloTransfer transfer) {
  const World w(c);
  const hpart::Comm comm(c);
  for (const Case& k : cases(w.size)) {
    SCOPED_TRACE(k.name + " " + transfer_name(transfer));
    const auto layout = ShardLayout::sharded(comm, k.shape, k.mesh);
    const auto global = htest::global_field<T>(k.shape);
    // A new tensor: zero padding from allocation.
    auto x = from_global<T>(layout, k.halo, global);
    HaloExchange<T> halo(x, HaloOptions{Padding::zero_each_exchange, transfer});
    const auto messages = static_cast<int>(halo.plan().sends.size() + halo.plan().receives.size());
    const bool direct = transfer == HaloTransfer::direct_datatype || transfer == HaloTransfer::direct_runs;
    const bool packed = transfer == HaloTransfer::pack || transfer == HaloTransfer::pack_runs;
    EXPECT_EQ(halo.direct_messages(), direct ? messages : packed ? 0 : halo.direct_messages());
    halo.exchange(x);
    EXPECT_EQ(count_wrong(x, global), 0);
    // A second exchange with the same plan gives the same result.
    halo.exchange(x);
    EXPECT_EQ(count_wrong(x, global), 0);
    // Garbage in the whole halo: the exchange overwrites it, padding included.
    auto y = x.like();
    Kokkos::deep_copy(y.view(), T(77));
    copy(x, y);
    halo.exchange(y);
    EXPECT_EQ(count_wrong(y, global), 0);
    // Padding::assume_zero leaves the padding to the caller: zero_edges clears it.
    HaloExchange<T> keep(x, HaloOptions{Padding::assume_zero, transfer});
    Kokkos::deep_copy(y.view(), T(77));
    copy(x, y);
    keep.exchange(y);
    const bool has_padding = !keep.plan().edge_zeros.empty() && x.interior_volume() > 0;
    EXPECT_EQ(count_wrong(y, global) > 0, has_padding);
    keep.zero_edges(y);
    EXPECT_EQ(count_wrong(y, global), 0);
  }
}

TEST(TensorHalo, MatchesSerialReferenceDouble) {
  for (HaloTransfer t : kTransfers) run_forward_cases<double>(MPI_COMM_WORLD, t);
}
TEST(TensorHalo, MatchesSerialReferenceFloat) {
  for (HaloTransfer t : kTransfers) run_forward_cases<float>(MPI_COMM_WORLD, t);
}
TEST(TensorHalo, MatchesSerialReferenceOnSubCommunicator) {
  const hpart::testing::HalfWorld half;
  for (HaloTransfer t : kTransfers) run_forward_cases<double>(half.comm, t);
}

template <class T>
void run_adjoint_cases(HaloTransfer transfer) {
  const World w;
  const hpart::Comm comm(w.comm);
  for (const Case& k : cases(w.size)) {
    SCOPED_TRACE(k.name + " " + transfer_name(transfer));
    const auto layout = ShardLayout::sharded(comm, k.shape, k.mesh);
    ShardTensor<T> x(layout, k.halo), y(layout, k.halo);
    htest::fill_random(x, 11);
    htest::fill_random(y, 12);
    HaloExchange<T> halo(x, HaloOptions{Padding::zero_each_exchange, transfer});
    auto hx = x.like();
    Kokkos::deep_copy(hx.view(), x.view());  // H reads the interior; the halo's garbage must not matter
    halo.exchange(hx);
    auto hty = y.like();
    Kokkos::deep_copy(hty.view(), y.view());
    halo.adjoint(hty);
    const double lhs = stored_dot(hx, y, true), rhs = stored_dot(x, hty, true);
    EXPECT_EQ(lhs, rhs);  // values are multiples of 1/8: every sum is exact
    EXPECT_NE(lhs, 0.0);
    // H^T leaves the halo zero.
    EXPECT_EQ(stored_dot(hty, hty, true), stored_dot(hty, hty, false));
  }
}

TEST(TensorHalo, AdjointIdentityDouble) {
  for (HaloTransfer t : kTransfers) run_adjoint_cases<double>(t);
}
TEST(TensorHalo, AdjointIdentityFloat) {
  for (HaloTransfer t : kTransfers) run_adjoint_cases<float>(t);
}

// Long rows (W = 300 doubles, 2.4 KiB): automatic sends the H faces straight from the tensor and
// packs the W faces and corners (runs of one element).
TEST(TensorHalo, AutomaticGoesDirectOnLongRows) {
  const World w;
  const hpart::Comm comm(w.comm);
  for (std::int64_t W : {300, 600}) {  // 2.4 KiB rows: a datatype; 4.8 KiB: one message per row
  const auto shape = TensorShape::d2(1, 3, 2 * w.size, W);
  const auto layout = ShardLayout::sharded(comm, shape, htest::mesh2d_for(w.size).with_periodic(false, true, false));
  const auto global = htest::global_field<double>(shape);
  auto x = from_global<double>(layout, Halo{0, 1, 1}, global);
  HaloExchange<double> halo(x);
  int faces_h = 0;  // messages along H only: long runs
  for (const auto* list : {&halo.plan().sends, &halo.plan().receives})
    for (const auto& m : *list) faces_h += m.region.count[kAxisW] >= 100 ? 1 : 0;
  EXPECT_EQ(halo.direct_messages(), faces_h);
  halo.exchange(x);
  EXPECT_EQ(count_wrong(x, global), 0);
  auto g = x.like();
  htest::fill_random(g, 3);
  HaloExchange<double> packed(g, HaloOptions{Padding::zero_each_exchange, HaloTransfer::pack});
  auto ag = x.like(), ag_packed = x.like();
  Kokkos::deep_copy(ag.view(), g.view());
  Kokkos::deep_copy(ag_packed.view(), g.view());
  halo.adjoint(ag);
  packed.adjoint(ag_packed);
  // The adjoint adds what arrives: direct sends and packed ones give the same sums.
  EXPECT_EQ(stored_dot(ag, ag, true), stored_dot(ag_packed, ag_packed, true));
  }
}

// automatic measures its candidates over its first forward exchanges, then keeps one policy,
// the same on every rank; every exchange on the way (routes changing under it, adjoints in
// between) gives the reference result.
TEST(TensorHalo, AutomaticMeasuresThenSettlesOnOnePolicy) {
  const World w;
  const hpart::Comm comm(w.comm);
  const auto shape = TensorShape::d2(1, 3, 2 * w.size, 600);
  const auto layout = ShardLayout::sharded(comm, shape, htest::mesh2d_for(w.size).with_periodic(false, true, false));
  const auto global = htest::global_field<double>(shape);
  auto x = from_global<double>(layout, Halo{0, 1, 1}, global);
  HaloExchange<double> halo(x);
  const bool messages = !halo.plan().sends.empty();
  EXPECT_EQ(halo.tuning(), w.size > 1 || messages);
  auto g = x.like();
  htest::fill_random(g, 5);
  HaloExchange<double> packed(g, HaloOptions{Padding::zero_each_exchange, HaloTransfer::pack});
  int exchanges = 0;
  while (halo.tuning()) {
    Kokkos::deep_copy(x.view(), -3.0);
    copy(from_global<double>(layout, Halo{0, 1, 1}, global), x);
    halo.exchange(x);
    ++exchanges;
    EXPECT_EQ(count_wrong(x, global), 0) << "exchange " << exchanges << " with policy " << static_cast<int>(halo.transfer());
    auto a = x.like(), b = x.like();
    Kokkos::deep_copy(a.view(), g.view());
    Kokkos::deep_copy(b.view(), g.view());
    halo.adjoint(a);
    packed.adjoint(b);
    EXPECT_EQ(stored_dot(a, a, true), stored_dot(b, b, true));
    ASSERT_LE(exchanges, static_cast<int>(halo.candidates().size()) * kTuneExchanges);
  }
  if (w.size > 1) {
    EXPECT_EQ(exchanges, static_cast<int>(halo.candidates().size()) * kTuneExchanges);
    // Every rank of a test shares one node: the mailboxes are a candidate.
    EXPECT_EQ(halo.candidates().size(), 4u);
    EXPECT_EQ(halo.candidates().back(), HaloTransfer::shared_memory);
  }
  int mine[2] = {static_cast<int>(halo.transfer()), -static_cast<int>(halo.transfer())};
  MPI_Allreduce(MPI_IN_PLACE, mine, 2, MPI_INT, MPI_MAX, w.comm);
  EXPECT_EQ(mine[0], -mine[1]) << "ranks settled on different policies";
  halo.exchange(x);
  EXPECT_EQ(count_wrong(x, global), 0);
  EXPECT_FALSE(halo.tuning());
}

// Shared-memory mailboxes leave nothing behind: every segment's name is unlinked once all ranks
// have mapped it, while the plans (and their mappings) are still alive and exchanging.
TEST(TensorHalo, SharedMemoryLeavesNoSegmentNames) {
  const World w;
  const hpart::Comm comm(w.comm);
  const auto shape = TensorShape::d2(1, 2, 3 * w.size, 40);
  const auto layout = ShardLayout::sharded(comm, shape, htest::mesh2d_for(w.size).with_periodic(false, true, true));
  const auto global = htest::global_field<double>(shape);
  auto x = from_global<double>(layout, Halo{0, 1, 1}, global);
  HaloExchange<double> halo(x, HaloOptions{Padding::zero_each_exchange, HaloTransfer::shared_memory});
  halo.exchange(x);
  EXPECT_EQ(count_wrong(x, global), 0);
  const std::string mine = "hpart-halo-" + std::to_string(static_cast<long>(getpid())) + "-";
  int left = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/dev/shm", ec))
    left += e.path().filename().string().rfind(mine, 0) == 0 ? 1 : 0;
  EXPECT_EQ(left, 0) << "segments of this process still named in /dev/shm";
  halo.exchange(x);
  EXPECT_EQ(count_wrong(x, global), 0);
}

// The padding is zeroed again only after something may have written it: view() (writable) marks
// it, const_view() does not, and the exchange's zeroing clears the mark.
TEST(TensorHalo, PaddingIsZeroedWhenViewMayHaveWrittenIt) {
  const World w;
  const hpart::Comm comm(w.comm);
  const auto shape = TensorShape::d2(1, 2, 2 * w.size, 6);
  const auto layout = ShardLayout::sharded(comm, shape, Mesh::slabs(w.size));
  const auto global = htest::global_field<double>(shape);
  auto x = from_global<double>(layout, Halo{0, 1, 1}, global);
  HaloExchange<double> halo(x);
  halo.exchange(x);
  EXPECT_TRUE(x.padding_known_zero());
  (void)x.const_view();
  EXPECT_TRUE(x.padding_known_zero());
  Kokkos::deep_copy(x.view(), 5.0);  // the whole array, padding included
  EXPECT_FALSE(x.padding_known_zero());
  auto alias = x;  // copies share the mark
  copy(from_global<double>(layout, Halo{0, 1, 1}, global), alias);
  halo.exchange(alias);
  EXPECT_TRUE(x.padding_known_zero());
  EXPECT_EQ(count_wrong(x, global), 0);
  // A stale handle writing the padding is not seen: mark_padding_dirty() (or Padding::zero_always).
  const std::vector<double> fives(global.size(), 5.0);
  auto stale = x.view();
  halo.exchange(x);
  Kokkos::deep_copy(stale, 5.0);
  EXPECT_TRUE(x.padding_known_zero());
  x.mark_padding_dirty();
  halo.exchange(x);
  EXPECT_EQ(count_wrong(x, fives), 0);
  HaloExchange<double> always(x, Padding::zero_always);
  Kokkos::deep_copy(stale, 5.0);
  always.exchange(x);
  EXPECT_EQ(count_wrong(x, fives), 0);
}

// Two exchanges in flight on one communicator (same tags): begun in the same order on every rank,
// MPI's message order matches them, whichever is ended first.
TEST(TensorHalo, TwoExchangesInFlightOnOneCommunicator) {
  const World w;
  const hpart::Comm comm(w.comm);
  const auto sa = TensorShape::d2(1, 2, 3 * w.size, 5), sb = TensorShape::d2(1, 3, 3 * w.size, 5);
  const auto mesh = htest::mesh2d_for(w.size).with_periodic(false, true, true);
  const auto la = ShardLayout::sharded(comm, sa, mesh), lb = ShardLayout::sharded(comm, sb, mesh);
  const auto ga = htest::global_field<double>(sa), gb = htest::global_field<double>(sb);
  for (HaloTransfer t : kTransfers) {
    SCOPED_TRACE(transfer_name(t));
    auto a = from_global<double>(la, Halo{0, 1, 1}, ga);
    auto b = from_global<double>(lb, Halo{0, 1, 1}, gb);
    auto a2 = a.like();
    copy(a, a2);
    HaloExchange<double> ha(a, HaloOptions{Padding::zero_each_exchange, t}), hb(b, HaloOptions{Padding::zero_each_exchange, t});
    HaloExchange<double> ha2(a2, HaloOptions{Padding::zero_each_exchange, t});
    ha.begin(a);
    hb.begin(b);
    ha2.begin(a2);  // same shape and tags as ha's
    hb.end(b);
    ha2.end(a2);
    ha.end(a);
    EXPECT_EQ(count_wrong(a, ga), 0);
    EXPECT_EQ(count_wrong(a2, ga), 0);
    EXPECT_EQ(count_wrong(b, gb), 0);
    // One plan on several tensors in turn: its persistent requests follow the tensor.
    for (auto* u : {&a2, &a, &a2}) {
      Kokkos::deep_copy(u->view(), -1.0);
      copy(from_global<double>(la, Halo{0, 1, 1}, ga), *u);
      ha.exchange(*u);
      EXPECT_EQ(count_wrong(*u, ga), 0);
    }
  }
}

TEST(TensorHalo, BeginEndOverlapsInteriorWork) {
  const World w;
  const hpart::Comm comm(w.comm);
  const auto shape = TensorShape::d2(1, 4, 4 * w.size, 9);
  const auto layout = ShardLayout::sharded(comm, shape, htest::mesh2d_for(w.size).with_periodic(false, true, true));
  const auto global = htest::global_field<double>(shape);
  auto x = from_global<double>(layout, Halo{0, 1, 1}, global);
  HaloExchange<double> halo(x);
  halo.begin(x);
  EXPECT_TRUE(halo.in_flight());
  const double s = sum(x);  // reads the interior while messages travel
  EXPECT_THROW(halo.begin(x), hpart::Error);
  halo.end(x);
  EXPECT_FALSE(halo.in_flight());
  EXPECT_EQ(count_wrong(x, global), 0);
  double expect = 0;
  for (double v : global) expect += v;
  EXPECT_EQ(s, expect);
  EXPECT_THROW(halo.end(x), hpart::Error);
}

TEST(TensorHalo, ThinnerThanHaloIsAnErrorOnEveryRank) {
  const World w;
  const hpart::Comm comm(w.comm);
  // One row per shard and a halo of two: the halo would need the shard after next.
  const auto shape = TensorShape::d2(1, 1, w.size, 8);
  const auto layout = ShardLayout::sharded(comm, shape, Mesh::slabs(w.size).with_periodic(false, true, false));
  expect_error_everywhere([&] { ShardTensor<double> t(layout, Halo{0, 2, 0}); }, "wider than shard");
  // Width 1 is fine there, and so is width 2 along the unsplit, non-periodic W... and H = 1.
  ShardTensor<double> ok(layout, Halo{0, 1, 2});
  EXPECT_EQ(ok.interior_extent()[kAxisH], 1);
  // Mismatched halos across ranks.
  if (w.size > 1)
    expect_error_everywhere([&] { ShardTensor<double> t(layout, Halo{0, 1, w.rank == 0 ? 1 : 0}); }, "differs");
  // A halo on a layout without a mesh.
  expect_error_everywhere([&] { ShardTensor<double> t(ShardLayout::on_rank(comm, shape, 0), Halo{0, 1, 1}); },
                          "mesh layout");
}

// ShardTensor::wrap: a halo exchange (and its adjoint) on caller-owned memory, as hpart.torch
// does on torch tensors. Two different arrays through one packed plan (whose requests do not
// depend on the array) and through the automatic one (direct messages: requests per array).
TEST(TensorHalo, WrappedCallerMemory) {
  const World w;
  const hpart::Comm comm(w.comm);
  for (const Case& k : cases(w.size)) {
    SCOPED_TRACE(k.name);
    using V = ShardTensor<double, Kokkos::HostSpace>::view_type;
    const auto layout = ShardLayout::sharded(comm, k.shape, k.mesh);
    const auto global = htest::global_field<double>(k.shape);
    const auto ref = from_global<double, Kokkos::HostSpace>(layout, k.halo, global);
    const auto e = ref.const_view();
    const std::size_t n = e.size();
    std::vector<double> mem_a(n + 1, 77.0), mem_b(n + 1, 55.0);  // +1: never a null pointer
    for (HaloTransfer transfer : {HaloTransfer::pack_runs, HaloTransfer::automatic}) {
      HaloExchange<double, Kokkos::HostSpace> halo(ref, HaloOptions{Padding::zero_each_exchange, transfer});
      for (std::vector<double>* mem : {&mem_a, &mem_b, &mem_a}) {
        const V v(mem->data(), e.extent(0), e.extent(1), e.extent(2), e.extent(3), e.extent(4));
        auto t = ShardTensor<double, Kokkos::HostSpace>::wrap(layout, k.halo, v);
        EXPECT_EQ(t.view().data(), mem->data());  // no copy
        std::fill(mem->begin(), mem->end(), 77.0);  // garbage in halo and padding
        copy(ref, t);
        halo.exchange(t);
        EXPECT_EQ(count_wrong(t, global), 0);
        // Adjoint on the same memory: <H x, H x> = <x, H^T H x> over the ranks.
        const double hh = stored_dot(t, t, true);
        auto x = ref.like();
        copy(ref, x);
        halo.adjoint(t);
        EXPECT_EQ(stored_dot(x, t, true), hh);
      }
    }
    if (!layout.local_box().empty()) {
      const V small(mem_a.data(), e.extent(0), e.extent(1), e.extent(2), e.extent(3), e.extent(4) - 1);
      EXPECT_THROW((ShardTensor<double, Kokkos::HostSpace>::wrap(layout, k.halo, small)), hpart::Error);
    }
  }
}

}  // namespace
