// 2x nearest and bilinear upsampling (half-pixel centres, PyTorch's align_corners = false) and
// the edge replication that gives bilinear its clamp at global edges. Bilinear is separable:
// output o of an upsampled dim reads input o/2 with 3/4 and its neighbour towards o's side with
// 1/4, so a halo of 1 suffices; its adjoint gathers the four outputs each input cell feeds.
#include <string>

#include "tensor/layers/padded_geometry.hpp"

namespace hpart::tensor::kernels {

namespace {

// Up to K cells along one dim and their weights.
template <int K>
struct Taps {
  std::int64_t idx[K];
  double wt[K];
  int count;
};

// Taps of output o along one dim: index and weight (factor 1: the identity).
KOKKOS_INLINE_FUNCTION Taps<2> forward_taps(std::int64_t o, std::int64_t f) {
  if (f == 1) return {{o, o}, {1.0, 0.0}, 1};
  const std::int64_t i = o / 2;
  return {{i, (o % 2 == 0) ? i - 1 : i + 1}, {0.75, 0.25}, 2};
}

// Outputs that input q feeds along one dim (q may be -1 or n, the halo), clipped to [0, m).
KOKKOS_INLINE_FUNCTION Taps<4> adjoint_taps(std::int64_t q, std::int64_t f, std::int64_t m) {
  Taps<4> r{{0, 0, 0, 0}, {0, 0, 0, 0}, 0};
  if (f == 1) {
    if (q >= 0 && q < m) r.idx[0] = q, r.wt[0] = 1.0, r.count = 1;
    return r;
  }
  const std::int64_t o[4] = {2 * q - 1, 2 * q, 2 * q + 1, 2 * q + 2};
  const double w[4] = {0.25, 0.75, 0.75, 0.25};
  for (int k = 0; k < 4; ++k)
    if (o[k] >= 0 && o[k] < m) r.idx[r.count] = o[k], r.wt[r.count] = w[k], ++r.count;
  return r;
}

// The separable weighted sum of the cells of p (geometry g, sample n, channel c) at the taps of
// the three dims, accumulated in double in the order z, i, j.
template <int K, class T>
KOKKOS_INLINE_FUNCTION double tap_sum(const T* p, const Geometry& g, std::int64_t n, std::int64_t c, const Taps<K>& tz,
                                      const Taps<K>& ti, const Taps<K>& tj) {
  double acc = 0.0;
  for (int a = 0; a < tz.count; ++a)
    for (int b = 0; b < ti.count; ++b)
      for (int e = 0; e < tj.count; ++e)
        acc += tz.wt[a] * ti.wt[b] * tj.wt[e] * static_cast<double>(p[g.at(n, c, tz.idx[a], ti.idx[b], tj.idx[e])]);
  return acc;
}

}  // namespace

template <class T>
void upsample2_forward(Upsample kind, int spatial_dims, const Padded<T>& x, const Padded<T>& y) {
  const bool bilinear = kind == Upsample::bilinear;
  const detail::Resampling rs = detail::resampling(detail::Resample::upsample, spatial_dims, y, x);
  const Factors f = rs.f;
  const Geometry gx = rs.coarse, gy = rs.fine;
  if (bilinear)
    require(gx.hd >= f.d - 1 && gx.hh >= 1 && gx.hw >= 1, "upsample2 bilinear: the input needs a halo of 1");
  const T* xp = x.view.data();
  T* yp = y.view.data();
  Kokkos::parallel_for("hpart::upsample2_forward", detail::range(gy.rows()), KOKKOS_LAMBDA(const std::int64_t r) {
    const auto [n, c, z, i] = gy.row(r);
    T* yr = yp + gy.at(n, c, z, i, 0);
    if (!bilinear) {
      for (std::int64_t j = 0; j < gy.w; ++j) yr[j] = xp[gx.at(n, c, z / f.d, i / f.h, j / f.w)];
      return;
    }
    const Taps<2> tz = forward_taps(z, f.d), ti = forward_taps(i, f.h);
    for (std::int64_t j = 0; j < gy.w; ++j) yr[j] = static_cast<T>(tap_sum(xp, gx, n, c, tz, ti, forward_taps(j, f.w)));
  });
}

template <class T>
void upsample2_backward(Upsample kind, int spatial_dims, const Padded<T>& dy, const Padded<T>& dx) {
  const detail::Resampling rs = detail::resampling(detail::Resample::upsample, spatial_dims, dy, dx);
  const Factors f = rs.f;
  const Geometry gy = rs.fine, gx = rs.coarse;
  const T* gp = dy.view.data();
  T* xp = dx.view.data();
  if (kind != Upsample::bilinear) {
    Kokkos::parallel_for("hpart::upsample2_backward", detail::range(gx.rows()), KOKKOS_LAMBDA(const std::int64_t r) {
      const auto [n, c, z, i] = gx.row(r);
      for (std::int64_t j = 0; j < gx.w; ++j) {
        T acc = T(0);
        for (std::int64_t a = 0; a < f.d; ++a)
          for (std::int64_t b = 0; b < f.h; ++b)
            for (std::int64_t e = 0; e < f.w; ++e) acc += gp[gy.at(n, c, z * f.d + a, i * f.h + b, j * f.w + e)];
        xp[gx.at(n, c, z, i, j)] = acc;
      }
    });
    return;
  }
  require(gx.hd >= f.d - 1 && gx.hh >= 1 && gx.hw >= 1, "upsample2 bilinear: dx needs a halo of 1");
  // Interior plus a halo ring of 1 in the upsampled dims.
  const std::int64_t ed = f.d - 1, ND = gx.d + 2 * ed, NH = gx.h + 2, NW = gx.w + 2;
  Kokkos::parallel_for("hpart::upsample2_backward", detail::range(gx.n * gx.c * ND * NH),
                       KOKKOS_LAMBDA(const std::int64_t r) {
                         const std::int64_t i = r % NH - 1, z = (r / NH) % ND - ed, c = (r / (NH * ND)) % gx.c,
                                            n = r / (NH * ND * gx.c);
                         const Taps<4> fz = adjoint_taps(z, f.d, gy.d), fi = adjoint_taps(i, f.h, gy.h);
                         for (std::int64_t j = -1; j < NW - 1; ++j)
                           xp[gx.at(n, c, z, i, j)] = static_cast<T>(tap_sum(gp, gy, n, c, fz, fi, adjoint_taps(j, f.w, gy.w)));
                       });
}

// The halo layers past one global edge (dim, side) of a padded view: for every padded position
// of the other two dims (count of them, per batch x channel), `src` is the edge layer and the hw
// layers from `first` on are its halo; offsets along dim are multiples of sd.
struct EdgeLayers {
  std::int64_t n1, n2, s1, s2, hw, sd, src, first, count, sc;
  KOKKOS_INLINE_FUNCTION std::int64_t base(std::int64_t r) const {
    const std::int64_t b = r % n2, a = (r / n2) % n1, nc = r / (n1 * n2);
    return nc * sc + a * s1 + b * s2;
  }
};

// Calls f(base, layers) in parallel for every column of halo cells past every global edge of
// `e` that has a halo (base: the column's start in x's storage), edge by edge in forward (dims
// 0..2, lo before hi) or reverse order.
template <class T, class F>
void for_each_edge_column(const Padded<T>& x, const Edges& e, bool reverse, const char* label, F f) {
  const Geometry g = detail::geometry(x);
  T* p = x.view.data();
  const std::int64_t P[3] = {g.d + 2 * g.hd, g.h + 2 * g.hh, g.w + 2 * g.hw};
  const std::int64_t halo[3] = {g.hd, g.hh, g.hw}, ext[3] = {g.d, g.h, g.w};
  const std::int64_t stride[3] = {g.sd, g.sh, 1};
  for (int i = 0; i < 6; ++i) {
    const int k = reverse ? 5 - i : i, dim = k / 2, side = k % 2;
    if (!(side == 0 ? e.lo[dim] : e.hi[dim]) || halo[dim] == 0) continue;
    const int o1 = dim == 0 ? 1 : 0, o2 = dim == 2 ? 1 : 2;
    const std::int64_t hw = halo[dim];
    const EdgeLayers L{P[o1], P[o2], stride[o1], stride[o2], hw, stride[dim], side == 0 ? hw : hw + ext[dim] - 1,
                       side == 0 ? 0 : hw + ext[dim], g.n * g.c * P[o1] * P[o2], g.sc};
    Kokkos::parallel_for(label, detail::range(L.count), KOKKOS_LAMBDA(const std::int64_t r) { f(p + L.base(r), L); });
  }
}

template <class T>
void replicate_edges(const Padded<T>& x, const Edges& e) {
  for_each_edge_column(x, e, false, "hpart::replicate_edges", KOKKOS_LAMBDA(T* base, const EdgeLayers& L) {
    for (std::int64_t k = 0; k < L.hw; ++k) base[(L.first + k) * L.sd] = base[L.src * L.sd];
  });
}

template <class T>
void replicate_edges_adjoint(const Padded<T>& x, const Edges& e) {
  // The transpose of the forward copies, in reverse order (later copies read earlier halos' sums).
  for_each_edge_column(x, e, true, "hpart::replicate_edges_adjoint", KOKKOS_LAMBDA(T* base, const EdgeLayers& L) {
    for (std::int64_t k = 0; k < L.hw; ++k) {
      base[L.src * L.sd] += base[(L.first + k) * L.sd];
      base[(L.first + k) * L.sd] = T(0);
    }
  });
}

#define HPART_UPSAMPLE_KERNELS(T)                                                           \
  template void upsample2_forward<T>(Upsample, int, const Padded<T>&, const Padded<T>&);    \
  template void upsample2_backward<T>(Upsample, int, const Padded<T>&, const Padded<T>&);   \
  template void replicate_edges<T>(const Padded<T>&, const Edges&);                         \
  template void replicate_edges_adjoint<T>(const Padded<T>&, const Edges&);
HPART_UPSAMPLE_KERNELS(float)
HPART_UPSAMPLE_KERNELS(double)
#undef HPART_UPSAMPLE_KERNELS

}  // namespace hpart::tensor::kernels
