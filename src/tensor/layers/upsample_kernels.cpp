// 2x nearest and bilinear upsampling (half-pixel centres, PyTorch's align_corners = false) and
// the edge replication that gives bilinear its clamp at global edges. Bilinear is separable:
// output o of an upsampled dim reads input o/2 with 3/4 and its neighbour towards o's side with
// 1/4, so a halo of 1 suffices; its adjoint gathers the four outputs each input cell feeds.
#include <string>

#include "tensor/layers/padded_geometry.hpp"

namespace hpart::tensor::kernels {

using detail::Factors;
using detail::factors;
using detail::Geometry;
using detail::require;

namespace {

void check_up(const Geometry& gx, const Geometry& gy, const Factors& f) {
  require(gx.n == gy.n && gx.c == gy.c, "upsample2: batch or channel extents differ");
  require(gy.d == gx.d * f.d && gy.h == gx.h * f.h && gy.w == gx.w * f.w, "upsample2: output extents are not input x 2");
}

// Taps of output o along one dim: index and weight (factor 1: the identity).
struct Taps {
  std::int64_t idx[2];
  double wt[2];
  int count;
};
KOKKOS_INLINE_FUNCTION Taps forward_taps(std::int64_t o, std::int64_t f) {
  if (f == 1) return {{o, o}, {1.0, 0.0}, 1};
  const std::int64_t i = o / 2;
  return {{i, (o % 2 == 0) ? i - 1 : i + 1}, {0.75, 0.25}, 2};
}

// Outputs that input q feeds along one dim (q may be -1 or n, the halo), clipped to [0, m).
struct Fans {
  std::int64_t idx[4];
  double wt[4];
  int count;
};
KOKKOS_INLINE_FUNCTION Fans adjoint_taps(std::int64_t q, std::int64_t f, std::int64_t m) {
  Fans r{{0, 0, 0, 0}, {0, 0, 0, 0}, 0};
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

}  // namespace

template <class T>
void upsample2_forward(Upsample kind, int spatial_dims, const Padded<T>& x, const Padded<T>& y) {
  const Factors f = factors(spatial_dims, "upsample2");
  const Geometry gx = detail::geometry(x), gy = detail::geometry(y);
  check_up(gx, gy, f);
  const bool bilinear = kind == Upsample::bilinear;
  if (bilinear)
    require(gx.hd >= f.d - 1 && gx.hh >= 1 && gx.hw >= 1, "upsample2 bilinear: the input needs a halo of 1");
  const T* xp = x.view.data();
  T* yp = y.view.data();
  Kokkos::parallel_for("hpart::upsample2_forward", detail::range(gy.rows()), KOKKOS_LAMBDA(const std::int64_t r) {
    const std::int64_t i = r % gy.h, z = (r / gy.h) % gy.d, c = (r / (gy.h * gy.d)) % gy.c,
                       n = r / (gy.h * gy.d * gy.c);
    T* yr = yp + gy.at(n, c, z, i, 0);
    if (!bilinear) {
      for (std::int64_t j = 0; j < gy.w; ++j) yr[j] = xp[gx.at(n, c, z / f.d, i / f.h, j / f.w)];
      return;
    }
    const Taps tz = forward_taps(z, f.d), ti = forward_taps(i, f.h);
    for (std::int64_t j = 0; j < gy.w; ++j) {
      const Taps tj = forward_taps(j, f.w);
      double acc = 0.0;
      for (int a = 0; a < tz.count; ++a)
        for (int b = 0; b < ti.count; ++b)
          for (int e = 0; e < tj.count; ++e)
            acc += tz.wt[a] * ti.wt[b] * tj.wt[e] *
                   static_cast<double>(xp[gx.at(n, c, tz.idx[a], ti.idx[b], tj.idx[e])]);
      yr[j] = static_cast<T>(acc);
    }
  });
}

template <class T>
void upsample2_backward(Upsample kind, int spatial_dims, const Padded<T>& dy, const Padded<T>& dx) {
  const Factors f = factors(spatial_dims, "upsample2");
  const Geometry gy = detail::geometry(dy), gx = detail::geometry(dx);
  check_up(gx, gy, f);
  const bool bilinear = kind == Upsample::bilinear;
  const T* gp = dy.view.data();
  T* xp = dx.view.data();
  if (!bilinear) {
    Kokkos::parallel_for("hpart::upsample2_backward", detail::range(gx.rows()), KOKKOS_LAMBDA(const std::int64_t r) {
      const std::int64_t i = r % gx.h, z = (r / gx.h) % gx.d, c = (r / (gx.h * gx.d)) % gx.c,
                         n = r / (gx.h * gx.d * gx.c);
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
                         const Fans fz = adjoint_taps(z, f.d, gy.d), fi = adjoint_taps(i, f.h, gy.h);
                         for (std::int64_t j = -1; j < NW - 1; ++j) {
                           const Fans fj = adjoint_taps(j, f.w, gy.w);
                           double acc = 0.0;
                           for (int a = 0; a < fz.count; ++a)
                             for (int b = 0; b < fi.count; ++b)
                               for (int e = 0; e < fj.count; ++e)
                                 acc += fz.wt[a] * fi.wt[b] * fj.wt[e] *
                                        static_cast<double>(gp[gy.at(n, c, fz.idx[a], fi.idx[b], fj.idx[e])]);
                           xp[gx.at(n, c, z, i, j)] = static_cast<T>(acc);
                         }
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

// Calls f(layers) for every global edge of `e` that has a halo, in forward (dims 0..2, lo before
// hi) or reverse order.
template <class F>
void for_each_edge(const Geometry& g, const Edges& e, bool reverse, F f) {
  const std::int64_t P[3] = {g.d + 2 * g.hd, g.h + 2 * g.hh, g.w + 2 * g.hw};
  const std::int64_t halo[3] = {g.hd, g.hh, g.hw}, ext[3] = {g.d, g.h, g.w};
  const std::int64_t stride[3] = {g.sd, g.sh, 1};
  for (int i = 0; i < 6; ++i) {
    const int k = reverse ? 5 - i : i, dim = k / 2, side = k % 2;
    if (!(side == 0 ? e.lo[dim] : e.hi[dim]) || halo[dim] == 0) continue;
    const int o1 = dim == 0 ? 1 : 0, o2 = dim == 2 ? 1 : 2;
    const std::int64_t hw = halo[dim];
    f(EdgeLayers{P[o1], P[o2], stride[o1], stride[o2], hw, stride[dim], side == 0 ? hw : hw + ext[dim] - 1,
                 side == 0 ? 0 : hw + ext[dim], g.n * g.c * P[o1] * P[o2], g.sc});
  }
}

template <class T>
void replicate_edges(const Padded<T>& x, const Edges& e) {
  T* p = x.view.data();
  for_each_edge(detail::geometry(x), e, false, [&](const EdgeLayers L) {
    Kokkos::parallel_for("hpart::replicate_edges", detail::range(L.count), KOKKOS_LAMBDA(const std::int64_t r) {
      T* base = p + L.base(r);
      for (std::int64_t k = 0; k < L.hw; ++k) base[(L.first + k) * L.sd] = base[L.src * L.sd];
    });
  });
}

template <class T>
void replicate_edges_adjoint(const Padded<T>& x, const Edges& e) {
  T* p = x.view.data();
  // The transpose of the forward copies, in reverse order (later copies read earlier halos' sums).
  for_each_edge(detail::geometry(x), e, true, [&](const EdgeLayers L) {
    Kokkos::parallel_for("hpart::replicate_edges_adjoint", detail::range(L.count), KOKKOS_LAMBDA(const std::int64_t r) {
      T* base = p + L.base(r);
      for (std::int64_t k = 0; k < L.hw; ++k) {
        base[L.src * L.sd] += base[(L.first + k) * L.sd];
        base[(L.first + k) * L.sd] = T(0);
      }
    });
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
