// Conv forward, one thread per output cell (W fastest: neighbouring threads read neighbouring
// inputs). Weights are read through the read-only cache; no tiling: this is the reference
// device path, not a tuned one.
#include "tensor/cuda/cuda_check.hpp"
#include "hpart/tensor/cuda_kernels.hpp"

namespace hpart::tensor::cuda {

namespace {

struct Strides {
  std::int64_t sn, sc, sd, sh;
  int hd, hh, hw;
};

Strides strides(std::int64_t c, std::int64_t d, std::int64_t h, std::int64_t w, const int* halo) {
  Strides s{};
  s.hd = halo[0], s.hh = halo[1], s.hw = halo[2];
  s.sh = w + 2 * halo[2];
  s.sd = s.sh * (h + 2 * halo[1]);
  s.sc = s.sd * (d + 2 * halo[0]);
  s.sn = s.sc * c;
  return s;
}

template <class T>
__global__ void conv_forward_kernel(const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ b,
                                    T* __restrict__ y, ConvGeometry g, Strides sx, Strides sy, std::int64_t total) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= total) return;
  const std::int64_t j = t % g.w, i = (t / g.w) % g.h, z = (t / (g.w * g.h)) % g.d;
  const std::int64_t co = (t / (g.w * g.h * g.d)) % g.cout, n = t / (g.w * g.h * g.d * g.cout);
  const int kd = g.k[0], kh = g.k[1], kw = g.k[2];
  T acc = b ? __ldg(b + co) : T(0);
  for (std::int64_t ci = 0; ci < g.cin; ++ci) {
    const T* xc = x + n * sx.sn + ci * sx.sc;
    const T* wc = w + (co * g.cin + ci) * kd * kh * kw;
    for (int a = 0; a < kd; ++a)
      for (int bb = 0; bb < kh; ++bb) {
        const T* xr = xc + (z + sx.hd - kd / 2 + a) * sx.sd + (i + sx.hh - kh / 2 + bb) * sx.sh + (j + sx.hw - kw / 2);
        const T* wr = wc + (a * kh + bb) * kw;
        for (int c = 0; c < kw; ++c) acc += __ldg(wr + c) * xr[c];
      }
  }
  y[n * sy.sn + co * sy.sc + (z + sy.hd) * sy.sd + (i + sy.hh) * sy.sh + (j + sy.hw)] = acc;
}

}  // namespace

template <class T>
void conv_forward(const T* x, const T* weights, const T* bias, T* y, const ConvGeometry& g) {
  for (int a = 0; a < 3; ++a)
    if (g.k[a] < 1 || g.k[a] % 2 == 0 || g.x_halo[a] < g.k[a] / 2)
      throw Error(ErrorCode::invalid_argument, "cuda conv_forward: kernel extents must be odd and within the input halo");
  const std::int64_t total = g.n * g.cout * g.d * g.h * g.w;
  if (total == 0) return;
  const Strides sx = strides(g.cin, g.d, g.h, g.w, g.x_halo), sy = strides(g.cout, g.d, g.h, g.w, g.y_halo);
  conv_forward_kernel<T><<<detail::blocks_for(total, 128), 128>>>(x, weights, bias, y, g, sx, sy, total);
  detail::check(cudaGetLastError(), "conv_forward launch");
  detail::check(cudaDeviceSynchronize(), "conv_forward");
}

template void conv_forward<float>(const float*, const float*, const float*, float*, const ConvGeometry&);
template void conv_forward<double>(const double*, const double*, const double*, double*, const ConvGeometry&);

}  // namespace hpart::tensor::cuda
