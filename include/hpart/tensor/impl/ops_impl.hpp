#pragma once
// Bodies of the reductions and elementwise operations: MDRange kernels over the interior (or
// the whole local array), then one allreduce, which also carries each rank's verdict on its
// arguments (tensors of different layouts), so that none is left waiting in it.
#include <mpi.h>

#include <limits>
#include <string>

#include "hpart/tensor/impl/region_kernels.hpp"

namespace hpart::tensor {

namespace impl {
template <class T, class M>
std::string same_problem(const ShardTensor<T, M>& x, const ShardTensor<T, M>& y, const char* what) {
  if (!(x.layout() == y.layout()) || x.interior_extent() != y.interior_extent())
    return std::string(what) + ": the tensors have different layouts";
  return {};
}
template <class T, class M>
void require_same(const ShardTensor<T, M>& x, const ShardTensor<T, M>& y, const char* what) {
  if (std::string p = same_problem(x, y, what); !p.empty()) throw Error(ErrorCode::size_mismatch, p);
}

// sum over the interior of f(x(i), y(i)), in double, local only.
template <class T, class M, class F>
double local_sum(const ShardTensor<T, M>& x, const ShardTensor<T, M>& y, bool with_halo, F f) {
  using exec = typename M::execution_space;
  const Index5 lo = with_halo ? Index5{0, 0, 0, 0, 0} : x.margins();
  Index5 count = x.interior_extent();
  if (with_halo)
    for (int a = 0; a < kRank; ++a) count[static_cast<std::size_t>(a)] = static_cast<std::int64_t>(x.const_view().extent(static_cast<unsigned>(a)));
  if (volume_of(count) == 0) return 0.0;
  // Reads only: const_view() leaves the padding known to be zero (no re-zeroing at the next halo).
  const auto xv = x.const_view();
  const auto yv = y.const_view();
  const std::int64_t l0 = lo[0], l1 = lo[1], l2 = lo[2], l3 = lo[3], l4 = lo[4];
  double s = 0.0;
  Kokkos::parallel_reduce(
      "hpart::tensor::sum", policy_over<exec>(count),
      KOKKOS_LAMBDA(std::int64_t i0, std::int64_t i1, std::int64_t i2, std::int64_t i3, std::int64_t i4, double& acc) {
        acc += f(xv(l0 + i0, l1 + i1, l2 + i2, l3 + i3, l4 + i4), yv(l0 + i0, l1 + i1, l2 + i2, l3 + i3, l4 + i4));
      },
      s);
  return s;
}

struct ValueOf {
  template <class T>
  KOKKOS_INLINE_FUNCTION double operator()(T x, T) const { return static_cast<double>(x); }
};
struct ProductOf {
  template <class T>
  KOKKOS_INLINE_FUNCTION double operator()(T x, T y) const { return static_cast<double>(x) * static_cast<double>(y); }
};

// The extreme (Reducer: MaxReducer with MPI_MAX, MinReducer with MPI_MIN) over the primary
// interiors of every rank; `identity` stands for a rank without cells.
template <class T, class M, class Reducer>
T global_extreme(const ShardTensor<T, M>& x, T identity, MPI_Op op) {
  using exec = typename M::execution_space;
  T local = identity;
  if (x.layout().is_primary(x.layout().rank()) && x.interior_volume() != 0) {
    const auto v = x.const_view();
    const Index5 m = x.margins();
    const std::int64_t l2 = m[2], l3 = m[3], l4 = m[4];
    Kokkos::parallel_reduce(
        "hpart::tensor::extreme", policy_over<exec>(x.interior_extent()),
        KOKKOS_LAMBDA(std::int64_t i0, std::int64_t i1, std::int64_t i2, std::int64_t i3, std::int64_t i4, T& acc) {
          Reducer::join_value(acc, v(i0, i1, l2 + i2, l3 + i3, l4 + i4));
        },
        typename Reducer::template kokkos<T>(local));
  }
  T global = local;
  MPI_Allreduce(&local, &global, 1, mpi_type<T>(), op, x.layout().comm().get());
  return global;
}
struct MaxReducer {
  template <class T>
  using kokkos = Kokkos::Max<T>;
  template <class T>
  KOKKOS_INLINE_FUNCTION static void join_value(T& acc, T v) { acc = v > acc ? v : acc; }
};
struct MinReducer {
  template <class T>
  using kokkos = Kokkos::Min<T>;
  template <class T>
  KOKKOS_INLINE_FUNCTION static void join_value(T& acc, T v) { acc = v < acc ? v : acc; }
};

// The sum over the ranks of `local`. `problem`: this rank's verdict on its part (empty: fine),
// carried in the same all-reduce, so that one rank's problem is every rank's hpart::Error.
inline double allreduce_sum(const Comm& comm, double local, const std::string& problem = {}) {
  double v[2] = {problem.empty() ? local : 0.0, problem.empty() ? 0.0 : 1.0};
  MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_DOUBLE, MPI_SUM, comm.get());
  if (v[1] != 0.0) comm.agree(problem.empty() ? ErrorCode::ok : ErrorCode::size_mismatch, problem);
  return v[0];
}
}  // namespace impl

template <class T, class M>
double sum(const ShardTensor<T, M>& x) {
  const bool mine = x.layout().is_primary(x.layout().rank());
  return impl::allreduce_sum(x.layout().comm(), mine ? impl::local_sum(x, x, false, impl::ValueOf{}) : 0.0);
}

template <class T, class M>
double mean(const ShardTensor<T, M>& x) {
  return sum(x) / static_cast<double>(x.layout().shape().volume());
}

template <class T, class M>
T max(const ShardTensor<T, M>& x) {
  return impl::global_extreme<T, M, impl::MaxReducer>(x, std::numeric_limits<T>::lowest(), MPI_MAX);
}

template <class T, class M>
T min(const ShardTensor<T, M>& x) {
  return impl::global_extreme<T, M, impl::MinReducer>(x, std::numeric_limits<T>::max(), MPI_MIN);
}

template <class T, class M>
double dot(const ShardTensor<T, M>& x, const ShardTensor<T, M>& y) {
  const std::string problem = impl::same_problem(x, y, "dot");
  const bool mine = problem.empty() && x.layout().is_primary(x.layout().rank());
  return impl::allreduce_sum(x.layout().comm(), mine ? impl::local_sum(x, y, false, impl::ProductOf{}) : 0.0, problem);
}

template <class T, class M>
double stored_dot(const ShardTensor<T, M>& x, const ShardTensor<T, M>& y, bool with_halo) {
  std::string problem = impl::same_problem(x, y, "stored_dot");
  if (problem.empty() && with_halo && !(x.halo() == y.halo())) problem = "stored_dot: the tensors have different halos";
  return impl::allreduce_sum(x.layout().comm(), problem.empty() ? impl::local_sum(x, y, with_halo, impl::ProductOf{}) : 0.0,
                             problem);
}

template <class T, class M>
void fill(ShardTensor<T, M>& x, T value) {
  impl::fill_region(x.view(), x.margins(), x.interior_extent(), value);
}

template <class T, class M>
void zero_halo(ShardTensor<T, M>& x) {
  if (x.interior_volume() == 0 || !x.halo().any()) return;
  // The halo shell as slabs: along D, H, W in turn, each slab spanning the axes after it whole.
  const Index5 m = x.margins(), n = x.interior_extent();
  for (int a = kAxisD; a <= kAxisW; ++a) {
    const auto ua = static_cast<std::size_t>(a);
    if (m[ua] == 0) continue;
    Index5 lo{0, 0, 0, 0, 0}, count{n[0], n[1], 0, 0, 0};
    for (int b = kAxisD; b <= kAxisW; ++b) {
      const auto ub = static_cast<std::size_t>(b);
      if (b < a) lo[ub] = m[ub], count[ub] = n[ub];         // interior: earlier slabs took the rest
      else count[ub] = n[ub] + 2 * m[ub];
    }
    count[ua] = m[ua];
    impl::fill_region(x.view(), lo, count, T(0));
    lo[ua] = m[ua] + n[ua];
    impl::fill_region(x.view(), lo, count, T(0));
  }
}

template <class T, class M, class F>
void map(ShardTensor<T, M>& x, F f) {
  using exec = typename M::execution_space;
  if (x.interior_volume() == 0) return;
  const auto v = x.view();
  const Index5 m = x.margins();
  const std::int64_t l2 = m[2], l3 = m[3], l4 = m[4];
  Kokkos::parallel_for(
      "hpart::tensor::map", impl::policy_over<exec>(x.interior_extent()),
      KOKKOS_LAMBDA(std::int64_t i0, std::int64_t i1, std::int64_t i2, std::int64_t i3, std::int64_t i4) {
        T& c = v(i0, i1, l2 + i2, l3 + i3, l4 + i4);
        c = f(c);
      });
}

template <class T, class M, class F>
void zip_map(ShardTensor<T, M>& y, const ShardTensor<T, M>& x, F f) {
  using exec = typename M::execution_space;
  impl::require_same(x, y, "zip_map");
  if (y.interior_volume() == 0) return;
  const auto yv = y.view();
  const auto xv = x.const_view();
  const Index5 my = y.margins(), mx = x.margins();
  const std::int64_t y2 = my[2], y3 = my[3], y4 = my[4], x2 = mx[2], x3 = mx[3], x4 = mx[4];
  Kokkos::parallel_for(
      "hpart::tensor::zip_map", impl::policy_over<exec>(y.interior_extent()),
      KOKKOS_LAMBDA(std::int64_t i0, std::int64_t i1, std::int64_t i2, std::int64_t i3, std::int64_t i4) {
        T& c = yv(i0, i1, y2 + i2, y3 + i3, y4 + i4);
        c = f(c, xv(i0, i1, x2 + i2, x3 + i3, x4 + i4));
      });
}

namespace impl {
template <class T>
struct Scale {
  T a;
  KOKKOS_INLINE_FUNCTION T operator()(T v) const { return a * v; }
};
template <class T>
struct Axpy {
  T a;
  KOKKOS_INLINE_FUNCTION T operator()(T y, T x) const { return y + a * x; }
};
struct Second {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(T, T x) const { return x; }
};
}  // namespace impl

template <class T, class M>
void scale(ShardTensor<T, M>& x, T a) {
  map(x, impl::Scale<T>{a});
}

template <class T, class M>
void axpy(T a, const ShardTensor<T, M>& x, ShardTensor<T, M>& y) {
  zip_map(y, x, impl::Axpy<T>{a});
}

template <class T, class M>
void copy(const ShardTensor<T, M>& x, ShardTensor<T, M>& y) {
  zip_map(y, x, impl::Second{});
}

}  // namespace hpart::tensor
