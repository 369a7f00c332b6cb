// Redistribution between layouts (reshards, gather to a rank, scatter from a rank, to and from
// Replicate): the tensor is unchanged cell for cell, and <R x, y> = <x, R^T y>. Reductions and
// elementwise operations against serial sums.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "hpart/tensor/ops.hpp"
#include "hpart/tensor/redistribute.hpp"
#include "tensor_test_support.hpp"
#include "test_world.hpp"

namespace {

using namespace hpart::tensor;
using hpart::testing::expect_error_everywhere;
using hpart::testing::World;
namespace htest = hpart::testing;

struct Named {
  ShardLayout layout;
  std::string name;
};

std::vector<Named> layouts(const hpart::Comm& comm, const TensorShape& s) {
  const int P = comm.size();
  std::vector<Named> out;
  out.push_back({ShardLayout::sharded(comm, s, Mesh::slabs(P)), "slabs"});
  out.push_back({ShardLayout::sharded(comm, s, htest::mesh2d_for(P)), "mesh2d"});
  SplitOptions uneven;
  uneven.method = SplitMethod::explicit_extents;
  std::vector<std::int64_t> e(static_cast<std::size_t>(P), 1);
  e.front() = s.extent[kAxisW] - (P - 1);
  uneven.extents[kAxisW] = e;
  out.push_back({ShardLayout::sharded(comm, s, Mesh::along(kAxisW, P), uneven), "uneven W"});
  out.push_back({ShardLayout::sharded(comm, s, Mesh::along(kAxisN, P)), "batch"});
  out.push_back({ShardLayout::replicated(comm, s), "replicated"});
  out.push_back({ShardLayout::on_rank(comm, s, P - 1), "on last rank"});
  if (P % 2 == 0) {
    Mesh m = Mesh::slabs(P / 2);
    m.replicas = 2;
    out.push_back({ShardLayout::sharded(comm, s, m), "slabs x2 replicas"});
  }
  // Boxes of any shape: rank r takes the rows r, r + P, ... would not be boxes; take a W cut.
  hpart::Box b = whole_box(s);
  b.lo[kAxisH] = s.extent[kAxisH] * comm.rank() / P;
  b.hi[kAxisH] = s.extent[kAxisH] * (comm.rank() + 1) / P - 1;
  out.push_back({ShardLayout::from_boxes(comm, s, b), "from boxes"});
  return out;
}

template <class T>
void run_pairs(MPI_Comm c, const TensorShape& s) {
  const hpart::Comm comm(c);
  const auto global = htest::global_field<T>(s);
  const auto all = layouts(comm, s);
  for (const Named& from : all)
    for (const Named& to : all) {
      SCOPED_TRACE(from.name + " -> " + to.name);
      const auto x = from_global<T>(from.layout, Halo{}, global);
      Redistribution<T> r(from.layout, to.layout);
      ShardTensor<T> y(to.layout);
      r.forward(x, y);
      // Every holder of a cell in the target (replicas too) has its value.
      EXPECT_EQ(htest::host_array(y).size(), static_cast<std::size_t>(to.layout.local_box().volume()));
      const auto expect = from_global<T>(to.layout, Halo{}, global);
      auto diff = y.like();
      copy(y, diff);
      axpy(T(-1), expect, diff);
      EXPECT_EQ(stored_dot(diff, diff), 0.0);
      EXPECT_EQ(to_global(y), global);
      // Adjoint: random x (every stored copy), random y.
      ShardTensor<T> xr(from.layout), yr(to.layout);
      htest::fill_random(xr, 5);
      htest::fill_random(yr, 6);
      ShardTensor<T> rx(to.layout), rty(from.layout);
      r.forward(xr, rx);
      r.adjoint(yr, rty);
      EXPECT_EQ(stored_dot(rx, yr), stored_dot(xr, rty));
    }
}

TEST(TensorRedistribute, AllPairs2D) { run_pairs<double>(MPI_COMM_WORLD, TensorShape::d2(3, 2, 7, 9)); }
TEST(TensorRedistribute, AllPairs3DFloat) { run_pairs<float>(MPI_COMM_WORLD, TensorShape::d3(2, 1, 3, 5, 6)); }
TEST(TensorRedistribute, AllPairsOnSubCommunicator) {
  const hpart::testing::HalfWorld half;
  run_pairs<double>(half.comm, TensorShape::d2(2, 1, 5, 8));
}

TEST(TensorRedistribute, GatherScatterKeepHalos) {
  const World w;
  const hpart::Comm comm(w.comm);
  const auto s = TensorShape::d2(1, 2, 4 * w.size, 6);
  const auto global = htest::global_field<double>(s);
  const auto sharded = ShardLayout::sharded(comm, s, Mesh::slabs(w.size));
  const auto x = from_global<double>(sharded, Halo{0, 1, 1}, global);
  // Gather to rank 0 with a halo there; scatter back; the interiors come home.
  const auto root = redistribute(x, ShardLayout::on_rank(comm, s, 0));
  EXPECT_EQ(root.interior_volume(), w.rank == 0 ? s.volume() : 0);
  EXPECT_DOUBLE_EQ(sum(root), sum(x));
  const auto back = redistribute(root, sharded, Halo{0, 1, 1});
  EXPECT_EQ(to_global(back), global);
  // The one-shot adjoint: scattering's adjoint is a gather that sums (no replicas: the same).
  const auto g = redistribute_adjoint(back, ShardLayout::on_rank(comm, s, 0));
  EXPECT_EQ(to_global(g), global);
}

TEST(TensorRedistribute, MismatchedLayoutsAreAnErrorOnEveryRank) {
  const World w;
  const hpart::Comm comm(w.comm);
  const auto a = ShardLayout::sharded(comm, TensorShape::d2(1, 1, 4, 4), Mesh::slabs(w.size));
  const auto b = ShardLayout::replicated(comm, TensorShape::d2(1, 1, 4, 5));
  expect_error_everywhere([&] { Redistribution<double> r(a, b); }, "different tensors");
}

TEST(TensorOps, ReductionsAndElementwise) {
  const World w;
  const hpart::Comm comm(w.comm);
  const auto s = TensorShape::d2(2, 3, 5, 2 * w.size + 1);
  const auto global = htest::global_field<double>(s);
  double gsum = 0, gmax = -1e300, gmin = 1e300, gsq = 0;
  for (double v : global) gsum += v, gmax = std::max(gmax, v), gmin = std::min(gmin, v), gsq += v * v;
  for (const Named& l : layouts(comm, s)) {
    SCOPED_TRACE(l.name);
    auto x = from_global<double>(l.layout, Halo{}, global);
    EXPECT_EQ(sum(x), gsum);  // multiples of 1/8: exact in any order
    EXPECT_EQ(mean(x), gsum / static_cast<double>(s.volume()));
    EXPECT_EQ(max(x), gmax);
    EXPECT_EQ(min(x), gmin);
    EXPECT_EQ(dot(x, x), gsq);
    auto y = x.like();
    hpart::tensor::fill(y, 1.0);
    axpy(2.0, x, y);  // y = 1 + 2 x
    EXPECT_EQ(sum(y), static_cast<double>(s.volume()) + 2 * gsum);
    scale(y, 0.5);    // y = 0.5 + x
    map(y, KOKKOS_LAMBDA(double v) { return v - 0.5; });
    EXPECT_EQ(to_global(y), global);
  }
  // Float tensors sum in double.
  const auto xf = from_global<float>(ShardLayout::sharded(comm, s, Mesh::slabs(1 == w.size ? 1 : w.size)), Halo{},
                                     htest::global_field<float>(s));
  EXPECT_EQ(sum(xf), gsum);
}

}  // namespace
