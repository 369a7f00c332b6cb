// Elementwise kernels on the interior: ReLU/GELU and their derivatives, the squared error of the
// MSE loss and its gradient, zero fill and interior sums.
#include <cmath>
#include <string>

#include "tensor/layers/kokkos_math.hpp"
#include "tensor/layers/padded_geometry.hpp"

namespace hpart::tensor::kernels {

namespace {

void check_activation(Activation act) {
  require(act == Activation::relu || act == Activation::gelu,
          "activation " + std::to_string(static_cast<int>(act)) + " is neither Activation::relu nor Activation::gelu");
}

// Every one of `others` has a's interior extents.
template <class... G>
void same_interior(const char* what, const Geometry& a, const G&... others) {
  (require(a.n == others.n && a.c == others.c && a.d == others.d && a.h == others.h && a.w == others.w,
           std::string(what) + ": interiors differ"),
   ...);
}

// Runs row(n, c, z, i) in parallel for every interior row of g.
template <class Row>
void for_rows(const char* label, const Geometry& g, Row row) {
  Kokkos::parallel_for(label, detail::range(g.rows()), KOKKOS_LAMBDA(const std::int64_t r) {
    const auto [n, c, z, i] = g.row(r);
    row(n, c, z, i);
  });
}

// The sum over the interior rows of g: row(n, c, z, i, acc) adds a row's share to acc, which
// Kokkos reduces into the total.
template <class RowSum>
double reduce_rows(const char* label, const Geometry& g, RowSum row) {
  double total = 0.0;
  Kokkos::parallel_reduce(
      label, detail::range(g.rows()),
      KOKKOS_LAMBDA(const std::int64_t r, double& acc) {
        const auto [n, c, z, i] = g.row(r);
        row(n, c, z, i, acc);
      },
      total);
  return total;
}

}  // namespace

template <class T>
void activation_forward(Activation act, const Padded<T>& x, const Padded<T>& y) {
  check_activation(act);
  const Geometry gx = detail::geometry(x), gy = detail::geometry(y);
  same_interior("activation_forward", gx, gy);
  const T* xp = x.view.data();
  T* yp = y.view.data();
  const bool gelu = act == Activation::gelu;
  for_rows("hpart::activation_forward", gx, KOKKOS_LAMBDA(std::int64_t n, std::int64_t c, std::int64_t z, std::int64_t i) {
    const T* xr = xp + gx.at(n, c, z, i, 0);
    T* yr = yp + gy.at(n, c, z, i, 0);
    for (std::int64_t j = 0; j < gx.w; ++j) {
      const double v = static_cast<double>(xr[j]);
      yr[j] = static_cast<T>(gelu ? 0.5 * v * (1.0 + kmath::erf(v * 0.70710678118654752440)) : (v > 0 ? v : 0.0));
    }
  });
}

template <class T>
void activation_backward(Activation act, const Padded<T>& x, const Padded<T>& dy, const Padded<T>& dx) {
  check_activation(act);
  const Geometry gx = detail::geometry(x), gg = detail::geometry(dy), gd = detail::geometry(dx);
  same_interior("activation_backward", gx, gg, gd);
  const T* xp = x.view.data();
  const T* gp = dy.view.data();
  T* dp = dx.view.data();
  const bool gelu = act == Activation::gelu;
  for_rows("hpart::activation_backward", gx, KOKKOS_LAMBDA(std::int64_t n, std::int64_t c, std::int64_t z, std::int64_t i) {
    const T* xr = xp + gx.at(n, c, z, i, 0);
    const T* gr = gp + gg.at(n, c, z, i, 0);
    T* dr = dp + gd.at(n, c, z, i, 0);
    for (std::int64_t j = 0; j < gx.w; ++j) {
      const double v = static_cast<double>(xr[j]);
      // GELU'(v) = Phi(v) + v phi(v).
      const double d = gelu ? 0.5 * (1.0 + kmath::erf(v * 0.70710678118654752440)) +
                                  v * 0.39894228040143267794 * kmath::exp(-0.5 * v * v)
                            : (v > 0 ? 1.0 : 0.0);
      dr[j] = static_cast<T>(static_cast<double>(gr[j]) * d);
    }
  });
}

template <class T>
double squared_error_sum(const Padded<T>& y, const Padded<T>& t) {
  const Geometry gy = detail::geometry(y), gt = detail::geometry(t);
  same_interior("squared_error_sum", gy, gt);
  const T* yp = y.view.data();
  const T* tp = t.view.data();
  return reduce_rows("hpart::squared_error_sum", gy,
                     KOKKOS_LAMBDA(std::int64_t n, std::int64_t c, std::int64_t z, std::int64_t i, double& acc) {
                       const T* yr = yp + gy.at(n, c, z, i, 0);
                       const T* tr = tp + gt.at(n, c, z, i, 0);
                       double row = 0.0;
                       for (std::int64_t j = 0; j < gy.w; ++j) {
                         const double e = static_cast<double>(yr[j]) - static_cast<double>(tr[j]);
                         row += e * e;
                       }
                       acc += row;
                     });
}

template <class T>
void squared_error_gradient(const Padded<T>& y, const Padded<T>& t, double scale, const Padded<T>& dy) {
  const Geometry gy = detail::geometry(y), gt = detail::geometry(t), gd = detail::geometry(dy);
  same_interior("squared_error_gradient", gy, gt, gd);
  const T* yp = y.view.data();
  const T* tp = t.view.data();
  T* dp = dy.view.data();
  for_rows("hpart::squared_error_gradient", gy, KOKKOS_LAMBDA(std::int64_t n, std::int64_t c, std::int64_t z, std::int64_t i) {
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
  return reduce_rows("hpart::interior_sum", g,
                     KOKKOS_LAMBDA(std::int64_t n, std::int64_t c, std::int64_t z, std::int64_t i, double& acc) {
                       const T* xr = p + g.at(n, c, z, i, 0);
                       for (std::int64_t j = 0; j < g.w; ++j) acc += static_cast<double>(xr[j]);
                     });
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
