// The promise on the sharded layers (issue 20), on the world and on a sub-communicator at np 1-4:
// layer arguments and replicated parameters that differ on one rank, arguments that are bad on
// one rank only (the constructors do not communicate: the first collective call reports them),
// tensors of another layout passed on one rank only to the calls whose collective can carry the
// verdict (GroupNorm, mse_loss, dot), and sizes that cannot be served: each is the same
// hpart::Error on every rank, never a hang.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "hpart/tensor/layers.hpp"
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

// "rank r: " where only rank r fails, on `w`'s communicator ("" on one rank).
std::string where(const World& w, int r) { return w.size > 1 ? "rank " + std::to_string(r) + ": " : ""; }

ShardLayout slab_layout(MPI_Comm c, std::int64_t channels, std::int64_t rows_per_rank = 4) {
  const World w(c);
  return ShardLayout::sharded(hpart::Comm(c), TensorShape::d2(1, channels, rows_per_rank * w.size, 6), Mesh::slabs(w.size));
}

TEST(LayersPromise, ConvArgumentsAndWeightsThatDifferOnOneRank) {
  on_world_and_half([](MPI_Comm c) {
    const World w(c);
    if (w.size == 1) return;  // one rank cannot disagree with itself
    const bool odd = is_last(w);
    ShardTensor<double> x(slab_layout(c, 2), Halo::uniform(2));
    {
      Conv<double> conv({2, 3, 1, 3, 3}, true, odd ? 8 : 7);  // another seed: other weights
      expect_same_error(c, [&] { (void)conv.make_output(x); }, "Conv weight differs between ranks");
    }
    {
      Conv<double> conv({2, 3, 1, 3, 3});
      if (odd) Kokkos::deep_copy(conv.bias, 0.5);  // a parameter set on one rank only
      expect_same_error(c, [&] { (void)conv.make_output(x); }, "Conv bias values differs between ranks");
    }
    {
      Conv<double> conv({2, 3, 1, odd ? 5 : 3, 3});
      expect_same_error(c, [&] { (void)conv.make_output(x); }, "Conv kh differs between ranks (from 3 to 5)");
    }
    {
      Conv<double> conv({2, odd ? 4 : 3, 1, 3, 3});
      expect_same_error(c, [&] { (void)conv.make_output(x); }, "Conv cout differs between ranks (from 3 to 4)");
    }
    {
      Conv<double> conv({2, 3, 1, 3, 3}, !odd);
      expect_same_error(c, [&] { (void)conv.make_output(x); }, "Conv bias differs between ranks (from 0 to 1)");
    }
    {
      // An even kernel on one rank: its constructor kept the problem instead of throwing alone.
      Conv<double> conv({2, 3, 1, 3, odd ? 4 : 3});
      expect_same_error(c, [&] { (void)conv.make_output(x); }, "Conv kw differs between ranks (from 3 to 4)");
    }
  });
}

TEST(LayersPromise, BadConvShapesAndSizesAreReportedByTheFirstCall) {
  on_world_and_half([](MPI_Comm c) {
    const World w(c);
    ShardTensor<double> x(slab_layout(c, 2), Halo::uniform(1));
    Conv<double> even({2, 3, 1, 2, 3});  // no throw here: the constructor does not communicate
    expect_same_error(c, [&] { (void)even.make_output(x); }, "kernel extents must be odd");
    Conv<double> none({2, 0, 1, 3, 3});
    expect_same_error(c, [&] { (void)none.make_output(x); }, "channel counts must be >= 1");
    // 65536 x 65536 weights: more than one all-reduce of their gradient takes, and never allocated.
    Conv<double> huge({65536, 65536, 1, 1, 1});
    EXPECT_EQ(huge.weight.extent(0), 0u);
    expect_same_error(c, [&] { (void)huge.make_output(x); }, "weights are more than one all-reduce");
    {
      const MemoryLimit limit("1M");
      Conv<double> wide({512, 512, 1, 3, 3});
      expect_same_error(c, [&] { (void)wide.make_output(x); }, "conv with 2359296 weights needs");
    }
    {
      // The backward pass' partial sums: 1024 blocks of 16 x 16 x 9 + 16 doubles (18 MiB) for a
      // shard of 4096 rows.
      ShardTensor<float> tall(ShardLayout::sharded(hpart::Comm(c), TensorShape::d2(1, 16, 4096 * w.size, 6),
                                                   Mesh::slabs(w.size)),
                              Halo::uniform(1));
      const MemoryLimit limit("4M");
      Conv<float> conv16({16, 16, 1, 3, 3});
      // Every rank fails: the message is the lowest one's (rank 0's shard).
      expect_same_error(c, [&] { (void)conv16.make_output(tall); },
                        "the weight gradient's partial sums of conv on [0..0, 0..15, 0..0, 0..4095, 0..5] needs 18.1 MiB");
    }
    // A good layer on the same tensor works.
    Conv<double> conv({2, 3, 1, 3, 3});
    auto y = conv.make_output(x);
    conv.forward(x, y);
  });
}

// A memory budget exceeded on one rank only (another node, another limit): that rank's problem is
// reported, not the parameters it could not allocate (which differ from the others' as a result).
TEST(LayersPromise, ParametersBeyondTheBudgetOfOneRank) {
  on_world_and_half([](MPI_Comm c) {
    const World w(c);
    const std::string me = where(w, w.size - 1);
    ShardTensor<double> x(slab_layout(c, 4), Halo::uniform(1));
    auto y = x.like();
    auto limited = [&](const char* limit, auto&& make) {
      if (!is_last(w)) return make();
      const MemoryLimit l(limit);
      return make();
    };
    auto conv = limited("256K", [] { return std::make_unique<Conv<double>>(ConvShape{4, 512, 1, 3, 3}); });
    expect_same_error(c, [&] { (void)conv->make_output(x); }, me + "conv with 18432 weights needs");
    auto norm = limited("64", [] { return std::make_unique<GroupNorm<double>>(4, 2); });
    expect_same_error(c, [&] { norm->forward(x, y); }, me + "GroupNorm's parameters of 4 channels needs 128 bytes");
  });
}

TEST(LayersPromise, GroupNormArgumentsAndParametersThatDifferOnOneRank) {
  on_world_and_half([](MPI_Comm c) {
    const World w(c);
    const bool odd = is_last(w);
    ShardTensor<double> x(slab_layout(c, 4));
    auto y = x.like();
    // Bad on every rank: reported by forward, not by the (local) constructor.
    GroupNorm<double> three(4, 3);
    expect_same_error(c, [&] { three.forward(x, y); }, "GroupNorm: 3 groups must divide 4 channels");
    GroupNorm<double> nan_eps(4, 2, std::numeric_limits<double>::quiet_NaN());
    expect_same_error(c, [&] { nan_eps.forward(x, y); }, "eps must be finite and >= 0");
    if (w.size == 1) return;
    GroupNorm<double> groups(4, odd ? 4 : 2);
    expect_same_error(c, [&] { groups.forward(x, y); }, "GroupNorm groups differs between ranks (from 2 to 4)");
    GroupNorm<double> bad_on_one(4, odd ? 3 : 2);
    expect_same_error(c, [&] { bad_on_one.forward(x, y); }, "GroupNorm groups differs between ranks (from 2 to 3)");
    GroupNorm<double> eps(4, 2, odd ? 1e-3 : 1e-5);
    expect_same_error(c, [&] { eps.forward(x, y); }, "GroupNorm eps differs between ranks");
    GroupNorm<double> gamma(4, 2);
    if (odd) Kokkos::deep_copy(gamma.gamma, 2.0);
    expect_same_error(c, [&] { gamma.forward(x, y); }, "GroupNorm gamma differs between ranks");
  });
}

// After the first forward the layer is prepared: a problem of one call on one rank rides on the
// call's first all-reduce (issue 20's class: a local check before a collective).
TEST(LayersPromise, GroupNormCallProblemsOnOneRankOnly) {
  on_world_and_half([](MPI_Comm c) {
    const World w(c);
    const bool odd = is_last(w);
    const auto layout = slab_layout(c, 4), other = slab_layout(c, 4, 2);
    ShardTensor<double> x(layout);
    htest::fill_random(x, 1);
    auto y = x.like(), dy = x.like(), dx = x.like();
    ShardTensor<double> y_other(other), dx_other(other);
    htest::fill_random(dy, 2);
    GroupNorm<double> norm(4, 2);
    norm.forward(x, y);
    const std::string me = where(w, w.size - 1);
    expect_same_error(c, [&] { norm.forward(x, odd ? y_other : y); }, me + "GroupNorm::forward: y must have x's layout");
    expect_same_error(c, [&] { norm.backward(x, dy, odd ? dx_other : dx); },
                      me + "GroupNorm::backward: x, dy and dx must have the layout of the last forward's x");
    // gamma replaced by a view of another extent on one rank (its values were agreed before).
    const auto gamma = norm.gamma;
    if (odd) norm.gamma = kernels::View1<double>("short gamma", 3);
    expect_same_error(c, [&] { norm.forward(x, y); }, me + "GroupNorm: gamma, beta and their gradients must have 4 entries");
    expect_same_error(c, [&] { norm.backward(x, dy, dx); }, me + "GroupNorm: gamma, beta and their gradients must have 4");
    norm.gamma = gamma;
    norm.forward(x, y);  // and the layer still works
    norm.backward(x, dy, dx);
  });
}

TEST(LayersPromise, GroupNormStatisticsBeyondTheBudget) {
  on_world_and_half([](MPI_Comm c) {
    const World w(c);
    const auto layout = ShardLayout::sharded(hpart::Comm(c), TensorShape::d2(256, 4, 2, 2), Mesh::along(kAxisN, w.size));
    ShardTensor<double> x(layout);
    auto y = x.like();
    GroupNorm<double> norm(4, 2);
    const MemoryLimit limit("1K");
    expect_same_error(c, [&] { norm.forward(x, y); }, "GroupNorm's statistics of 256 samples x 2 groups needs");
  });
}

TEST(LayersPromise, PoolingAndUpsamplingKindsThatDifferOnOneRank) {
  on_world_and_half([](MPI_Comm c) {
    const World w(c);
    if (w.size == 1) return;
    const bool odd = is_last(w);
    ShardTensor<double> x(slab_layout(c, 2), Halo::uniform(1));
    Pool2<double> pool(odd ? Pool::max : Pool::average);
    expect_same_error(c, [&] { (void)pool.make_output(x); }, "Pool2 kind differs between ranks (from 0 to 1)");
    Upsample2<double> up(odd ? Upsample::bilinear : Upsample::nearest);
    expect_same_error(c, [&] { (void)up.make_output(x); }, "Upsample2 kind differs between ranks (from 0 to 1)");
    expect_same_error(c, [&] { (void)derived_layout(x.layout(), odd ? 3 : 2); },
                      "output channels differs between ranks (from 2 to 3)");
  });
}

TEST(LayersPromise, KindsOutsideTheirRange) {
  on_world_and_half([](MPI_Comm c) {
    ShardTensor<double> x(slab_layout(c, 2), Halo::uniform(1));
    Pool2<double> pool(static_cast<Pool>(7));
    expect_same_error(c, [&] { (void)pool.make_output(x); }, "Pool2: kind 7 is neither Pool::average nor Pool::max");
    Upsample2<double> up(static_cast<Upsample>(2));
    expect_same_error(c, [&] { (void)up.make_output(x); }, "Upsample2: kind 2 is neither");
    // Activations are local (no collective): the error is this rank's, which every rank raises here.
    auto y = x.like();
    expect_same_error(c, [&] { activation_forward(static_cast<Activation>(5), x, y); },
                      "activation 5 is neither Activation::relu nor Activation::gelu");
  });
}

// The reductions carry each rank's verdict on its arguments in their one all-reduce.
TEST(LayersPromise, ReductionsWithTensorsOfAnotherLayoutOnOneRank) {
  on_world_and_half([](MPI_Comm c) {
    const World w(c);
    const bool odd = is_last(w);
    const auto layout = slab_layout(c, 2), other = slab_layout(c, 2, 2);
    ShardTensor<double> a(layout), b(layout), b_other(other);
    const std::string me = where(w, w.size - 1);
    expect_same_error(c, [&] { (void)dot(a, odd ? b_other : b); }, me + "dot: the tensors have different layouts");
    expect_same_error(c, [&] { (void)stored_dot(a, odd ? b_other : b); }, me + "stored_dot: the tensors have different");
    ShardTensor<double> h(layout, Halo::uniform(1));
    expect_same_error(c, [&] { (void)stored_dot(a, odd ? h : b, true); }, me + "stored_dot: the tensors have different halos");
    expect_same_error(c, [&] { (void)mse_loss(a, odd ? b_other : b); }, me + "mse_loss: y, target and gradient must share");
    EXPECT_EQ(dot(a, b), 0.0);
    EXPECT_EQ(mse_loss(a, b), 0.0);
  });
}

}  // namespace
