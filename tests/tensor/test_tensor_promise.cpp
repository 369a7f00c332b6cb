// The promise on the tensor layer's public entry points (issue 20): layouts, ShardTensor, the
// halo exchange plan, redistribution and the whole-tensor test helpers. Every case runs on the
// world and on a sub-communicator at np 1-4. Bad input (arguments that differ on one rank, a
// local problem on one rank only, sizes that cannot be served) is the same hpart::Error on every
// rank; valid edge input (empty shards, shapes smaller than the rank count, extents of 1) works.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "hpart/tensor/tensor.hpp"
#include "tensor_test_support.hpp"

namespace {

using namespace hpart::tensor;
namespace htest = hpart::testing;
using htest::expect_same_error;
using htest::MemoryLimit;
using htest::on_world_and_half;
using htest::World;

bool is_last(const World& w) { return w.rank == w.size - 1; }

TEST(TensorPromise, LayoutArgumentsThatDifferOnOneRank) {
  on_world_and_half([](MPI_Comm c) {
    const World w(c);
    if (w.size == 1) return;  // one rank cannot disagree with itself
    const hpart::Comm comm(c);
    const bool odd = is_last(w);
    const std::int64_t H = 4 * w.size;
    const auto shape = TensorShape::d2(1, 2, H, 6);
    const Mesh slabs = Mesh::slabs(w.size);
    expect_same_error(
        c, [&] { (void)ShardLayout::sharded(comm, TensorShape::d2(1, 2, H, odd ? 7 : 6), slabs); },
        "TensorShape::extent[W] differs between ranks (from 6 to 7)");
    expect_same_error(
        c, [&] { (void)ShardLayout::sharded(comm, odd ? TensorShape::d3(1, 2, 1, H, 6) : shape, slabs); },
        "TensorShape::spatial_dims differs between ranks (from 2 to 3)");
    // The process mesh: another split of the same ranks, replicas, periodic axes.
    expect_same_error(
        c, [&] { (void)ShardLayout::sharded(comm, TensorShape::d2(1, 2, H, H), odd ? Mesh::along(kAxisW, w.size) : slabs); },
        "Mesh::parts[H] differs between ranks");
    Mesh replicated;
    replicated.replicas = odd ? 1 : w.size;
    expect_same_error(c, [&] { (void)ShardLayout::sharded(comm, shape, replicated); },
                      "Mesh::replicas differs between ranks (from 1 to " + std::to_string(w.size) + ")");
    expect_same_error(
        c, [&] { (void)ShardLayout::sharded(comm, shape, slabs.with_periodic(false, odd, false)); },
        "Mesh::periodic differs between ranks");
    // The split: method, alignment, explicit extents (each rank's valid, but not the same).
    SplitOptions split;
    split.method = odd ? SplitMethod::uniform : SplitMethod::balanced;
    expect_same_error(c, [&] { (void)ShardLayout::sharded(comm, shape, slabs, split); },
                      "SplitOptions::method differs between ranks");
    split = {};
    split.align_levels = odd ? 1 : 0;
    expect_same_error(c, [&] { (void)ShardLayout::sharded(comm, shape, slabs, split); },
                      "SplitOptions::align_levels differs between ranks (from 0 to 1)");
    split = {};
    split.method = SplitMethod::explicit_extents;
    split.extents[kAxisH].assign(static_cast<std::size_t>(w.size), 1);
    split.extents[kAxisH][odd ? 0 : static_cast<std::size_t>(w.size - 1)] = H - w.size + 1;
    expect_same_error(c, [&] { (void)ShardLayout::sharded(comm, shape, slabs, split); },
                      "SplitOptions::extents differs between ranks");
    // on_rank's root, from_boxes' shape.
    expect_same_error(c, [&] { (void)ShardLayout::on_rank(comm, shape, odd ? 1 : 0); }, "root differs between ranks");
    expect_same_error(
        c, [&] { (void)ShardLayout::from_boxes(comm, TensorShape::d2(odd ? 2 : 1, 2, H, 6), empty_box()); },
        "TensorShape::extent[N] differs between ranks (from 1 to 2)");
  });
}

// The cost field of a balanced split is each rank's own: a problem there is one rank's only.
TEST(TensorPromise, CostFieldProblemsOnOneRankOnly) {
  on_world_and_half([](MPI_Comm c) {
    const World w(c);
    const hpart::Comm comm(c);
    const std::int64_t H = 3 * w.size, W = 5;
    const auto shape = TensorShape::d2(1, 1, H, W);
    // Each rank passes the cost of its 3 rows (grid order: x = W, y = H).
    hpart::Box mine;
    mine.dim = 2;
    mine.lo = {0, 3 * w.rank, 0};
    mine.hi = {W - 1, 3 * w.rank + 2, 0};
    std::vector<double> cost(static_cast<std::size_t>(3 * W), 1.0);
    SplitOptions split;
    split.cost_box = mine;
    split.cost = cost;
    EXPECT_NO_THROW((void)ShardLayout::sharded(comm, shape, Mesh::slabs(w.size), split));
    const std::string where = w.size > 1 ? "rank " + std::to_string(w.size - 1) + ": " : "";
    if (is_last(w)) split.cost_box.dim = 3;
    expect_same_error(c, [&] { (void)ShardLayout::sharded(comm, shape, Mesh::slabs(w.size), split); },
                      where + "split: cost_box has dimension 3, the tensor 2 spatial axes");
    split.cost_box = mine;
    std::vector<double> short_cost(cost.begin(), cost.end() - 1);
    if (is_last(w)) split.cost = short_cost;
    expect_same_error(c, [&] { (void)ShardLayout::sharded(comm, shape, Mesh::slabs(w.size), split); }, where + "cost");
    std::vector<double> nan_cost = cost;
    nan_cost[2] = std::numeric_limits<double>::quiet_NaN();
    split.cost = is_last(w) ? std::span<const double>(nan_cost) : std::span<const double>(cost);
    expect_same_error(c, [&] { (void)ShardLayout::sharded(comm, shape, Mesh::slabs(w.size), split); }, where + "cost");
  });
}

// Sizes that would overflow 64 bits or int are refused with a message, not wrapped.
TEST(TensorPromise, SizesThatOverflowAreRefused) {
  on_world_and_half([](MPI_Comm c) {
    const World w(c);
    const hpart::Comm comm(c);
    const std::int64_t big = std::int64_t{1} << 20;
    expect_same_error(c, [&] { (void)ShardLayout::sharded(comm, TensorShape::d2(big, big, big, big), Mesh::slabs(w.size)); },
                      "more than the 2^58 a tensor may have");
    expect_same_error(c, [&] { (void)ShardLayout::replicated(comm, TensorShape::d3(big, big, big, big, big)); },
                      "more than the 2^58 a tensor may have");
    // 65536 x 65536 shards: the rank count overflows an int.
    expect_same_error(c, [&] { (void)ShardLayout::sharded(comm, TensorShape::d2(1, 1, big, big), Mesh::grid2d(65536, 65536)); },
                      "needs 4294967296 ranks, the communicator has " + std::to_string(w.size));
    // Explicit extents whose sum wraps.
    SplitOptions split;
    split.method = SplitMethod::explicit_extents;
    split.extents[kAxisH].assign(static_cast<std::size_t>(w.size), std::numeric_limits<std::int64_t>::max());
    expect_same_error(c, [&] { (void)ShardLayout::sharded(comm, TensorShape::d2(1, 1, 8, 8), Mesh::slabs(w.size), split); },
                      "add up to more than the tensor's extent 8");
  });
}

// Enumerations cast from numbers outside their range were taken for a default silently.
TEST(TensorPromise, EnumValuesOutsideTheirRange) {
  on_world_and_half([](MPI_Comm c) {
    const World w(c);
    const hpart::Comm comm(c);
    SplitOptions split;
    split.method = static_cast<SplitMethod>(7);
    expect_same_error(c, [&] { (void)ShardLayout::sharded(comm, TensorShape::d2(1, 1, 8, 8), Mesh::slabs(w.size), split); },
                      "split: method 7 is not a SplitMethod");
    ShardTensor<double> x(ShardLayout::sharded(comm, TensorShape::d2(1, 1, 4 * w.size, 8), Mesh::slabs(w.size)),
                          Halo::uniform(1));
    expect_same_error(
        c, [&] { HaloExchange<double> h(x, HaloOptions{Padding::zero_each_exchange, static_cast<HaloTransfer>(9)}); },
        "HaloOptions: transfer 9 is not a HaloTransfer");
    expect_same_error(c, [&] { HaloExchange<double> h(x, HaloOptions{static_cast<Padding>(-1), HaloTransfer::pack}); },
                      "HaloOptions: padding -1 is not a Padding");
  });
}

// A tensor's local array is checked against the memory budget before it is allocated.
TEST(TensorPromise, TensorsThatDoNotFitAreRefusedOnEveryRank) {
  on_world_and_half([](MPI_Comm c) {
    const World w(c);
    const hpart::Comm comm(c);
    {
      // 2^40 cells: terabytes per rank.
      const MemoryLimit limit("1G");
      const auto layout = ShardLayout::sharded(comm, TensorShape::d2(1, 1, 1 << 20, 1 << 20), Mesh::slabs(w.size));
      expect_same_error(c, [&] { ShardTensor<float> t(layout); }, "more than the 1 GiB it may use");
      expect_same_error(c, [&] { ShardTensor<double> t(layout, Halo::uniform(1)); },
                        "with its halo needs");
    }
    // Only the last rank's shard is too large (64 of its rows, 1 of the others').
    SplitOptions split;
    split.method = SplitMethod::explicit_extents;
    split.extents[kAxisH].assign(static_cast<std::size_t>(w.size), 1);
    split.extents[kAxisH].back() = 64;
    const auto layout =
        ShardLayout::sharded(comm, TensorShape::d2(1, 1, w.size + 63, 1024), Mesh::slabs(w.size), split);
    const std::string where = w.size > 1 ? "rank " + std::to_string(w.size - 1) + ": " : "";
    {
      const MemoryLimit limit("100K");
      expect_same_error(c, [&] { ShardTensor<double> t(layout); },
                        where + "the shard [0..0, 0..0, 0..0, " + std::to_string(w.size - 1) + ".." +
                            std::to_string(w.size + 62) + ", 0..1023] of the tensor (N=1, C=1, H=" +
                            std::to_string(w.size + 63) + ", W=1024) needs 512 KiB");
    }
    ShardTensor<double> t(layout);  // fits without the limit
    EXPECT_EQ(t.interior_volume(), is_last(w) ? 64 * 1024 : 1024);
  });
}

// The test helpers that hold the whole tensor on every rank check that it fits.
TEST(TensorPromise, ToGlobalChecksTheWholeTensorFits) {
  on_world_and_half([](MPI_Comm c) {
    const World w(c);
    if (w.size == 1) return;  // the whole tensor is the shard: it fits as the shard did
    const hpart::Comm comm(c);
    const auto layout = ShardLayout::sharded(comm, TensorShape::d2(1, 1, 8 * w.size, 64), Mesh::slabs(w.size));
    ShardTensor<double> t(layout);  // 4 KiB per rank
    const MemoryLimit limit("6K");
    expect_same_error(c, [&] { (void)to_global(t); }, "to_global: the whole tensor (N=1, C=1, H=" +
                                                          std::to_string(8 * w.size) + ", W=64) needs");
  });
}

// A gather to one rank needs buffers of the whole tensor there: checked when the plan is made.
TEST(TensorPromise, RedistributeBuffersBeyondTheBudgetOfTheRoot) {
  on_world_and_half([](MPI_Comm c) {
    const World w(c);
    if (w.size == 1) return;  // nothing travels
    const hpart::Comm comm(c);
    const auto shape = TensorShape::d2(1, 1, 8 * w.size, 64);
    ShardTensor<double> x(ShardLayout::sharded(comm, shape, Mesh::slabs(w.size)));  // 4 KiB per rank
    const auto root = ShardLayout::on_rank(comm, shape, w.size - 1);
    {
      // Every sender packs its 4 KiB; the root receives 4 KiB from each other rank.
      const MemoryLimit limit(w.size == 2 ? "3K" : "6K");
      const std::string who = w.size == 2 ? "rank 0 (and 1 more)" : "rank " + std::to_string(w.size - 1);
      expect_same_error(c, [&] { (void)redistribute(x, root); },
                        who + ": redistribute: buffering the pieces this rank sends and receives needs " +
                            std::to_string(4 * (w.size - 1)) + " KiB");
    }
    EXPECT_EQ(to_global(redistribute(x, root)), to_global(x));
  });
}

TEST(TensorPromise, HaloArgumentsAndBuffers) {
  on_world_and_half([](MPI_Comm c) {
    const World w(c);
    const hpart::Comm comm(c);
    const auto layout = ShardLayout::sharded(comm, TensorShape::d2(1, 4, 8 * w.size, 64),
                                             Mesh::slabs(w.size).with_periodic(false, true, false));
    const bool odd = is_last(w);
    expect_same_error(c, [&] { ShardTensor<double> t(layout, Halo{0, -1, 1}); }, "halo widths must be >= 0");
    expect_same_error(c, [&] { ShardTensor<double> t(layout, Halo{1, 1, 1}); }, "a 2-D tensor has no halo along D");
    if (w.size > 1) {
      expect_same_error(c, [&] { ShardTensor<double> t(layout, Halo{0, 1, odd ? 2 : 1}); },
                        "Halo::w differs between ranks (from 1 to 2)");
      // A negative width on one rank: the widths differ first.
      expect_same_error(c, [&] { ShardTensor<double> t(layout, Halo{0, odd ? -1 : 1, 1}); },
                        "Halo::h differs between ranks (from -1 to 1)");
    }
    ShardTensor<double> x(layout, Halo::uniform(1));
    if (w.size > 1) {
      // A transfer policy that differs between neighbours would change the messages each expects.
      expect_same_error(
          c,
          [&] {
            HaloExchange<double> h(x, HaloOptions{Padding::zero_each_exchange,
                                                  odd ? HaloTransfer::direct_runs : HaloTransfer::pack});
          },
          "HaloOptions::transfer differs between ranks");
      expect_same_error(
          c, [&] { HaloExchange<double> h(x, HaloOptions{odd ? Padding::assume_zero : Padding::zero_always, HaloTransfer::pack}); },
          "HaloOptions::padding differs between ranks");
      // Buffers beyond the budget (2 rows of 4 x 64 doubles each way: 8 KiB in all here).
      const MemoryLimit limit("1K");
      expect_same_error(c, [&] { HaloExchange<double> h(x); }, "a halo exchange plan for (N=1, C=4, H=" + std::to_string(8 * w.size) + ", W=64) needs 8 KiB");
    }
    HaloExchange<double> h(x);  // and without the limit, it works
    h.exchange(x);
    h.adjoint(x);
  });
}

// Valid edge input: fewer cells than ranks along the split axis (empty shards), extents of 1,
// a batch or channel split wider than the batch or channels: every collective runs and the
// values survive the round trips.
TEST(TensorPromise, EmptyShardsAndExtentsOfOneWork) {
  on_world_and_half([](MPI_Comm c) {
    const World w(c);
    const hpart::Comm comm(c);
    struct Edge {
      TensorShape shape;
      Mesh mesh;
      Halo halo;
    };
    const std::vector<Edge> edges = {
        {TensorShape::d2(1, 1, 1, 1), Mesh::slabs(w.size), {}},
        {TensorShape::d2(2, 3, 1, 5), Mesh::slabs(w.size), {}},
        {TensorShape::d2(1, 1, 4, 6), Mesh::along(kAxisN, w.size), Halo{0, 1, 1}},
        {TensorShape::d2(1, 1, 4, 6), Mesh::along(kAxisN, w.size).with_periodic(false, true, true), Halo{0, 2, 1}},
        {TensorShape::d2(2, 1, 3, 2), Mesh::along(kAxisC, w.size), Halo{0, 1, 1}},
        {TensorShape::d3(1, 2, 1, 1, 1), Mesh::grid3d(w.size, 1, 1), {}},
    };
    for (const Edge& e : edges) {
      SCOPED_TRACE(e.shape.str());
      const auto layout = ShardLayout::sharded(comm, e.shape, e.mesh);
      const auto global = htest::global_field<double>(e.shape);
      auto x = from_global<double>(layout, e.halo, global);
      EXPECT_EQ(to_global(x), global);
      double total = 0;
      for (double v : global) total += v;
      EXPECT_NEAR(sum(x), total, 1e-9);
      // Gather to the last rank and scatter back.
      const auto root = ShardLayout::on_rank(comm, e.shape, w.size - 1);
      auto whole = redistribute(x, root);
      EXPECT_EQ(to_global(whole), global);
      auto back = redistribute(whole, layout, e.halo);
      EXPECT_EQ(to_global(back), global);
      // The halo exchange and its adjoint over the whole local arrays: <H x, y> = <x, H^T y>.
      HaloExchange<double> halo(x);
      auto r = x.like(), y = x.like(), hr = x.like(), hty = x.like();
      htest::fill_random(r, 3);
      htest::fill_random(y, 4);
      Kokkos::deep_copy(hr.view(), r.const_view());
      Kokkos::deep_copy(hty.view(), y.const_view());
      halo.exchange(hr);
      halo.adjoint(hty);
      const double lhs = stored_dot(hr, y, true), rhs = stored_dot(r, hty, true);
      EXPECT_NEAR(lhs, rhs, 1e-9 * (1 + std::abs(lhs)));
    }
  });
}

}  // namespace
