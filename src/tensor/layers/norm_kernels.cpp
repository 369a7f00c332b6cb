// Group norm pieces between the all-reduces: per (sample, group) sums over this shard's interior
// (one work item per (n, g), serial inner loops: deterministic for any thread count), the
// normalisation, and the backward pass as local sums plus an apply step.
#include <string>

#include "tensor/layers/padded_geometry.hpp"

namespace hpart::tensor::kernels {

namespace {

void check_groups(const Geometry& g, int groups) {
  require(groups >= 1 && g.c % groups == 0, "group_norm: " + std::to_string(groups) + " groups do not divide " +
                                                std::to_string(g.c) + " channels");
}

void check_stats(const Geometry& g, int groups, const View1<double>& v, const char* name) {
  require(static_cast<std::int64_t>(v.extent(0)) == g.n * groups,
          std::string("group_norm: ") + name + " must have n * groups entries");
}

}  // namespace

template <class T>
void group_sums(const Padded<T>& x, int groups, const View1<double>& sum) {
  const Geometry g = detail::geometry(x);
  check_groups(g, groups);
  check_stats(g, groups, sum, "sum");
  const T* p = x.view.data();
  const std::int64_t G = groups, cpg = g.c / G;
  Kokkos::parallel_for("hpart::group_sums", detail::range(g.n * G), KOKKOS_LAMBDA(const std::int64_t ng) {
    const std::int64_t n = ng / G, c0 = (ng % G) * cpg;
    double acc = 0.0;
    for (std::int64_t c = c0; c < c0 + cpg; ++c)
      for (std::int64_t z = 0; z < g.d; ++z)
        for (std::int64_t i = 0; i < g.h; ++i) {
          const T* r = p + g.at(n, c, z, i, 0);
          for (std::int64_t j = 0; j < g.w; ++j) acc += static_cast<double>(r[j]);
        }
    sum(ng) = acc;
  });
}

template <class T>
void group_centered_squares(const Padded<T>& x, int groups, const View1<double>& mean, const View1<double>& sq) {
  const Geometry g = detail::geometry(x);
  check_groups(g, groups);
  check_stats(g, groups, mean, "mean");
  check_stats(g, groups, sq, "sq");
  const T* p = x.view.data();
  const std::int64_t G = groups, cpg = g.c / G;
  Kokkos::parallel_for("hpart::group_centered_squares", detail::range(g.n * G), KOKKOS_LAMBDA(const std::int64_t ng) {
    const std::int64_t n = ng / G, c0 = (ng % G) * cpg;
    const double m = mean(ng);
    double acc = 0.0;
    for (std::int64_t c = c0; c < c0 + cpg; ++c)
      for (std::int64_t z = 0; z < g.d; ++z)
        for (std::int64_t i = 0; i < g.h; ++i) {
          const T* r = p + g.at(n, c, z, i, 0);
          for (std::int64_t j = 0; j < g.w; ++j) {
            const double v = static_cast<double>(r[j]) - m;
            acc += v * v;
          }
        }
    sq(ng) = acc;
  });
}

template <class T>
void group_norm_apply(const Padded<T>& x, int groups, const View1<double>& mean, const View1<double>& rstd,
                      const View1<T>& gamma, const View1<T>& beta, const Padded<T>& y) {
  const Geometry g = detail::geometry(x), gy = detail::geometry(y);
  check_groups(g, groups);
  check_stats(g, groups, mean, "mean");
  check_stats(g, groups, rstd, "rstd");
  // An empty shard (no cells, C = 0 here) is valid: it has nothing to normalise.
  require(x.empty() || (static_cast<std::int64_t>(gamma.extent(0)) == g.c && static_cast<std::int64_t>(beta.extent(0)) == g.c),
          "group_norm: gamma and beta must have C entries");
  require(gy.n == g.n && gy.c == g.c && gy.d == g.d && gy.h == g.h && gy.w == g.w, "group_norm: y and x interiors differ");
  const T* p = x.view.data();
  T* q = y.view.data();
  const std::int64_t G = groups, cpg = g.c / G;
  Kokkos::parallel_for("hpart::group_norm_apply", detail::range(g.rows()), KOKKOS_LAMBDA(const std::int64_t r) {
    const auto [n, c, z, i] = g.row(r);
    const std::int64_t ng = n * G + c / cpg;
    const double m = mean(ng), s = rstd(ng), ga = static_cast<double>(gamma(c)), be = static_cast<double>(beta(c));
    const T* xr = p + g.at(n, c, z, i, 0);
    T* yr = q + gy.at(n, c, z, i, 0);
    for (std::int64_t j = 0; j < g.w; ++j) yr[j] = static_cast<T>((static_cast<double>(xr[j]) - m) * s * ga + be);
  });
}

template <class T>
void group_norm_backward_sums(const Padded<T>& x, const Padded<T>& dy, int groups, const View1<double>& mean,
                              const View1<double>& rstd, const View1<T>& gamma, const View1<double>& sum_g,
                              const View1<double>& sum_gx, const View1<T>& dgamma, const View1<T>& dbeta) {
  const Geometry g = detail::geometry(x), gg = detail::geometry(dy);
  check_groups(g, groups);
  check_stats(g, groups, sum_g, "sum_g");
  check_stats(g, groups, sum_gx, "sum_gx");
  require(gg.n == g.n && gg.c == g.c && gg.d == g.d && gg.h == g.h && gg.w == g.w, "group_norm: dy and x interiors differ");
  if (x.empty()) {
    // An empty shard contributes nothing: zero partial sums (the layer all-reduces them).
    require(dgamma.extent(0) == dbeta.extent(0), "group_norm: dgamma and dbeta must have C entries");
    Kokkos::deep_copy(dgamma, T(0));
    Kokkos::deep_copy(dbeta, T(0));
    return;
  }
  require(static_cast<std::int64_t>(dgamma.extent(0)) == g.c && static_cast<std::int64_t>(dbeta.extent(0)) == g.c,
          "group_norm: dgamma and dbeta must have C entries");
  const T* xp = x.view.data();
  const T* gp = dy.view.data();
  const std::int64_t G = groups, cpg = g.c / G, N = g.n;
  Kokkos::parallel_for("hpart::group_norm_backward_sums", detail::range(g.c), KOKKOS_LAMBDA(const std::int64_t c) {
    double dga = 0.0, dbe = 0.0;
    for (std::int64_t n = 0; n < N; ++n) {
      const std::int64_t ng = n * G + c / cpg;
      const double m = mean(ng), s = rstd(ng);
      for (std::int64_t z = 0; z < g.d; ++z)
        for (std::int64_t i = 0; i < g.h; ++i) {
          const T* xr = xp + g.at(n, c, z, i, 0);
          const T* gr = gp + gg.at(n, c, z, i, 0);
          for (std::int64_t j = 0; j < g.w; ++j) {
            const double d = static_cast<double>(gr[j]);
            dga += d * (static_cast<double>(xr[j]) - m) * s;
            dbe += d;
          }
        }
    }
    dgamma(c) = static_cast<T>(dga);
    dbeta(c) = static_cast<T>(dbe);
  });
  Kokkos::parallel_for("hpart::group_norm_backward_group_sums", detail::range(N * G), KOKKOS_LAMBDA(const std::int64_t ng) {
    const std::int64_t n = ng / G, c0 = (ng % G) * cpg;
    const double m = mean(ng), s = rstd(ng);
    double a = 0.0, b = 0.0;
    for (std::int64_t c = c0; c < c0 + cpg; ++c) {
      const double ga = static_cast<double>(gamma(c));
      for (std::int64_t z = 0; z < g.d; ++z)
        for (std::int64_t i = 0; i < g.h; ++i) {
          const T* xr = xp + g.at(n, c, z, i, 0);
          const T* gr = gp + gg.at(n, c, z, i, 0);
          for (std::int64_t j = 0; j < g.w; ++j) {
            const double gv = static_cast<double>(gr[j]) * ga;
            a += gv;
            b += gv * (static_cast<double>(xr[j]) - m) * s;
          }
        }
    }
    sum_g(ng) = a;
    sum_gx(ng) = b;
  });
}

template <class T>
void group_norm_backward_apply(const Padded<T>& x, const Padded<T>& dy, int groups, double count,
                               const View1<double>& mean, const View1<double>& rstd, const View1<T>& gamma,
                               const View1<double>& sum_g, const View1<double>& sum_gx, const Padded<T>& dx) {
  const Geometry g = detail::geometry(x), gg = detail::geometry(dy), gd = detail::geometry(dx);
  check_groups(g, groups);
  require(count > 0, "group_norm: empty group");
  require(gd.n == g.n && gd.c == g.c && gd.d == g.d && gd.h == g.h && gd.w == g.w, "group_norm: dx and x interiors differ");
  const T* xp = x.view.data();
  const T* gp = dy.view.data();
  T* dp = dx.view.data();
  const std::int64_t G = groups, cpg = g.c / G;
  const double inv = 1.0 / count;
  Kokkos::parallel_for("hpart::group_norm_backward_apply", detail::range(g.rows()), KOKKOS_LAMBDA(const std::int64_t r) {
    const auto [n, c, z, i] = g.row(r);
    const std::int64_t ng = n * G + c / cpg;
    const double m = mean(ng), s = rstd(ng), ga = static_cast<double>(gamma(c));
    const double mg = sum_g(ng) * inv, mgx = sum_gx(ng) * inv;
    const T* xr = xp + g.at(n, c, z, i, 0);
    const T* gr = gp + gg.at(n, c, z, i, 0);
    T* dr = dp + gd.at(n, c, z, i, 0);
    for (std::int64_t j = 0; j < g.w; ++j) {
      const double xh = (static_cast<double>(xr[j]) - m) * s;
      dr[j] = static_cast<T>(s * (static_cast<double>(gr[j]) * ga - mg - xh * mgx));
    }
  });
}

#define HPART_NORM_KERNELS(T)                                                                                     \
  template void group_sums<T>(const Padded<T>&, int, const View1<double>&);                                       \
  template void group_centered_squares<T>(const Padded<T>&, int, const View1<double>&, const View1<double>&);    \
  template void group_norm_apply<T>(const Padded<T>&, int, const View1<double>&, const View1<double>&,           \
                                    const View1<T>&, const View1<T>&, const Padded<T>&);                          \
  template void group_norm_backward_sums<T>(const Padded<T>&, const Padded<T>&, int, const View1<double>&,       \
                                            const View1<double>&, const View1<T>&, const View1<double>&,        \
                                            const View1<double>&, const View1<T>&, const View1<T>&);             \
  template void group_norm_backward_apply<T>(const Padded<T>&, const Padded<T>&, int, double,                    \
                                             const View1<double>&, const View1<double>&, const View1<T>&,        \
                                             const View1<double>&, const View1<double>&, const Padded<T>&);
HPART_NORM_KERNELS(float)
HPART_NORM_KERNELS(double)
#undef HPART_NORM_KERNELS

}  // namespace hpart::tensor::kernels
