// The local layer kernels against plain host references and adjoint identities, without MPI:
// every backward kernel must be the exact transpose of its forward kernel over the whole padded
// array (that is what lets the halo adjoint finish the job across shards).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>
#include <vector>

#include "hpart/error.hpp"
#include "hpart/tensor/layer_kernels.hpp"
#include "hpart/tensor/optim.hpp"
#include "layers_test_support.hpp"

namespace {

namespace tk = hpart::tensor::kernels;
using hpart::testing::dot;
using hpart::testing::dot_all;
using hpart::testing::host_copy;
using hpart::testing::HostPadded;
using hpart::testing::random_padded;
using hpart::testing::random_vector;

// y = b + w (*) x read straight from the padded input (halo values as they are).
template <class T>
std::vector<double> conv_reference(const tk::Padded<T>& x, const tk::View1<T>& w, const tk::View1<T>& b,
                                   const tk::ConvShape& s) {
  const HostPadded<T> hx(x);
  const auto hw = host_copy(w), hb = host_copy(b);
  std::vector<double> y;
  for (std::int64_t n = 0; n < hx.n; ++n)
    for (std::int64_t co = 0; co < s.cout; ++co)
      for (std::int64_t z = 0; z < hx.d; ++z)
        for (std::int64_t i = 0; i < hx.h; ++i)
          for (std::int64_t j = 0; j < hx.w; ++j) {
            double acc = hb.empty() ? 0.0 : static_cast<double>(hb[static_cast<std::size_t>(co)]);
            for (std::int64_t ci = 0; ci < s.cin; ++ci)
              for (int a = 0; a < s.kd; ++a)
                for (int bb = 0; bb < s.kh; ++bb)
                  for (int c = 0; c < s.kw; ++c) {
                    const auto widx = static_cast<std::size_t>((((co * s.cin + ci) * s.kd + a) * s.kh + bb) * s.kw + c);
                    acc += static_cast<double>(hw[widx]) *
                           static_cast<double>(hx(n, ci, z - s.kd / 2 + a, i - s.kh / 2 + bb, j - s.kw / 2 + c));
                  }
            y.push_back(acc);
          }
  return y;
}

template <class T>
std::vector<double> interior(const tk::Padded<T>& p) {
  const HostPadded<T> h(p);
  std::vector<double> out;
  for (std::int64_t n = 0; n < h.n; ++n)
    for (std::int64_t c = 0; c < h.c; ++c)
      for (std::int64_t z = 0; z < h.d; ++z)
        for (std::int64_t i = 0; i < h.h; ++i)
          for (std::int64_t j = 0; j < h.w; ++j) out.push_back(static_cast<double>(h(n, c, z, i, j)));
  return out;
}

double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
  EXPECT_EQ(a.size(), b.size());
  double m = 0;
  for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) m = std::max(m, std::abs(a[k] - b[k]));
  return m;
}

struct ConvCase {
  tk::ConvShape s;
  std::int64_t n, d, h, w;
  tk::Margin halo;
};

std::vector<ConvCase> conv_cases() {
  return {
      {{2, 3, 1, 3, 3}, 2, 1, 7, 5, {0, 1, 1}},   // 2-D, exact halo
      {{1, 2, 1, 5, 3}, 1, 1, 6, 9, {0, 3, 2}},   // wider halo than needed, non-square kernel
      {{3, 2, 3, 3, 3}, 1, 4, 5, 6, {1, 1, 1}},   // 3-D
      {{2, 2, 1, 1, 1}, 1, 1, 3, 4, {0, 0, 0}},   // 1x1
  };
}

TEST(LayerKernels, ConvForwardMatchesReference) {
  for (const auto& cc : conv_cases()) {
    auto x = random_padded<double>(cc.n, cc.s.cin, cc.d, cc.h, cc.w, cc.halo, 1);
    auto w = random_vector<double>(cc.s.weight_count(), 2);
    auto b = random_vector<double>(cc.s.cout, 3);
    auto y = tk::make_padded<double>("y", cc.n, cc.s.cout, cc.d, cc.h, cc.w, {0, 1, 2});
    tk::conv_forward(x, w, b, cc.s, y);
    EXPECT_LT(max_diff(interior(y), conv_reference(x, w, b, cc.s)), 1e-12);
  }
}

TEST(LayerKernels, ConvForwardFloatMatchesDouble) {
  const tk::ConvShape s{4, 3, 1, 3, 3};
  auto xd = random_padded<double>(1, 4, 1, 9, 8, {0, 1, 1}, 5);
  auto wd = random_vector<double>(s.weight_count(), 6);
  auto bd = random_vector<double>(3, 7);
  auto xf = tk::make_padded<float>("xf", 1, 4, 1, 9, 8, {0, 1, 1});
  tk::View1<float> wf("wf", wd.extent(0)), bf("bf", 3);
  {
    auto hx = host_copy(xd.view);
    std::vector<float> f(hx.begin(), hx.end());
    hpart::testing::upload(xf.view, f);
    auto hw = host_copy(wd), hb = host_copy(bd);
    hpart::testing::upload(wf, std::vector<float>(hw.begin(), hw.end()));
    hpart::testing::upload(bf, std::vector<float>(hb.begin(), hb.end()));
  }
  auto yf = tk::make_padded<float>("yf", 1, 3, 1, 9, 8, {});
  tk::conv_forward(xf, wf, bf, s, yf);
  EXPECT_LT(max_diff(interior(yf), conv_reference(xd, wd, bd, s)), 1e-5);
}

TEST(LayerKernels, ConvBackwardDataIsTheTransposeOverThePaddedArray) {
  for (const auto& cc : conv_cases()) {
    auto x = random_padded<double>(cc.n, cc.s.cin, cc.d, cc.h, cc.w, cc.halo, 11);
    auto w = random_vector<double>(cc.s.weight_count(), 12);
    tk::View1<double> none;
    auto y = tk::make_padded<double>("y", cc.n, cc.s.cout, cc.d, cc.h, cc.w, {});
    tk::conv_forward(x, w, none, cc.s, y);
    auto g = random_padded<double>(cc.n, cc.s.cout, cc.d, cc.h, cc.w, {}, 13);
    auto dx = tk::make_padded<double>("dx", cc.n, cc.s.cin, cc.d, cc.h, cc.w, cc.halo);
    tk::conv_backward_data(g, w, cc.s, dx);
    const double lhs = dot_all(y, g), rhs = dot_all(x, dx);
    EXPECT_NEAR(lhs, rhs, 1e-12 * (1 + std::abs(lhs)));
  }
}

TEST(LayerKernels, ConvBackwardWeightsIsTheTransposeInTheWeights) {
  for (const auto& cc : conv_cases()) {
    auto x = random_padded<double>(cc.n, cc.s.cin, cc.d, cc.h, cc.w, cc.halo, 21);
    auto w = random_vector<double>(cc.s.weight_count(), 22);
    auto b = random_vector<double>(cc.s.cout, 23);
    auto y = tk::make_padded<double>("y", cc.n, cc.s.cout, cc.d, cc.h, cc.w, {});
    tk::conv_forward(x, w, b, cc.s, y);
    auto g = random_padded<double>(cc.n, cc.s.cout, cc.d, cc.h, cc.w, {}, 24);
    tk::View1<double> dw("dw", w.extent(0)), db("db", b.extent(0));
    tk::conv_backward_weights(x, g, cc.s, dw, db);
    // y is linear in (w, b): <y, g> = <w, dw> + <b, db>.
    const double lhs = dot_all(y, g), rhs = dot(w, dw) + dot(b, db);
    EXPECT_NEAR(lhs, rhs, 1e-12 * (1 + std::abs(lhs)));
  }
}

// Many weights (64 -> 64 channels, 3x3: 36,928 partial sums per block) over 1,024 rows: the
// weight gradient's partial sums are capped at 64 MiB (227 blocks of 5 rows instead of 256 of 4,
// 75 MiB) and the gradient is still the transpose.
TEST(LayerKernels, ConvBackwardWeightsWithManyWeightsCapsItsScratch) {
  const tk::ConvShape s{64, 64, 1, 3, 3};
  auto x = random_padded<double>(1, s.cin, 1, 1024, 2, {0, 1, 1}, 31);
  auto w = random_vector<double>(s.weight_count(), 32);
  auto b = random_vector<double>(s.cout, 33);
  auto y = tk::make_padded<double>("y", 1, s.cout, 1, 1024, 2, {});
  tk::conv_forward(x, w, b, s, y);
  auto g = random_padded<double>(1, s.cout, 1, 1024, 2, {}, 34);
  tk::View1<double> dw("dw", w.extent(0)), db("db", b.extent(0));
  tk::conv_backward_weights(x, g, s, dw, db);
  const double lhs = dot_all(y, g), rhs = dot(w, dw) + dot(b, db);
  EXPECT_NEAR(lhs, rhs, 1e-11 * (1 + std::abs(lhs)));
}

TEST(LayerKernels, ConvRejectsEvenKernelsAndNarrowHalos) {
  auto x = random_padded<double>(1, 1, 1, 4, 4, {0, 1, 1}, 1);
  auto y = tk::make_padded<double>("y", 1, 1, 1, 4, 4, {});
  tk::View1<double> none;
  EXPECT_THROW(tk::conv_forward(x, random_vector<double>(4, 1), none, {1, 1, 1, 2, 2}, y), hpart::Error);
  EXPECT_THROW(tk::conv_forward(x, random_vector<double>(25, 1), none, {1, 1, 1, 5, 5}, y), hpart::Error);
  EXPECT_THROW(tk::check_conv_shape({1, 1, 1, 3, 4}), hpart::Error);
}

TEST(LayerKernels, AveragePoolAndNearestUpsampleAreTransposesUpToScale) {
  for (int sd : {2, 3}) {
    const std::int64_t d = sd == 3 ? 4 : 1;
    auto x = random_padded<double>(2, 3, d, 6, 8, {sd == 3 ? 1 : 0, 1, 1}, 31);
    auto y = tk::make_padded<double>("y", 2, 3, sd == 3 ? 2 : 1, 3, 4, {});
    tk::pool2_forward(tk::Pool::average, sd, x, y);
    auto g = random_padded<double>(2, 3, sd == 3 ? 2 : 1, 3, 4, {}, 32);
    auto dx = tk::make_padded<double>("dx", 2, 3, d, 6, 8, {sd == 3 ? 1 : 0, 1, 1});
    tk::pool2_backward(tk::Pool::average, sd, x, g, dx);
    auto xi = random_padded<double>(2, 3, d, 6, 8, {sd == 3 ? 1 : 0, 1, 1}, 31, false);
    EXPECT_NEAR(dot_all(y, g), dot_all(xi, dx), 1e-12);
    // Average pooling is nearest upsampling transposed, scaled by the block size.
    auto up = tk::make_padded<double>("up", 2, 3, d, 6, 8, {});
    tk::upsample2_forward(tk::Upsample::nearest, sd, g, up);
    auto back = tk::make_padded<double>("back", 2, 3, sd == 3 ? 2 : 1, 3, 4, {});
    tk::upsample2_backward(tk::Upsample::nearest, sd, up, back);
    const double blocks = sd == 3 ? 8.0 : 4.0;
    EXPECT_NEAR(dot_all(up, up), dot_all(back, g), 1e-12);
    const auto ui = interior(up), gi = interior(g);
    EXPECT_NEAR(std::accumulate(ui.begin(), ui.end(), 0.0), blocks * std::accumulate(gi.begin(), gi.end(), 0.0), 1e-11);
  }
}

TEST(LayerKernels, MaxPoolRoutesTheGradientToTheFirstMaximum) {
  auto x = random_padded<double>(1, 2, 1, 4, 6, {}, 41);
  {  // a tie: the first maximum in scan order wins
    auto h = host_copy(x.view);
    h[0] = h[1] = 5.0;
    hpart::testing::upload(x.view, h);
  }
  auto y = tk::make_padded<double>("y", 1, 2, 1, 2, 3, {});
  tk::pool2_forward(tk::Pool::max, 2, x, y);
  auto g = random_padded<double>(1, 2, 1, 2, 3, {}, 42);
  auto dx = tk::make_padded<double>("dx", 1, 2, 1, 4, 6, {});
  tk::pool2_backward(tk::Pool::max, 2, x, g, dx);
  const HostPadded<double> hx(x), hy(y), hg(g), hd(dx);
  for (std::int64_t c = 0; c < 2; ++c)
    for (std::int64_t i = 0; i < 2; ++i)
      for (std::int64_t j = 0; j < 3; ++j) {
        double best = -1e300;
        std::int64_t bi = 0, bj = 0;
        for (std::int64_t a = 0; a < 2; ++a)
          for (std::int64_t b = 0; b < 2; ++b)
            if (hx(0, c, 0, 2 * i + a, 2 * j + b) > best) best = hx(0, c, 0, 2 * i + a, 2 * j + b), bi = a, bj = b;
        EXPECT_EQ(hy(0, c, 0, i, j), best);
        for (std::int64_t a = 0; a < 2; ++a)
          for (std::int64_t b = 0; b < 2; ++b)
            EXPECT_EQ(hd(0, c, 0, 2 * i + a, 2 * j + b), (a == bi && b == bj) ? hg(0, c, 0, i, j) : 0.0);
      }
  EXPECT_EQ(hd(0, 0, 0, 0, 0), hg(0, 0, 0, 0, 0));
  EXPECT_EQ(hd(0, 0, 0, 0, 1), 0.0);
}

// PyTorch's bilinear, align_corners = false: source s = (o + 0.5) / 2 - 0.5 clamped at the edges.
double bilinear_reference(const HostPadded<double>& x, std::int64_t n, std::int64_t c, std::int64_t oi, std::int64_t oj) {
  auto taps = [](std::int64_t o, std::int64_t len) {
    const double s = std::max(0.0, (static_cast<double>(o) + 0.5) / 2.0 - 0.5);
    const auto i0 = static_cast<std::int64_t>(std::floor(s));
    const std::int64_t i1 = std::min(i0 + 1, len - 1);
    const double f = s - static_cast<double>(i0);
    return std::tuple{i0, i1, f};
  };
  const auto [a0, a1, fa] = taps(oi, x.h);
  const auto [b0, b1, fb] = taps(oj, x.w);
  return (1 - fa) * ((1 - fb) * x(n, c, 0, a0, b0) + fb * x(n, c, 0, a0, b1)) +
         fa * ((1 - fb) * x(n, c, 0, a1, b0) + fb * x(n, c, 0, a1, b1));
}

TEST(LayerKernels, BilinearUpsampleMatchesPyTorchWithReplicatedEdges) {
  auto x = random_padded<double>(1, 2, 1, 5, 4, {0, 1, 1}, 51, false);
  tk::Edges all;
  for (int k = 0; k < 3; ++k) all.lo[k] = all.hi[k] = true;
  tk::replicate_edges(x, all);
  auto y = tk::make_padded<double>("y", 1, 2, 1, 10, 8, {});
  tk::upsample2_forward(tk::Upsample::bilinear, 2, x, y);
  const HostPadded<double> hx(x), hy(y);
  double m = 0;
  for (std::int64_t c = 0; c < 2; ++c)
    for (std::int64_t i = 0; i < 10; ++i)
      for (std::int64_t j = 0; j < 8; ++j) m = std::max(m, std::abs(hy(0, c, 0, i, j) - bilinear_reference(hx, 0, c, i, j)));
  EXPECT_LT(m, 1e-14);
}

TEST(LayerKernels, BilinearUpsampleBackwardIsTheTransposeOverInteriorAndRing) {
  for (int sd : {2, 3}) {
    const std::int64_t d = sd == 3 ? 3 : 1;
    const tk::Margin halo{sd == 3 ? 1 : 0, 1, 1};
    auto x = random_padded<double>(1, 2, d, 4, 3, halo, 61);
    auto y = tk::make_padded<double>("y", 1, 2, d * (sd == 3 ? 2 : 1), 8, 6, {});
    tk::upsample2_forward(tk::Upsample::bilinear, sd, x, y);
    auto g = random_padded<double>(1, 2, d * (sd == 3 ? 2 : 1), 8, 6, {}, 62);
    auto dx = tk::make_padded<double>("dx", 1, 2, d, 4, 3, halo);
    tk::upsample2_backward(tk::Upsample::bilinear, sd, g, dx);
    EXPECT_NEAR(dot_all(y, g), dot_all(x, dx), 1e-12);
  }
}

TEST(LayerKernels, ReplicateEdgesAdjointIsTheTranspose) {
  auto x = random_padded<double>(1, 2, 3, 4, 5, {1, 2, 1}, 71);
  auto y = random_padded<double>(1, 2, 3, 4, 5, {1, 2, 1}, 72);
  auto rx = random_padded<double>(1, 2, 3, 4, 5, {1, 2, 1}, 71);
  tk::Edges e;
  e.lo[0] = e.hi[1] = e.lo[2] = e.hi[2] = true;
  tk::replicate_edges(rx, e);
  const double lhs = dot_all(rx, y);
  tk::replicate_edges_adjoint(y, e);
  EXPECT_NEAR(lhs, dot_all(x, y), 1e-12);
}

// Group norm on one shard holding everything: statistics straight from the local sums.
struct GroupNormRun {
  tk::Padded<double> y;
  tk::View1<double> mean, rstd;
};
GroupNormRun group_norm(const tk::Padded<double>& x, int groups, const tk::View1<double>& gamma,
                        const tk::View1<double>& beta, double eps) {
  const auto ng = static_cast<std::size_t>(x.n() * groups);
  tk::View1<double> sum("sum", ng), sq("sq", ng), mean("mean", ng), rstd("rstd", ng);
  const double count = static_cast<double>(x.c() / groups * x.d() * x.h() * x.w());
  tk::group_sums(x, groups, sum);
  auto hs = host_copy(sum);
  for (auto& v : hs) v /= count;
  hpart::testing::upload(mean, hs);
  tk::group_centered_squares(x, groups, mean, sq);
  auto hq = host_copy(sq);
  for (auto& v : hq) v = 1.0 / std::sqrt(v / count + eps);
  hpart::testing::upload(rstd, hq);
  auto y = tk::make_padded<double>("y", x.n(), x.c(), x.d(), x.h(), x.w(), {});
  tk::group_norm_apply(x, groups, mean, rstd, gamma, beta, y);
  return {y, mean, rstd};
}

TEST(LayerKernels, GroupNormGradientsMatchFiniteDifferences) {
  const int groups = 2;
  auto x = random_padded<double>(2, 4, 2, 3, 3, {1, 1, 1}, 81);
  auto gamma = random_vector<double>(4, 82), beta = random_vector<double>(4, 83);
  auto g = random_padded<double>(2, 4, 2, 3, 3, {}, 84);
  const double eps = 1e-5;
  auto run = group_norm(x, groups, gamma, beta, eps);
  {  // normalised groups: mean 0, variance 1 before the affine part (gamma 1, beta 0)
    tk::View1<double> one("one", 4), zero("zero", 4);
    Kokkos::deep_copy(one, 1.0);
    auto plain = group_norm(x, groups, one, zero, 0.0);
    const auto yi = interior(plain.y);
    double s = 0, s2 = 0;
    for (std::size_t k = 0; k < 36; ++k) s += yi[k], s2 += yi[k] * yi[k];  // sample 0, group 0
    EXPECT_NEAR(s, 0.0, 1e-12);
    EXPECT_NEAR(s2 / 36, 1.0, 1e-12);
  }
  tk::View1<double> sum_g("sg", 4), sum_gx("sgx", 4), dgamma("dga", 4), dbeta("dbe", 4);
  tk::group_norm_backward_sums(x, g, groups, run.mean, run.rstd, gamma, sum_g, sum_gx, dgamma, dbeta);
  auto dx = tk::make_padded<double>("dx", 2, 4, 2, 3, 3, {});
  tk::group_norm_backward_apply(x, g, groups, 36.0, run.mean, run.rstd, gamma, sum_g, sum_gx, dx);
  auto loss = [&](const tk::Padded<double>& xx, const tk::View1<double>& ga, const tk::View1<double>& be) {
    return dot_all(group_norm(xx, groups, ga, be, eps).y, g);
  };
  const double h = 1e-6;
  const HostPadded<double> hdx(dx);
  for (std::int64_t probe : {0, 7, 40, 71}) {
    const std::int64_t n = probe / 36, c = (probe / 9) % 4, i = (probe / 3) % 3, j = probe % 3;
    auto xp = random_padded<double>(2, 4, 2, 3, 3, {1, 1, 1}, 81), xm = random_padded<double>(2, 4, 2, 3, 3, {1, 1, 1}, 81);
    HostPadded<double> hp(xp), hm(xm);
    hp(n, c, 1, i, j) += h;
    hm(n, c, 1, i, j) -= h;
    hpart::testing::upload(xp.view, hp.v);
    hpart::testing::upload(xm.view, hm.v);
    EXPECT_NEAR((loss(xp, gamma, beta) - loss(xm, gamma, beta)) / (2 * h), hdx(n, c, 1, i, j), 1e-7);
  }
  const auto hga = host_copy(gamma), hdga = host_copy(dgamma), hdbe = host_copy(dbeta);
  for (std::size_t c = 0; c < 4; ++c) {
    auto gp = hga, gm = hga;
    gp[c] += h, gm[c] -= h;
    tk::View1<double> vp("gp", 4), vm("gm", 4);
    hpart::testing::upload(vp, gp);
    hpart::testing::upload(vm, gm);
    EXPECT_NEAR((loss(x, vp, beta) - loss(x, vm, beta)) / (2 * h), hdga[c], 1e-7);
  }
  const auto gi = interior(g);
  for (std::size_t c = 0; c < 4; ++c) {
    double s = 0;
    for (std::size_t n = 0; n < 2; ++n)
      for (std::size_t k = 0; k < 18; ++k) s += gi[n * 72 + c * 18 + k];
    EXPECT_NEAR(hdbe[c], s, 1e-12);
  }
}

TEST(LayerKernels, ActivationDerivativesMatchFiniteDifferences) {
  for (auto act : {tk::Activation::relu, tk::Activation::gelu}) {
    auto x = random_padded<double>(1, 2, 1, 3, 4, {0, 1, 1}, 91);
    auto g = random_padded<double>(1, 2, 1, 3, 4, {0, 1, 1}, 92);
    auto dx = tk::make_padded<double>("dx", 1, 2, 1, 3, 4, {0, 1, 1});
    tk::activation_backward(act, x, g, dx);
    const auto xi = interior(x), gi = interior(g), di = interior(dx);
    auto f = [&](double v) {
      auto p = tk::make_padded<double>("p", 1, 1, 1, 1, 1, {});
      Kokkos::deep_copy(p.view, v);
      tk::activation_forward(act, p, p);
      return host_copy(p.view)[0];
    };
    for (std::size_t k = 0; k < xi.size(); ++k)
      EXPECT_NEAR(di[k], gi[k] * (f(xi[k] + 1e-6) - f(xi[k] - 1e-6)) / 2e-6, 1e-7);
    EXPECT_NEAR(f(1.0), act == tk::Activation::gelu ? 0.8413447460685429 : 1.0, 1e-15);
    EXPECT_EQ(f(-1.0) == 0.0, act == tk::Activation::relu);
  }
}

TEST(LayerKernels, SquaredErrorAndItsGradient) {
  auto y = random_padded<double>(1, 2, 1, 3, 4, {0, 1, 1}, 101);
  auto t = random_padded<double>(1, 2, 1, 3, 4, {}, 102);
  const auto yi = interior(y), ti = interior(t);
  double s = 0;
  for (std::size_t k = 0; k < yi.size(); ++k) s += (yi[k] - ti[k]) * (yi[k] - ti[k]);
  EXPECT_NEAR(tk::squared_error_sum(y, t), s, 1e-13);
  auto dy = tk::make_padded<double>("dy", 1, 2, 1, 3, 4, {});
  tk::squared_error_gradient(y, t, 0.5, dy);
  const auto di = interior(dy);
  for (std::size_t k = 0; k < yi.size(); ++k) EXPECT_DOUBLE_EQ(di[k], 0.5 * (yi[k] - ti[k]));
}

TEST(LayerKernels, SgdAndAdamSteps) {
  tk::View1<double> p("p", 2), g("g", 2);
  hpart::testing::upload(p, std::vector<double>{1.0, -2.0});
  hpart::testing::upload(g, std::vector<double>{0.5, -0.25});
  hpart::tensor::Sgd<double> sgd({.lr = 0.1, .momentum = 0.9});
  sgd.step({{p, g}});
  sgd.step({{p, g}});
  auto hp = host_copy(p);
  EXPECT_NEAR(hp[0], 1.0 - 0.1 * 0.5 - 0.1 * (0.9 * 0.5 + 0.5), 1e-15);
  EXPECT_NEAR(hp[1], -2.0 + 0.1 * 0.25 + 0.1 * (0.9 * 0.25 + 0.25), 1e-15);
  hpart::testing::upload(p, std::vector<double>{1.0, -2.0});
  hpart::tensor::Adam<double> adam({.lr = 0.01});
  adam.step({{p, g}});
  hp = host_copy(p);
  // The first Adam step moves every parameter by lr against the gradient's sign.
  EXPECT_NEAR(hp[0], 1.0 - 0.01, 1e-9);
  EXPECT_NEAR(hp[1], -2.0 + 0.01, 1e-9);
  tk::View1<double> other("o", 3);
  EXPECT_THROW(adam.step({{p, other}}), hpart::Error);
}

TEST(LayerKernels, EmptyShardsAreNoOps) {
  tk::Padded<double> x{tk::View5<double>("x", 0, 0, 0, 0, 0), {0, 1, 1}};
  tk::Padded<double> y{tk::View5<double>("y", 0, 0, 0, 0, 0), {}};
  auto w = random_vector<double>(2 * 3 * 9, 1), b = random_vector<double>(3, 2);
  const tk::ConvShape s{2, 3, 1, 3, 3};
  tk::conv_forward(x, w, b, s, y);
  tk::conv_backward_data(y, w, s, x);
  tk::conv_backward_weights(x, y, s, w, b);
  EXPECT_EQ(dot(w, w), 0.0);
  EXPECT_EQ(tk::squared_error_sum(y, y), 0.0);
}

// Issue 20: the group norm kernels refused an empty shard (C = 0 there against gamma's C
// entries), on that rank only. An empty shard normalises nothing and adds zero partial sums.
TEST(LayerKernels, GroupNormKernelsAcceptAnEmptyShard) {
  tk::Padded<double> x{tk::View5<double>("x", 0, 0, 0, 0, 0), {0, 1, 1}};
  tk::Padded<double> y{tk::View5<double>("y", 0, 0, 0, 0, 0), {}};
  const int groups = 2;
  tk::View1<double> none("none", 0);  // n * groups statistics: none here
  auto gamma = random_vector<double>(4, 1), beta = random_vector<double>(4, 2);
  auto dgamma = random_vector<double>(4, 3), dbeta = random_vector<double>(4, 4);  // stale values
  EXPECT_NO_THROW(tk::group_sums(x, groups, none));
  EXPECT_NO_THROW(tk::group_centered_squares(x, groups, none, none));
  EXPECT_NO_THROW(tk::group_norm_apply(x, groups, none, none, gamma, beta, y));
  EXPECT_NO_THROW(tk::group_norm_backward_sums(x, y, groups, none, none, gamma, none, none, dgamma, dbeta));
  EXPECT_EQ(dot(dgamma, dgamma), 0.0);  // zero partial sums, not the stale ones
  EXPECT_EQ(dot(dbeta, dbeta), 0.0);
  EXPECT_NO_THROW(tk::group_norm_backward_apply(x, y, groups, 36.0, none, none, gamma, none, none, y));
}

}  // namespace
