#pragma once
// Local (one-shard, no MPI) kernels of the CNN layers, on the padded storage of a shard: a 5-D
// LayoutRight view (N, C, D + 2hd, H + 2hh, W + 2hw) whose interior starts at (hd, hh, hw). A 2-D
// field has D = 1 and hd = 0, so each kernel is written once for 3-D. Kernels run on the default
// Kokkos execution space and touch memory only through views (portable to OpenMP/CUDA builds);
// they leave halos alone unless they say otherwise. The sharded layers (layers.hpp) call these
// between halo exchanges and all-reduces; the MPI-free tests call them directly.
//
// Conventions shared with PyTorch so results can be checked against it: conv is
// cross-correlation with weights (C_out, C_in, KD, KH, KW) flattened row-major; bilinear upsample
// uses half-pixel centres (align_corners = false) and clamps at the global edge, i.e. it reads
// edge-replicated halos.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace hpart::tensor::kernels {

using MemorySpace = Kokkos::DefaultExecutionSpace::memory_space;
template <class T>
using View5 = Kokkos::View<T*****, Kokkos::LayoutRight, MemorySpace>;
template <class T>
using View1 = Kokkos::View<T*, MemorySpace>;

struct Margin {
  int d = 0, h = 0, w = 0;
};

// A shard's padded storage and its halo widths; interior extents are derived.
template <class T>
struct Padded {
  View5<T> view;
  Margin halo;

  // An empty shard (a view of extent 0) has all interior extents 0.
  [[nodiscard]] bool empty() const { return view.size() == 0; }
  [[nodiscard]] std::int64_t n() const { return empty() ? 0 : static_cast<std::int64_t>(view.extent(0)); }
  [[nodiscard]] std::int64_t c() const { return empty() ? 0 : static_cast<std::int64_t>(view.extent(1)); }
  [[nodiscard]] std::int64_t d() const { return empty() ? 0 : static_cast<std::int64_t>(view.extent(2)) - 2 * halo.d; }
  [[nodiscard]] std::int64_t h() const { return empty() ? 0 : static_cast<std::int64_t>(view.extent(3)) - 2 * halo.h; }
  [[nodiscard]] std::int64_t w() const { return empty() ? 0 : static_cast<std::int64_t>(view.extent(4)) - 2 * halo.w; }
};

// Allocates zeroed padded storage.
template <class T>
Padded<T> make_padded(const char* label, std::int64_t n, std::int64_t c, std::int64_t d, std::int64_t h,
                      std::int64_t w, Margin halo) {
  auto e = [](std::int64_t v) { return static_cast<std::size_t>(v); };
  return {View5<T>(std::string(label), e(n), e(c), e(d + 2 * halo.d), e(h + 2 * halo.h), e(w + 2 * halo.w)), halo};
}

struct ConvShape {
  int cin = 1, cout = 1;
  int kd = 1, kh = 3, kw = 3;  // odd; kd = 1 for 2-D
  [[nodiscard]] std::int64_t weight_count() const {
    return std::int64_t{cout} * cin * kd * kh * kw;
  }
};

// Throws hpart::Error(invalid_argument) unless the kernel extents are odd and >= 1.
void check_conv_shape(const ConvShape& s);

// y = b + w (*) x on y's interior. x's halo must be at least k/2 per dim and hold the
// neighbours' values (or zeros at a zero-padded global edge); y's interior matches x's.
// `b` may be an empty view (no bias).
template <class T>
void conv_forward(const Padded<T>& x, const View1<T>& w, const View1<T>& b, const ConvShape& s,
                  const Padded<T>& y);

// A box of the interior, half-open per dim (D, H, W), for work on part of a shard.
struct Region3 {
  std::int64_t lo[3] = {0, 0, 0};
  std::int64_t hi[3] = {0, 0, 0};
};
// conv_forward on the output cells of `region` only: the halo-free core of a shard can be
// convolved while its halo exchange is in flight, the rim after it lands.
template <class T>
void conv_forward_region(const Padded<T>& x, const View1<T>& w, const View1<T>& b, const ConvShape& s,
                         const Padded<T>& y, const Region3& region);

// dx over x's whole padded storage (interior and halo, halo width as in the forward call):
// the halo part is what the halo adjoint sends back to the owners. Overwrites dx.
template <class T>
void conv_backward_data(const Padded<T>& dy, const View1<T>& w, const ConvShape& s, const Padded<T>& dx);

// dw = sum over the local interior of dy x-shifted; db = sum of dy (db may be empty).
// Overwrites dw/db with this shard's partial sums; the sharded layer all-reduces them.
template <class T>
void conv_backward_weights(const Padded<T>& x, const Padded<T>& dy, const ConvShape& s, const View1<T>& dw,
                           const View1<T>& db);

// Pooling and upsampling by 2 in the last `spatial_dims` dims (2: H, W; 3: D, H, W).
enum class Pool { average, max };
template <class T>
void pool2_forward(Pool kind, int spatial_dims, const Padded<T>& x, const Padded<T>& y);
// Overwrites dx's interior. Max pooling routes to the first maximum in scan order (recomputed from x).
template <class T>
void pool2_backward(Pool kind, int spatial_dims, const Padded<T>& x, const Padded<T>& dy, const Padded<T>& dx);

enum class Upsample { nearest, bilinear };
// Bilinear reads x's halo of 1 in each upsampled dim (neighbours' values, or edge copies at a
// global edge: see replicate_edges).
template <class T>
void upsample2_forward(Upsample kind, int spatial_dims, const Padded<T>& x, const Padded<T>& y);
// Nearest: overwrites dx's interior. Bilinear: overwrites dx's interior and its halo of 1 (the
// part that goes back to the owners through the halo adjoint).
template <class T>
void upsample2_backward(Upsample kind, int spatial_dims, const Padded<T>& dy, const Padded<T>& dx);

// Which global edges a shard touches, per padded dim (0: D, 1: H, 2: W).
struct Edges {
  bool lo[3] = {false, false, false};
  bool hi[3] = {false, false, false};
};
// Fills the halo at global edges with copies of the edge layer (dims in order D, H, W, each over
// the full padded extent of the others, so corners are right). replicate_edges_adjoint adds those
// halo values back into the edge layer and zeroes them (the reverse order).
template <class T>
void replicate_edges(const Padded<T>& x, const Edges& e);
template <class T>
void replicate_edges_adjoint(const Padded<T>& g, const Edges& e);

// Group norm, split where the statistics must be all-reduced. Sums are per (n, group), as
// double views of extent n * groups, group-major within a sample: index n * groups + g.
template <class T>
void group_sums(const Padded<T>& x, int groups, const View1<double>& sum);
template <class T>
void group_centered_squares(const Padded<T>& x, int groups, const View1<double>& mean, const View1<double>& sq);
// y = (x - mean) * rstd * gamma[c] + beta[c] on the interior.
template <class T>
void group_norm_apply(const Padded<T>& x, int groups, const View1<double>& mean, const View1<double>& rstd,
                      const View1<T>& gamma, const View1<T>& beta, const Padded<T>& y);
// Local partial sums of the backward pass: per (n, group) sum(g) and sum(g xhat) with
// g = dy gamma; per channel dgamma = sum(dy xhat), dbeta = sum(dy) (overwritten).
template <class T>
void group_norm_backward_sums(const Padded<T>& x, const Padded<T>& dy, int groups, const View1<double>& mean,
                              const View1<double>& rstd, const View1<T>& gamma, const View1<double>& sum_g,
                              const View1<double>& sum_gx, const View1<T>& dgamma, const View1<T>& dbeta);
// dx = rstd (g - mean(g) - xhat mean(g xhat)), the means over `count` elements per group.
template <class T>
void group_norm_backward_apply(const Padded<T>& x, const Padded<T>& dy, int groups, double count,
                               const View1<double>& mean, const View1<double>& rstd, const View1<T>& gamma,
                               const View1<double>& sum_g, const View1<double>& sum_gx, const Padded<T>& dx);

enum class Activation { relu, gelu };
// On the interior; y may be x (in place).
template <class T>
void activation_forward(Activation a, const Padded<T>& x, const Padded<T>& y);
// dx = dy f'(x) on the interior; dx may be dy.
template <class T>
void activation_backward(Activation a, const Padded<T>& x, const Padded<T>& dy, const Padded<T>& dx);

// sum over the interior of (y - t)^2, and dy = scale (y - t) (scale = 2 / global count).
template <class T>
double squared_error_sum(const Padded<T>& y, const Padded<T>& t);
template <class T>
void squared_error_gradient(const Padded<T>& y, const Padded<T>& t, double scale, const Padded<T>& dy);

// Fills the whole padded storage (interior and halo) with zero.
template <class T>
void fill_zero(const Padded<T>& x);
// Sum of x over the interior (tests, checksums).
template <class T>
double interior_sum(const Padded<T>& x);

}  // namespace hpart::tensor::kernels
