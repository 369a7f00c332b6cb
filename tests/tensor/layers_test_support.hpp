#pragma once
// Helpers of the layer tests: deterministic random padded fields, host copies, inner products
// over whole padded arrays (the space the halo adjoint lives in) or over interiors.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "hpart/tensor/layer_kernels.hpp"

namespace hpart::testing {

namespace tk = hpart::tensor::kernels;

template <class T>
std::vector<T> host_copy(const tk::View5<T>& v) {
  auto m = Kokkos::create_mirror_view(v);
  Kokkos::deep_copy(m, v);
  return std::vector<T>(m.data(), m.data() + m.size());
}
template <class T>
std::vector<T> host_copy(const tk::View1<T>& v) {
  auto m = Kokkos::create_mirror_view(v);
  Kokkos::deep_copy(m, v);
  return std::vector<T>(m.data(), m.data() + m.size());
}
template <class T>
void upload(const tk::View5<T>& v, const std::vector<T>& h) {
  auto m = Kokkos::create_mirror_view(v);
  for (std::size_t k = 0; k < h.size(); ++k) m.data()[k] = h[k];
  Kokkos::deep_copy(v, m);
}
template <class T>
void upload(const tk::View1<T>& v, const std::vector<T>& h) {
  auto m = Kokkos::create_mirror_view(v);
  for (std::size_t k = 0; k < h.size(); ++k) m.data()[k] = h[k];
  Kokkos::deep_copy(v, m);
}

// Uniform values in [-1, 1) over the whole padded array (halo included when `halo_too`).
template <class T>
tk::Padded<T> random_padded(std::int64_t n, std::int64_t c, std::int64_t d, std::int64_t h, std::int64_t w,
                            tk::Margin m, unsigned seed, bool halo_too = true) {
  auto p = tk::make_padded<T>("test", n, c, d, h, w, m);
  auto v = host_copy(p.view);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const std::int64_t P[3] = {d + 2 * m.d, h + 2 * m.h, w + 2 * m.w};
  std::size_t k = 0;
  for (std::int64_t a = 0; a < n * c; ++a)
    for (std::int64_t z = 0; z < P[0]; ++z)
      for (std::int64_t i = 0; i < P[1]; ++i)
        for (std::int64_t j = 0; j < P[2]; ++j, ++k) {
          const bool inside = z >= m.d && z < m.d + d && i >= m.h && i < m.h + h && j >= m.w && j < m.w + w;
          const double r = u(gen);
          v[k] = (inside || halo_too) ? static_cast<T>(r) : T(0);
        }
  upload(p.view, v);
  return p;
}

template <class T>
tk::View1<T> random_vector(std::int64_t n, unsigned seed) {
  tk::View1<T> v("test", static_cast<std::size_t>(n));
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> h(static_cast<std::size_t>(n));
  for (auto& x : h) x = static_cast<T>(u(gen));
  upload(v, h);
  return v;
}

template <class T>
double dot_all(const tk::Padded<T>& a, const tk::Padded<T>& b) {
  const auto x = host_copy(a.view), y = host_copy(b.view);
  double s = 0;
  for (std::size_t k = 0; k < x.size(); ++k) s += static_cast<double>(x[k]) * static_cast<double>(y[k]);
  return s;
}
template <class T>
double dot(const tk::View1<T>& a, const tk::View1<T>& b) {
  const auto x = host_copy(a), y = host_copy(b);
  double s = 0;
  for (std::size_t k = 0; k < x.size(); ++k) s += static_cast<double>(x[k]) * static_cast<double>(y[k]);
  return s;
}

// Host access to a padded copy by interior coordinates (halo cells at negative / past-end ones).
template <class T>
struct HostPadded {
  std::vector<T> v;
  std::int64_t n, c, d, h, w;
  tk::Margin m;
  explicit HostPadded(const tk::Padded<T>& p)
      : v(host_copy(p.view)), n(p.n()), c(p.c()), d(p.d()), h(p.h()), w(p.w()), m(p.halo) {}
  [[nodiscard]] std::size_t at(std::int64_t nn, std::int64_t cc, std::int64_t z, std::int64_t i, std::int64_t j) const {
    const std::int64_t PD = d + 2 * m.d, PH = h + 2 * m.h, PW = w + 2 * m.w;
    return static_cast<std::size_t>(((((nn * c + cc) * PD + z + m.d) * PH + i + m.h) * PW) + j + m.w);
  }
  T& operator()(std::int64_t nn, std::int64_t cc, std::int64_t z, std::int64_t i, std::int64_t j) {
    return v[at(nn, cc, z, i, j)];
  }
  T operator()(std::int64_t nn, std::int64_t cc, std::int64_t z, std::int64_t i, std::int64_t j) const {
    return v[at(nn, cc, z, i, j)];
  }
};

}  // namespace hpart::testing
