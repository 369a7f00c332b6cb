// Elementwise kernels on the interior: ReLU/GELU and their derivatives, the squared error of the
// MSE loss and its gradient, zero fill and interior sums.
#include <cmath>
#include <string>

#include "tensor/layers/padded_geometry.hpp"

namespace hpart::tensor::kernels {

using detail::Geometry;
using detail::require;

namespace {

// Kokkos 3.x keeps the math functions in Experimental; 4.x moved them to Kokkos::.
KOKKOS_INLINE_FUNCTION double erf_of(double v) {
#if KOKKOS_VERSION >= 40000
  return Kokkos::erf(v);
#else
  return Kokkos::Experimental::erf(v);
#endif
}
KOKKOS_INLINE_FUNCTION double exp_of(double v) {
#if KOKKOS_VERSION >= 40000
  return Kokkos::exp(v);
#else
  return Kokkos::Experimental::exp(v);
#endif
}

void check_activation(Activation act) {
  require(act == Activation::relu || act == Activation::gelu,
          "activation " + std::to_string(static_cast<int>(act)) + " is neither Activation::relu nor Activation::gelu");
}

void same_interior(const Geometry& a, const Geometry& b, const char* what) {
  require(a.n == b.n && a.c == b.c && a.d == b.d && a.h == b.h && a.w == b.w,
          std::string(what) + ": interiors differ");
}

}  // namespace

template <class T>
void activation_forward(Activation act, const Padded<T>& x, const Padded<T>& y) {
  check_activation(act);
  const Geometry gx = detail::geometry(x), gy = detail::geometry(y);
  same_interior(gx, gy, "activation_forward");
  const T* xp = x.view.data();
  T* yp = y.view.data();
  const bool gelu = act == Activation::gelu;
  Kokkos::parallel_for("hpart::activation_forward", detail::range(gx.rows()), KOKKOS_LAMBDA(const std::int64_t r) {
    const std::int64_t i = r % gx.h, z = (r / gx.h) % gx.d, c = (r / (gx.h * gx.d)) % gx.c, n = r / (gx.h * gx.d * gx.c);
    const T* xr = xp + gx.at(n, c, z, i, 0);
    T* yr = yp + gy.at(n, c, z, i, 0);
    for (std::int64_t j = 0; j < gx.w; ++j) {
      const double v = static_cast<double>(xr[j]);
      yr[j] = static_cast<T>(gelu ? 0.5 * v * (1.0 + erf_of(v * 0.70710678118654752440)) : (v > 0 ? v : 0.0));
    }
  });
}

template <class T>
void activation_backward(Activation act, const Padded<T>& x, const Padded<T>& dy, const Padded<T>& dx) {
  check_activation(act);
  const Geometry gx = detail::geometry(x), gg = detail::geometry(dy), gd = detail::geometry(dx);
  same_interior(gx, gg, "activation_backward");
  same_interior(gx, gd, "activation_backward");
  const T* xp = x.view.data();
  const T* gp = dy.view.data();
  T* dp = dx.view.data();
  const bool gelu = act == Activation::gelu;
  Kokkos::parallel_for("hpart::activation_backward", detail::range(gx.rows()), KOKKOS_LAMBDA(const std::int64_t r) {
    const std::int64_t i = r % gx.h, z = (r / gx.h) % gx.d, c = (r / (gx.h * gx.d)) % gx.c, n = r / (gx.h * gx.d * gx.c);
    const T* xr = xp + gx.at(n, c, z, i, 0);
    const T* gr = gp + gg.at(n, c, z, i, 0);
    T* dr = dp + gd.at(n, c, z, i, 0);
    for (std::int64_t j = 0; j < gx.w; ++j) {
      const double v = static_cast<double>(xr[j]);
      // GELU'(v) = Phi(v) + v phi(v).
      const double d = gelu ? 0.5 * (1.0 + erf_of(v * 0.70710678118654752440)) +
                                  v * 0.39894228040143267794 * exp_of(-0.5 * v * v)
                            : (v > 0 ? 1.0 : 0.0);
      dr[j] = static_cast<T>(static_cast<double>(gr[j]) * d);
    }
  });
}

template <class T>
double squared_error_sum(const Padded<T>& y, const Padded<T>& t) {
  const Geometry gy = detail::geometry(y), gt = detail::geometry(t);
  same_interior(gy, gt, "squared_error_sum");
  const T* yp = y.view.data();
  const T* tp = t.view.data();
  double total = 0.0;
  Kokkos::parallel_reduce(
      "hpart::squared_error_sum", detail::range(gy.rows()),
      KOKKOS_LAMBDA(const std::int64_t r, double& acc) {
        const std::int64_t i = r % gy.h, z = (r / gy.h) % gy.d, c = (r / (gy.h * gy.d)) % gy.c,
                           n = r / (gy.h * gy.d * gy.c);
        const T* yr = yp + gy.at(n, c, z, i, 0);
        const T* tr = tp + gt.at(n, c, z, i, 0);
        double row = 0.0;
        for (std::int64_t j = 0; j < gy.w; ++j) {
          const double e = static_cast<double>(yr[j]) - static_cast<double>(tr[j]);
          row += e * e;
        }
        acc += row;
      },
      total);
  return total;
}

template <class T>
void squared_error_gradient(const Padded<T>& y, const Padded<T>& t, double scale, const Padded<T>& dy) {
  const Geometry gy = detail::geometry(y), gt = detail::geometry(t), gd = detail::geometry(dy);
  same_interior(gy, gt, "squared_error_gradient");
  same_interior(gy, gd, "squared_error_gradient");
  const T* yp = y.view.data();
  const T* tp = t.view.data();
  T* dp = dy.view.data();
  Kokkos::parallel_for("hpart::squared_error_gradient", detail::range(gy.rows()), KOKKOS_LAMBDA(const std::int64_t r) {
    const std::int64_t i = r % gy.h, z = (r / gy.h) % gy.d, c = (r / (gy.h * gy.d)) % gy.c, n = r / (gy.h * gy.d * gy.c);
    const T* yr = yp + gy.at(n, c, z, i, 0);
    const T* tr = tp + gt.at(n, c, z, i, 0);
    T* dr = dp + gd.at(n, c, z, i, 0);
    for (std::int64_t j = 0; j < gy.w; ++j)
      dr[j] = static_cast<T>(scale * (static_cast<double>(yr[j]) - static_cast<double>(tr[j])));
  });
}

template <class T>
void fill_zero(const Padded<T>& x) {
  Kokkos::deep_copy(x.view, T(0));
}

template <class T>
double interior_sum(const Padded<T>& x) {
  const Geometry g = detail::geometry(x);
  const T* p = x.view.data();
  double total = 0.0;
  Kokkos::parallel_reduce(
      "hpart::interior_sum", detail::range(g.rows()),
      KOKKOS_LAMBDA(const std::int64_t r, double& acc) {
        const std::int64_t i = r % g.h, z = (r / g.h) % g.d, c = (r / (g.h * g.d)) % g.c, n = r / (g.h * g.d * g.c);
        const T* xr = p + g.at(n, c, z, i, 0);
        for (std::int64_t j = 0; j < g.w; ++j) acc += static_cast<double>(xr[j]);
      },
      total);
  return total;
}

#define HPART_POINTWISE_KERNELS(T)                                                                       \
  template void activation_forward<T>(Activation, const Padded<T>&, const Padded<T>&);                   \
  template void activation_backward<T>(Activation, const Padded<T>&, const Padded<T>&, const Padded<T>&); \
  template double squared_error_sum<T>(const Padded<T>&, const Padded<T>&);                              \
  template void squared_error_gradient<T>(const Padded<T>&, const Padded<T>&, double, const Padded<T>&); \
  template void fill_zero<T>(const Padded<T>&);                                                          \
  template double interior_sum<T>(const Padded<T>&);
HPART_POINTWISE_KERNELS(float)
HPART_POINTWISE_KERNELS(double)
#undef HPART_POINTWISE_KERNELS

}  // namespace hpart::tensor::kernels
