// 2x average and max pooling of the interior; the backward pass gathers per input cell (the max
// is recomputed from x, first maximum in scan order, so no index buffer is kept).
#include <string>

#include "tensor/layers/padded_geometry.hpp"

namespace hpart::tensor::kernels {

template <class T>
void pool2_forward(Pool kind, int spatial_dims, const Padded<T>& x, const Padded<T>& y) {
  const detail::Resampling rs = detail::resampling(detail::Resample::pool, spatial_dims, x, y);
  const Factors f = rs.f;
  const Geometry gx = rs.fine, gy = rs.coarse;
  const bool is_max = kind == Pool::max;
  const T inv = T(1) / static_cast<T>(f.d * f.h * f.w);
  const T* xp = x.view.data();
  T* yp = y.view.data();
  Kokkos::parallel_for("hpart::pool2_forward", detail::range(gy.rows()), KOKKOS_LAMBDA(const std::int64_t r) {
    const auto [n, c, z, i] = gy.row(r);
    T* yr = yp + gy.at(n, c, z, i, 0);
    for (std::int64_t j = 0; j < gy.w; ++j) {
      T acc = xp[gx.at(n, c, z * f.d, i * f.h, j * f.w)];
      if (!is_max) acc = T(0);
      for (std::int64_t a = 0; a < f.d; ++a)
        for (std::int64_t b = 0; b < f.h; ++b)
          for (std::int64_t e = 0; e < f.w; ++e) {
            const T v = xp[gx.at(n, c, z * f.d + a, i * f.h + b, j * f.w + e)];
            if (is_max)
              acc = v > acc ? v : acc;
            else
              acc += v;
          }
      yr[j] = is_max ? acc : acc * inv;
    }
  });
}

template <class T>
void pool2_backward(Pool kind, int spatial_dims, const Padded<T>& x, const Padded<T>& dy, const Padded<T>& dx) {
  const detail::Resampling rs = detail::resampling(detail::Resample::pool, spatial_dims, x, dy);
  const Factors f = rs.f;
  const Geometry gx = rs.fine, gy = rs.coarse, gd = detail::geometry(dx);
  require(gd.n == gx.n && gd.c == gx.c && gd.d == gx.d && gd.h == gx.h && gd.w == gx.w,
          "pool2_backward: dx and x interiors differ");
  const bool is_max = kind == Pool::max;
  const T inv = T(1) / static_cast<T>(f.d * f.h * f.w);
  const T* xp = x.view.data();
  const T* gp = dy.view.data();
  T* dp = dx.view.data();
  Kokkos::parallel_for("hpart::pool2_backward", detail::range(gx.rows()), KOKKOS_LAMBDA(const std::int64_t r) {
    const auto [n, c, z, i] = gx.row(r);
    const std::int64_t oz = z / f.d, oi = i / f.h;
    for (std::int64_t j = 0; j < gx.w; ++j) {
      const std::int64_t oj = j / f.w;
      const T g = gp[gy.at(n, c, oz, oi, oj)];
      if (!is_max) {
        dp[gd.at(n, c, z, i, j)] = g * inv;
        continue;
      }
      // The first maximum of the block in scan order takes the whole gradient.
      std::int64_t best = -1, k = 0;
      T bv = T(0);
      for (std::int64_t a = 0; a < f.d; ++a)
        for (std::int64_t b = 0; b < f.h; ++b)
          for (std::int64_t e = 0; e < f.w; ++e, ++k) {
            const T v = xp[gx.at(n, c, oz * f.d + a, oi * f.h + b, oj * f.w + e)];
            if (best < 0 || v > bv) best = k, bv = v;
          }
      const std::int64_t mine = ((z - oz * f.d) * f.h + (i - oi * f.h)) * f.w + (j - oj * f.w);
      dp[gd.at(n, c, z, i, j)] = mine == best ? g : T(0);
    }
  });
}

#define HPART_POOL_KERNELS(T)                                                        \
  template void pool2_forward<T>(Pool, int, const Padded<T>&, const Padded<T>&);     \
  template void pool2_backward<T>(Pool, int, const Padded<T>&, const Padded<T>&, const Padded<T>&);
HPART_POOL_KERNELS(float)
HPART_POOL_KERNELS(double)
#undef HPART_POOL_KERNELS

}  // namespace hpart::tensor::kernels
