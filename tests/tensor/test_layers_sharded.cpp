// Sharded layers equal the unsharded computation: every test runs a layer on the world's ranks
// (1-D and 2-D meshes, even and uneven shards, periodic axes, 2-D and 3-D) and the same layer on
// a one-rank communicator holding the whole tensor, and compares outputs and all gradients
// (input, weights): 1e-12 relative in double, 1e-5 in float. Bad input fails on every rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "hpart/tensor/layers.hpp"
#include "hpart/tensor/tensor.hpp"
#include "tensor_test_support.hpp"
#include "test_world.hpp"

namespace {

using namespace hpart::tensor;
using hpart::testing::expect_error_everywhere;
using hpart::testing::World;

// Each rank alone: the unsharded reference runs here.
struct SelfComm {
  MPI_Comm comm = MPI_COMM_NULL;
  SelfComm() {
    const World w;
    MPI_Comm_split(w.comm, w.rank, 0, &comm);
  }
  ~SelfComm() { MPI_Comm_free(&comm); }
  SelfComm(const SelfComm&) = delete;
  SelfComm& operator=(const SelfComm&) = delete;
};

template <class T>
std::vector<T> field(const TensorShape& s, std::uint64_t seed) {
  auto g = hpart::testing::global_field<double>(s, seed);
  std::vector<T> out(g.size());
  for (std::size_t k = 0; k < g.size(); ++k) out[k] = static_cast<T>(g[k] / 125.0);
  return out;
}

template <class T>
double rel_diff(const std::vector<T>& a, const std::vector<T>& b) {
  EXPECT_EQ(a.size(), b.size());
  double m = 0, scale = 1;
  for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k) {
    m = std::max(m, std::abs(static_cast<double>(a[k]) - static_cast<double>(b[k])));
    scale = std::max(scale, std::abs(static_cast<double>(b[k])));
  }
  return m / scale;
}

template <class T>
std::vector<T> host(const kernels::View1<T>& v) {
  auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<T>(m.data(), m.data() + m.size());
}

template <class T>
double tolerance() {
  return sizeof(T) == 4 ? 1e-5 : 1e-12;
}

struct Split {
  std::string name;
  Mesh mesh;
  SplitOptions options;
};

// 1-D and 2-D meshes of the world's size over (H, W): uniform slabs (uneven when the extent
// does not divide), explicit uneven columns, a 2-D grid, and the grid with periodic axes.
std::vector<Split> splits2d(int size, std::int64_t w, int min_width, int align_levels = 0) {
  std::vector<Split> out;
  SplitOptions plain;
  plain.align_levels = align_levels;
  out.push_back({"slabs", Mesh::slabs(size), plain});
  SplitOptions cols;
  cols.method = SplitMethod::explicit_extents;
  const std::int64_t unit = std::int64_t{1} << align_levels;
  std::int64_t used = 0;
  for (int k = 0; k + 1 < size; ++k) {
    const std::int64_t e = unit * ((min_width + k + unit - 1) / unit);
    cols.extents[kAxisW].push_back(e);
    used += e;
  }
  cols.extents[kAxisW].push_back(w - used);
  out.push_back({"uneven-columns", Mesh::along(kAxisW, size), cols});
  out.push_back({"grid", hpart::testing::mesh2d_for(size), plain});
  out.push_back({"grid-periodic", hpart::testing::mesh2d_for(size).with_periodic(false, true, true), plain});
  return out;
}

std::vector<Split> splits3d(int size) {
  std::vector<Split> out;
  out.push_back({"d-slabs", Mesh::grid3d(size, 1, 1), {}});
  const Mesh m2 = hpart::testing::mesh2d_for(size);
  out.push_back({"hw-grid", Mesh::grid3d(1, m2.parts[kAxisH], m2.parts[kAxisW]), {}});
  out.push_back({"d-periodic", Mesh::grid3d(size, 1, 1).with_periodic(true, false, true), {}});
  return out;
}

Mesh whole(const Mesh& like) {
  Mesh m;
  m.periodic = like.periodic;
  return m;
}

template <class T>
void check_conv(const TensorShape& s, const Split& split, const ConvShape& cs, MPI_Comm on = MPI_COMM_WORLD) {
  SCOPED_TRACE(split.name + " " + s.str());
  const hpart::Comm comm(on);
  const Halo halo{cs.kd / 2, cs.kh / 2, cs.kw / 2};
  const auto xg = field<T>(s, 3);
  TensorShape ys = s;
  ys.extent[kAxisC] = cs.cout;
  const auto gg = field<T>(ys, 4);

  auto run = [&](const hpart::Comm& c, const Mesh& mesh, const SplitOptions& opt) {
    auto layout = ShardLayout::sharded(c, s, mesh, opt);
    auto x = from_global<T>(layout, halo, xg);
    Conv<T> conv(cs, true, 11);
    auto y = conv.make_output(x);
    conv.forward(x, y);
    auto dy = from_global<T>(y.layout(), {}, gg);
    auto dx = x.like();
    conv.backward(x, dy, dx);
    return std::tuple{to_global(y), to_global(dx), host(conv.weight_grad), host(conv.bias_grad)};
  };
  const auto [y, dx, dw, db] = run(comm, split.mesh, split.options);
  const SelfComm self;
  const auto [ry, rdx, rdw, rdb] = run(hpart::Comm(self.comm), whole(split.mesh), {});
  EXPECT_LE(rel_diff(y, ry), tolerance<T>()) << "forward";
  EXPECT_LE(rel_diff(dx, rdx), tolerance<T>()) << "input gradient";
  EXPECT_LE(rel_diff(dw, rdw), tolerance<T>()) << "weight gradient";
  EXPECT_LE(rel_diff(db, rdb), tolerance<T>()) << "bias gradient";
}

// The layer's forward (core while the halo is in flight, then the rim slab by slab) gives the
// bits of one kernel call over the whole zero-padded tensor, 2-D and 3-D.
TEST(ShardedLayers, ConvLayerEqualsOneKernelCallOnOneRank) {
  const SelfComm self;
  const hpart::Comm one(self.comm);
  for (const auto& [s, cs] : {std::pair{TensorShape::d2(2, 2, 7, 9), ConvShape{2, 3, 1, 3, 3}},
                              std::pair{TensorShape::d2(1, 2, 2, 9), ConvShape{2, 1, 1, 1, 5}},
                              std::pair{TensorShape::d3(1, 2, 5, 4, 6), ConvShape{2, 2, 3, 3, 3}}}) {
    const Halo halo{cs.kd / 2, cs.kh / 2, cs.kw / 2};
    auto layout = ShardLayout::sharded(one, s, Mesh{});
    auto x = from_global<double>(layout, halo, field<double>(s, 9));
    auto xk = from_global<double>(layout, halo, field<double>(s, 9));  // halo zero, never exchanged
    Conv<double> conv(cs, true, 3);
    auto y = conv.make_output(x), yk = conv.make_output(x);
    conv.forward(x, y);
    kernels::conv_forward(padded(xk), conv.weight, conv.bias, cs, padded(yk));
    EXPECT_EQ(to_global(y), to_global(yk));
  }
}

TEST(ShardedLayers, Conv2dDoubleMatchesUnsharded) {
  const World w;
  const auto s = TensorShape::d2(1, 2, 11, 4 * w.size + 5);
  for (const auto& split : splits2d(w.size, s.extent[kAxisW], 2)) {
    check_conv<double>(s, split, {2, 3, 1, 3, 3});
    check_conv<double>(s, split, {2, 1, 1, 5, 3});  // radius 2 along H
  }
}

TEST(ShardedLayers, Conv2dFloatMatchesUnsharded) {
  const World w;
  const auto s = TensorShape::d2(1, 3, 10, 3 * w.size + 4);
  for (const auto& split : splits2d(w.size, s.extent[kAxisW], 2)) check_conv<float>(s, split, {3, 2, 1, 3, 3});
}

TEST(ShardedLayers, Conv2dWithTheBatchSplitMatchesUnsharded) {
  const World w;
  const auto s = TensorShape::d2(2, 2, 8, 9);
  Mesh m = Mesh::along(kAxisN, w.size >= 2 ? 2 : 1);
  m.parts[kAxisH] = w.size / m.parts[kAxisN];
  if (m.ranks() != w.size) m = Mesh::slabs(w.size);  // np 3: no batch split
  check_conv<double>(s, {"batch", m, {}}, {2, 2, 1, 3, 3});
}

TEST(ShardedLayers, ConvOnASubCommunicatorMatchesUnsharded) {
  const hpart::testing::HalfWorld half;
  const auto s = TensorShape::d2(1, 2, 9, 3 * half.size + 4);
  for (const auto& split : splits2d(half.size, s.extent[kAxisW], 2)) check_conv<double>(s, split, {2, 2, 1, 3, 3}, half.comm);
}

TEST(ShardedLayers, Conv3dMatchesUnsharded) {
  const World w;
  const auto s = TensorShape::d3(1, 2, 2 * w.size + 1, 6, 5);
  for (const auto& split : splits3d(w.size)) check_conv<double>(s, split, {2, 2, 3, 3, 3});
}

TEST(ShardedLayers, ConvOnADomainOfOneCellWithEmptyShards) {
  const World w;
  const auto s = TensorShape::d2(1, 2, 1, 1);
  SplitOptions opt;
  opt.method = SplitMethod::explicit_extents;
  opt.extents[kAxisH].assign(static_cast<std::size_t>(w.size), 0);
  opt.extents[kAxisH][0] = 1;
  check_conv<double>(s, {"one-cell", Mesh::slabs(w.size), opt}, {2, 3, 1, 1, 1});
}

// Pool, upsample and group norm on aligned shards: forward and input gradient vs unsharded.
enum class Op { avg_pool, max_pool, nearest, bilinear, group_norm };

template <class T>
void check_resample(Op op, const TensorShape& s, const Split& split, MPI_Comm on = MPI_COMM_WORLD) {
  SCOPED_TRACE(split.name + " op " + std::to_string(static_cast<int>(op)) + " " + s.str());
  const World w(on);
  const auto xg = field<T>(s, 5);
  const Halo halo = op == Op::bilinear ? Halo::uniform(1, s.spatial_dims) : Halo{};
  auto run = [&](const hpart::Comm& c, const Mesh& mesh, const SplitOptions& opt) {
    auto layout = ShardLayout::sharded(c, s, mesh, opt);
    auto x = from_global<T>(layout, halo, xg);
    auto dx = x.like();
    std::vector<T> y;
    std::vector<T> extra;
    auto finish = [&](auto& layer, ShardTensor<T>& out, auto backward) {
      const auto gg = field<T>(out.layout().shape(), 6);
      auto dy = from_global<T>(out.layout(), {}, gg);
      y = to_global(out);
      backward(layer, dy);
    };
    if (op == Op::avg_pool || op == Op::max_pool) {
      Pool2<T> pool(op == Op::avg_pool ? Pool::average : Pool::max);
      auto out = pool.make_output(x);
      pool.forward(x, out);
      finish(pool, out, [&](auto& l, auto& dy) { l.backward(x, dy, dx); });
    } else if (op == Op::group_norm) {
      GroupNorm<T> norm(static_cast<int>(s.extent[kAxisC]), 2);
      auto out = x.like();
      norm.forward(x, out);
      finish(norm, out, [&](auto& l, auto& dy) { l.backward(x, dy, dx); });
      extra = host(norm.gamma_grad);
      const auto b = host(norm.beta_grad);
      extra.insert(extra.end(), b.begin(), b.end());
    } else {
      Upsample2<T> up(op == Op::nearest ? Upsample::nearest : Upsample::bilinear);
      auto out = up.make_output(x);
      up.forward(x, out);
      finish(up, out, [&](auto& l, auto& dy) { l.backward(dy, dx); });
    }
    return std::tuple{y, to_global(dx), extra};
  };
  const auto [y, dx, extra] = run(hpart::Comm(w.comm), split.mesh, split.options);
  const SelfComm self;
  const auto [ry, rdx, rextra] = run(hpart::Comm(self.comm), whole(split.mesh), {});
  EXPECT_LE(rel_diff(y, ry), tolerance<T>()) << "forward";
  EXPECT_LE(rel_diff(dx, rdx), tolerance<T>()) << "input gradient";
  EXPECT_LE(rel_diff(extra, rextra), tolerance<T>()) << "parameter gradients";
}

TEST(ShardedLayers, PoolUpsampleAndGroupNormMatchUnsharded) {
  const World w;
  const auto s = TensorShape::d2(1, 4, 8, 4 * w.size + 6);
  for (const auto& split : splits2d(w.size, s.extent[kAxisW], 2, 1))
    for (Op op : {Op::avg_pool, Op::max_pool, Op::nearest, Op::bilinear, Op::group_norm}) {
      check_resample<double>(op, s, split);
      check_resample<float>(op, s, split);
    }
  const auto s3 = TensorShape::d3(2, 4, 2 * w.size + 2, 4, 6);
  Split d{"d-slabs-aligned", Mesh::grid3d(w.size, 1, 1), {}};
  d.options.align_levels = 1;
  for (Op op : {Op::avg_pool, Op::max_pool, Op::nearest, Op::bilinear, Op::group_norm}) check_resample<double>(op, s3, d);
}

// Layouts with empty shards on `size` ranks (valid input: a rank may hold nothing): fewer rows
// than ranks (uniform slabs), every row on the last rank (explicit zero extents), and the batch
// split over more ranks than it has samples (`batch`: a batch of 1).
std::vector<Split> empty_shard_splits(int size, std::int64_t H, bool batch, int align_levels = 0) {
  std::vector<Split> out;
  SplitOptions plain;
  plain.align_levels = align_levels;
  out.push_back({"fewer-rows-than-ranks", Mesh::slabs(size), plain});
  SplitOptions last;
  last.method = SplitMethod::explicit_extents;
  last.extents[kAxisH].assign(static_cast<std::size_t>(size), 0);
  last.extents[kAxisH].back() = H;
  out.push_back({"all-rows-on-the-last-rank", Mesh::slabs(size), last});
  if (batch) out.push_back({"batch-of-1-over-all-ranks", Mesh::along(kAxisN, size), plain});
  return out;
}

// Issue 20: GroupNorm's kernel checks failed on a rank with an empty shard (C = 0 there), in
// forward and backward, while the other ranks waited in the all-reduce. An empty shard now adds
// nothing to the statistics: forward, input gradient and gamma/beta gradients equal unsharded.
TEST(ShardedLayers, GroupNormWithEmptyShardsMatchesUnsharded) {
  hpart::testing::on_world_and_half([](MPI_Comm c) {
    const World w(c);
    const auto s = TensorShape::d2(1, 4, 2, 6);
    for (const auto& split : empty_shard_splits(w.size, s.extent[kAxisH], true)) {
      check_resample<double>(Op::group_norm, s, split, c);
      check_resample<float>(Op::group_norm, s, split, c);
    }
    // 3-D, a depth of 1 over every rank, two samples.
    check_resample<double>(Op::group_norm, TensorShape::d3(2, 4, 1, 3, 2), {"d-slabs", Mesh::grid3d(w.size, 1, 1), {}}, c);
  });
}

// The other layers on the same layouts (pooling needs even cuts: aligned to 2).
TEST(ShardedLayers, PoolAndUpsampleWithEmptyShardsMatchUnsharded) {
  hpart::testing::on_world_and_half([](MPI_Comm c) {
    const World w(c);
    const auto s = TensorShape::d2(1, 2, 2, 6);
    for (const auto& split : empty_shard_splits(w.size, s.extent[kAxisH], true, 1))
      for (Op op : {Op::avg_pool, Op::max_pool, Op::nearest}) check_resample<double>(op, s, split, c);
    // Bilinear upsampling needs a halo of 1, which an empty shard along H cannot serve (a clear
    // error, tested elsewhere); along the batch it can.
    check_resample<double>(Op::bilinear, s, {"batch", Mesh::along(kAxisN, w.size), {}}, c);
  });
}

TEST(ShardedLayers, ConvWithEmptyBatchShardsMatchesUnsharded) {
  hpart::testing::on_world_and_half([](MPI_Comm c) {
    const World w(c);
    check_conv<double>(TensorShape::d2(1, 2, 5, 6), {"batch-of-1", Mesh::along(kAxisN, w.size), {}}, {2, 3, 1, 3, 3}, c);
    Mesh m = Mesh::along(kAxisN, w.size).with_periodic(false, true, true);
    check_conv<double>(TensorShape::d2(1, 2, 5, 6), {"batch-of-1-periodic", m, {}}, {2, 1, 1, 3, 5}, c);
  });
}

// PyTorch's clamp at the global edges: a constant field stays constant (zero padding would not),
// and on a periodic axis values wrap instead.
TEST(ShardedLayers, BilinearUpsampleClampsAtGlobalEdgesOnly) {
  const World w;
  const auto s = TensorShape::d2(1, 1, 4, 4 * w.size);
  auto layout = ShardLayout::sharded(hpart::Comm(w.comm), s, Mesh::along(kAxisW, w.size));
  auto x = from_global<double>(layout, Halo::uniform(1), std::vector<double>(static_cast<std::size_t>(s.volume()), 3.0));
  Upsample2<double> up(Upsample::bilinear);
  auto y = up.make_output(x);
  up.forward(x, y);
  for (double v : to_global(y)) EXPECT_EQ(v, 3.0);
}

TEST(ShardedLayers, MseLossIsTheGlobalMean) {
  const World w;
  const auto s = TensorShape::d2(1, 2, 7, 3 * w.size);
  const auto yg = field<double>(s, 7), tg = field<double>(s, 8);
  double ref = 0;
  for (std::size_t k = 0; k < yg.size(); ++k) ref += (yg[k] - tg[k]) * (yg[k] - tg[k]);
  ref /= static_cast<double>(yg.size());
  auto layout = ShardLayout::sharded(hpart::Comm(w.comm), s, hpart::testing::mesh2d_for(w.size));
  auto y = from_global<double>(layout, {}, yg), t = from_global<double>(layout, {}, tg);
  auto dy = y.like();
  EXPECT_NEAR(mse_loss(y, t, &dy), ref, 1e-14);
  const auto g = to_global(dy);
  for (std::size_t k = 0; k < g.size(); ++k) EXPECT_NEAR(g[k], 2 * (yg[k] - tg[k]) / static_cast<double>(yg.size()), 1e-15);
}

TEST(ShardedLayers, BadInputFailsOnEveryRank) {
  const World w;
  const hpart::Comm comm(w.comm);
  // A kernel larger than the domain (H = 2 < 5).
  {
    auto layout = ShardLayout::sharded(comm, TensorShape::d2(1, 1, 2, 4 * w.size), Mesh::along(kAxisW, w.size));
    ShardTensor<double> x(layout, Halo::uniform(2));
    Conv<double> conv({1, 1, 1, 5, 5});
    expect_error_everywhere([&] { auto y = conv.make_output(x); }, "larger than the domain");
  }
  // An even kernel: the constructor does not communicate, so the first make_output reports it,
  // on every rank.
  {
    auto layout = ShardLayout::sharded(comm, TensorShape::d2(1, 1, 8, 8), Mesh::slabs(w.size));
    ShardTensor<double> x(layout, Halo::uniform(1));
    Conv<double> conv({1, 1, 1, 2, 3});
    expect_error_everywhere([&] { (void)conv.make_output(x); }, "must be odd");
  }
  // A halo narrower than the kernel radius.
  {
    auto layout = ShardLayout::sharded(comm, TensorShape::d2(1, 1, 8, 8 * w.size), Mesh::along(kAxisW, w.size));
    ShardTensor<double> x(layout, Halo::uniform(1));
    Conv<double> conv({1, 1, 1, 5, 5});
    expect_error_everywhere([&] { (void)conv.make_output(x); }, "narrower than the kernel radius");
  }
  // Channels that do not match.
  {
    auto layout = ShardLayout::sharded(comm, TensorShape::d2(1, 2, 8, 8), Mesh::slabs(w.size));
    ShardTensor<double> x(layout, Halo::uniform(1));
    Conv<double> conv({3, 1, 1, 3, 3});
    expect_error_everywhere([&] { (void)conv.make_output(x); }, "expects 3");
  }
  // Pooling an odd extent / misaligned shards.
  {
    auto layout = ShardLayout::sharded(comm, TensorShape::d2(1, 1, 9, 8), Mesh::slabs(w.size));
    ShardTensor<double> x(layout);
    Pool2<double> pool;
    expect_error_everywhere([&] { (void)pool.make_output(x); }, "to be even");
  }
  // A shard thinner than the conv halo: no multi-hop exchange, a clear error instead.
  if (w.size > 1) {
    auto layout = ShardLayout::sharded(comm, TensorShape::d2(1, 1, w.size, 8), Mesh::slabs(w.size));
    expect_error_everywhere([&] { ShardTensor<double> x(layout, Halo::uniform(2)); }, "no multi-hop");
  }
  // Bilinear upsampling without a halo.
  {
    auto layout = ShardLayout::sharded(comm, TensorShape::d2(1, 1, 8, 8), Mesh::slabs(w.size));
    ShardTensor<double> x(layout);
    Upsample2<double> up(Upsample::bilinear);
    expect_error_everywhere([&] { (void)up.make_output(x); }, "halo of >= 1");
  }
}

TEST(ShardedLayers, KernelLargerThanASingleCellDomainFails) {
  const World w;
  SplitOptions opt;
  opt.method = SplitMethod::explicit_extents;
  opt.extents[kAxisH].assign(static_cast<std::size_t>(w.size), 0);
  opt.extents[kAxisH][0] = 1;
  auto layout = ShardLayout::sharded(hpart::Comm(w.comm), TensorShape::d2(1, 1, 1, 1), Mesh::slabs(w.size), opt);
  Conv<double> conv({1, 1, 1, 3, 3});
  // The halo itself is refused first where the one cell is split from empty shards; either way
  // the message names the problem and every rank throws.
  expect_error_everywhere(
      [&] {
        ShardTensor<double> x(layout, Halo::uniform(1));
        (void)conv.make_output(x);
      },
      w.size == 1 ? "larger than the domain" : "");
}

}  // namespace
