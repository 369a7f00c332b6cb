// Convolution (cross-correlation, stride 1, odd kernels) on padded shards: forward, the data
// gradient over the whole padded storage (its halo part feeds the halo adjoint), and the weight
// gradient as fixed-order per-block partial sums (deterministic for a given shard shape).
#include <algorithm>
#include <string>

#include "tensor/layers/padded_geometry.hpp"

namespace hpart::tensor::kernels {

void check_conv_shape(const ConvShape& s) {
  const bool odd = s.kd % 2 == 1 && s.kh % 2 == 1 && s.kw % 2 == 1;
  require(s.cin >= 1 && s.cout >= 1, "conv: channel counts must be >= 1 (got in " + std::to_string(s.cin) +
                                         ", out " + std::to_string(s.cout) + ")");
  require(odd && s.kd >= 1 && s.kh >= 1 && s.kw >= 1,
          "conv: kernel extents must be odd (stride-1 'same' convolution), got " +
              detail::dims_str(s.kd, s.kh, s.kw));
}

namespace {

void check_weights(const ConvShape& s, std::int64_t w_count, std::int64_t b_count) {
  check_conv_shape(s);
  require(w_count == s.weight_count(), "conv: weight view has " + std::to_string(w_count) + " entries, shape needs " +
                                           std::to_string(s.weight_count()));
  require(b_count == 0 || b_count == s.cout, "conv: bias view must be empty or have C_out entries");
}

void check_halo(const Geometry& gx, const ConvShape& s) {
  require(gx.hd >= s.kd / 2 && gx.hh >= s.kh / 2 && gx.hw >= s.kw / 2,
          "conv: input halo " + detail::dims_str(gx.hd, gx.hh, gx.hw) + " is narrower than the kernel radius " +
              detail::dims_str(s.kd / 2, s.kh / 2, s.kw / 2));
}

}  // namespace

template <class T>
void conv_forward_region(const Padded<T>& x, const View1<T>& w, const View1<T>& b, const ConvShape& s,
                         const Padded<T>& y, const Region3& region) {
  const Geometry gx = detail::geometry(x), gy = detail::geometry(y);
  check_weights(s, static_cast<std::int64_t>(w.extent(0)), static_cast<std::int64_t>(b.extent(0)));
  check_halo(gx, s);
  if (x.empty() && y.empty()) return;  // a rank without a shard
  require(gx.c == s.cin && gy.c == s.cout && gx.n == gy.n, "conv_forward: channel or batch extents do not match");
  require(gx.d == gy.d && gx.h == gy.h && gx.w == gy.w, "conv_forward: input and output interiors differ");
  const T* xp = x.view.data();
  T* yp = y.view.data();
  const T* wp = w.data();
  const T* bp = b.data();
  const bool has_bias = b.extent(0) > 0;
  const std::int64_t cin = s.cin, cout = s.cout, kd = s.kd, kh = s.kh, kw = s.kw;
  const std::int64_t rd = kd / 2, rh = kh / 2, rw = kw / 2;
  const std::int64_t z0 = region.lo[0], i0 = region.lo[1], j0 = region.lo[2];
  const std::int64_t D = region.hi[0] - z0, H = region.hi[1] - i0, W = region.hi[2] - j0;
  require(z0 >= 0 && i0 >= 0 && j0 >= 0 && region.hi[0] <= gy.d && region.hi[1] <= gy.h && region.hi[2] <= gy.w,
          "conv_forward_region: the region leaves the output interior");
  if (D <= 0 || H <= 0 || W <= 0) return;
  // One output row (of the region) per work item: x rows stay in cache across the taps.
  Kokkos::parallel_for("hpart::conv_forward", detail::range(gy.n * cout * D * H), KOKKOS_LAMBDA(const std::int64_t r) {
    const std::int64_t i = r % H + i0, z = (r / H) % D + z0, co = (r / (H * D)) % cout, n = r / (H * D * cout);
    T* yr = yp + gy.at(n, co, z, i, j0);
    const T bias = has_bias ? bp[co] : T(0);
    for (std::int64_t j = 0; j < W; ++j) yr[j] = bias;
    for (std::int64_t ci = 0; ci < cin; ++ci)
      for (std::int64_t a = 0; a < kd; ++a)
        for (std::int64_t bb = 0; bb < kh; ++bb) {
          const T* xr = xp + gx.at(n, ci, z - rd + a, i - rh + bb, j0 - rw);
          const T* wr = wp + (((co * cin + ci) * kd + a) * kh + bb) * kw;
          if (kw == 3) {  // the common case in one pass over the row (same order of additions)
            const T w0 = wr[0], w1 = wr[1], w2 = wr[2];
            for (std::int64_t j = 0; j < W; ++j) {
              T acc = yr[j];
              acc += w0 * xr[j];
              acc += w1 * xr[j + 1];
              acc += w2 * xr[j + 2];
              yr[j] = acc;
            }
            continue;
          }
          for (std::int64_t c = 0; c < kw; ++c) {
            const T wv = wr[c];
            const T* xs = xr + c;
            for (std::int64_t j = 0; j < W; ++j) yr[j] += wv * xs[j];
          }
        }
  });
}

template <class T>
void conv_forward(const Padded<T>& x, const View1<T>& w, const View1<T>& b, const ConvShape& s,
                  const Padded<T>& y) {
  conv_forward_region(x, w, b, s, y, Region3{{0, 0, 0}, {y.d(), y.h(), y.w()}});
}

template <class T>
void conv_backward_data(const Padded<T>& dy, const View1<T>& w, const ConvShape& s, const Padded<T>& dx) {
  const Geometry gy = detail::geometry(dy), gx = detail::geometry(dx);
  check_weights(s, static_cast<std::int64_t>(w.extent(0)), 0);
  check_halo(gx, s);
  if (dx.empty() && dy.empty()) return;
  require(gx.c == s.cin && gy.c == s.cout && gx.n == gy.n, "conv_backward_data: channel or batch extents do not match");
  require(gx.d == gy.d && gx.h == gy.h && gx.w == gy.w, "conv_backward_data: input and output interiors differ");
  const T* gp = dy.view.data();
  T* xp = dx.view.data();
  const T* wp = w.data();
  const std::int64_t cin = s.cin, cout = s.cout, kd = s.kd, kh = s.kh, kw = s.kw;
  const std::int64_t rd = kd / 2, rh = kh / 2, rw = kw / 2, W = gy.w, H = gy.h, D = gy.d;
  const std::int64_t PD = gx.d + 2 * gx.hd, PH = gx.h + 2 * gx.hh, PW = gx.w + 2 * gx.hw;
  // One padded dx row per work item (gather, no atomics): dx(p) = sum w(a) dy(p - a + r).
  Kokkos::parallel_for(
      "hpart::conv_backward_data", detail::range(gx.n * cin * PD * PH), KOKKOS_LAMBDA(const std::int64_t r) {
        const std::int64_t pi = r % PH - gx.hh, pz = (r / PH) % PD - gx.hd, ci = (r / (PH * PD)) % cin,
                           n = r / (PH * PD * cin);
        T* xr = xp + gx.at(n, ci, pz, pi, -gx.hw);  // padded row, index q = j + hw
        for (std::int64_t q = 0; q < PW; ++q) xr[q] = T(0);
        for (std::int64_t co = 0; co < cout; ++co)
          for (std::int64_t a = 0; a < kd; ++a) {
            const std::int64_t z = pz + rd - a;
            if (z < 0 || z >= D) continue;
            for (std::int64_t bb = 0; bb < kh; ++bb) {
              const std::int64_t i = pi + rh - bb;
              if (i < 0 || i >= H) continue;
              const T* gr = gp + gy.at(n, co, z, i, 0);
              const T* wr = wp + (((co * cin + ci) * kd + a) * kh + bb) * kw;
              if (kw == 3 && W >= 2) {
                // One pass over the row: column p of xb takes dy(p - c) w(c) for c = 0, 1, 2, added in
                // that order as in the general loop below (so both give the same bits).
                T* xb = xr + (gx.hw - 1);
                const T w0 = wr[0], w1 = wr[1], w2 = wr[2];
                xb[0] += w0 * gr[0];
                xb[1] = (xb[1] + w0 * gr[1]) + w1 * gr[0];
                for (std::int64_t p = 2; p < W; ++p) {
                  T acc = xb[p];
                  acc += w0 * gr[p];
                  acc += w1 * gr[p - 1];
                  acc += w2 * gr[p - 2];
                  xb[p] = acc;
                }
                xb[W] = (xb[W] + w1 * gr[W - 1]) + w2 * gr[W - 2];
                xb[W + 1] += w2 * gr[W - 1];
                continue;
              }
              for (std::int64_t c = 0; c < kw; ++c) {
                // x column j' = j - rw + c receives dy(j); in padded index q = j' + hw.
                const T wv = wr[c];
                T* xs = xr + (gx.hw - rw + c);
                const std::int64_t off = gx.hw - rw + c;
                const std::int64_t j0 = off < 0 ? -off : 0;
                const std::int64_t j1 = W < PW - off ? W : PW - off;
                for (std::int64_t j = j0; j < j1; ++j) xs[j] += wv * gr[j];
              }
            }
          }
      });
}

template <class T>
void conv_backward_weights(const Padded<T>& x, const Padded<T>& dy, const ConvShape& s, const View1<T>& dw,
                           const View1<T>& db) {
  const Geometry gx = detail::geometry(x), gy = detail::geometry(dy);
  check_weights(s, static_cast<std::int64_t>(dw.extent(0)), static_cast<std::int64_t>(db.extent(0)));
  check_halo(gx, s);
  if (x.empty() && dy.empty()) {
    Kokkos::deep_copy(dw, T(0));
    if (db.extent(0) > 0) Kokkos::deep_copy(db, T(0));
    return;
  }
  require(gx.c == s.cin && gy.c == s.cout && gx.n == gy.n, "conv_backward_weights: channel or batch extents do not match");
  require(gx.d == gy.d && gx.h == gy.h && gx.w == gy.w, "conv_backward_weights: input and output interiors differ");
  const std::int64_t cin = s.cin, cout = s.cout, kd = s.kd, kh = s.kh, kw = s.kw;
  const std::int64_t rd = kd / 2, rh = kh / 2, rw = kw / 2, W = gy.w, H = gy.h, D = gy.d;
  const std::int64_t nw = s.weight_count(), nv = nw + cout;  // weights, then bias
  const std::int64_t rows = gy.n * D * H;
  // Rows are cut into at most ~1024 blocks; each block writes its own partial sums, which are
  // then added block by block in a fixed order (no atomics, same result for any thread count).
  const detail::ConvBlocks cut = detail::conv_weight_blocks(rows, nv);
  const std::int64_t per_block = cut.per_block, blocks = cut.blocks;
  Kokkos::View<double**, Kokkos::LayoutRight, MemorySpace> partial(
      Kokkos::view_alloc("hpart::conv_dw_partial", Kokkos::WithoutInitializing), static_cast<std::size_t>(blocks),
      static_cast<std::size_t>(std::max<std::int64_t>(nv, 1)));
  const T* xp = x.view.data();
  const T* gp = dy.view.data();
  Kokkos::parallel_for("hpart::conv_backward_weights", detail::range(blocks), KOKKOS_LAMBDA(const std::int64_t blk) {
    double* acc = &partial(blk, 0);
    for (std::int64_t v = 0; v < nv; ++v) acc[v] = 0.0;
    const std::int64_t r1 = (blk + 1) * per_block < rows ? (blk + 1) * per_block : rows;
    for (std::int64_t r = blk * per_block; r < r1; ++r) {
      const std::int64_t i = r % H, z = (r / H) % D, n = r / (H * D);
      for (std::int64_t co = 0; co < cout; ++co) {
        const T* gr = gp + gy.at(n, co, z, i, 0);
        T bsum = T(0);
        HPART_SIMD_SUM(bsum)
        for (std::int64_t j = 0; j < W; ++j) bsum += gr[j];
        acc[nw + co] += static_cast<double>(bsum);
        for (std::int64_t ci = 0; ci < cin; ++ci)
          for (std::int64_t a = 0; a < kd; ++a)
            for (std::int64_t bb = 0; bb < kh; ++bb) {
              const T* xr = xp + gx.at(n, ci, z - rd + a, i - rh + bb, -rw);
              double* ar = acc + (((co * cin + ci) * kd + a) * kh + bb) * kw;
              for (std::int64_t c = 0; c < kw; ++c) {
                T dot = T(0);
                const T* xs = xr + c;
                HPART_SIMD_SUM(dot)
                for (std::int64_t j = 0; j < W; ++j) dot += gr[j] * xs[j];
                ar[c] += static_cast<double>(dot);
              }
            }
      }
    }
  });
  T* wp = dw.data();
  T* bp = db.data();
  const bool has_bias = db.extent(0) > 0;
  Kokkos::parallel_for("hpart::conv_backward_weights_sum", detail::range(nv), KOKKOS_LAMBDA(const std::int64_t v) {
    double sum = 0.0;
    for (std::int64_t blk = 0; blk < blocks; ++blk) sum += partial(blk, v);
    if (v < nw)
      wp[v] = static_cast<T>(sum);
    else if (has_bias)
      bp[v - nw] = static_cast<T>(sum);
  });
}

#define HPART_CONV_KERNELS(T)                                                                                 \
  template void conv_forward_region<T>(const Padded<T>&, const View1<T>&, const View1<T>&, const ConvShape&,  \
                                       const Padded<T>&, const Region3&);                                      \
  template void conv_forward<T>(const Padded<T>&, const View1<T>&, const View1<T>&, const ConvShape&,         \
                                const Padded<T>&);                                                            \
  template void conv_backward_data<T>(const Padded<T>&, const View1<T>&, const ConvShape&, const Padded<T>&); \
  template void conv_backward_weights<T>(const Padded<T>&, const Padded<T>&, const ConvShape&, const View1<T>&, \
                                         const View1<T>&);
HPART_CONV_KERNELS(float)
HPART_CONV_KERNELS(double)
#undef HPART_CONV_KERNELS

}  // namespace hpart::tensor::kernels
