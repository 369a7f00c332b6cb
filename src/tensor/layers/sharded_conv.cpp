// Sharded convolution: halo exchange + local conv forward; local transpose over the padded
// gradient + halo adjoint + all-reduced weight gradients backward.
#include <algorithm>
#include <cmath>
#include <string>

#include "hpart/tensor/layers.hpp"
#include "layer_support.hpp"

namespace hpart::tensor {

template <class T>
Conv<T>::Conv(const ConvShape& shape, bool with_bias, std::uint64_t seed) : shape_(shape) {
  kernels::check_conv_shape(shape);
  const auto nw = static_cast<std::size_t>(shape.weight_count());
  weight = kernels::View1<T>("hpart::Conv::weight", nw);
  weight_grad = kernels::View1<T>("hpart::Conv::weight_grad", nw);
  if (with_bias) {
    bias = kernels::View1<T>("hpart::Conv::bias", static_cast<std::size_t>(shape.cout));
    bias_grad = kernels::View1<T>("hpart::Conv::bias_grad", static_cast<std::size_t>(shape.cout));
  }
  const double bound = 1.0 / std::sqrt(static_cast<double>(shape.cin * shape.kd * shape.kh * shape.kw));
  std::vector<T> w(nw);
  for (std::size_t k = 0; k < nw; ++k) w[k] = static_cast<T>(detail_layers::uniform_at(seed, k, bound));
  detail_layers::from_host(weight, w);
}

template <class T>
void Conv<T>::prepare(const ShardTensor<T>& x) {
  if (in_layout_.valid() && x.layout() == in_layout_ && x.halo() == in_halo_) return;
  const TensorShape& s = x.layout().shape();
  std::string problem;
  const int k[3] = {shape_.kd, shape_.kh, shape_.kw};
  const int axes[3] = {kAxisD, kAxisH, kAxisW};
  const char* names[3] = {"D", "H", "W"};
  if (s.extent[kAxisC] != shape_.cin)
    problem = "conv: the input has " + std::to_string(s.extent[kAxisC]) + " channels, the layer expects " +
              std::to_string(shape_.cin);
  else if (s.spatial_dims == 2 && shape_.kd != 1)
    problem = "conv: a 2-D tensor needs kernel depth 1 (got " + std::to_string(shape_.kd) + ")";
  for (int d = 0; d < 3 && problem.empty(); ++d) {
    const std::int64_t n = s.extent[static_cast<std::size_t>(axes[d])];
    if (k[d] > n)
      problem = "conv: kernel extent " + std::to_string(k[d]) + " along " + names[d] + " is larger than the domain (" +
                std::to_string(n) + " cells)";
    else if (x.halo().along(axes[d]) < k[d] / 2)
      problem = std::string("conv: the input halo along ") + names[d] + " (" + std::to_string(x.halo().along(axes[d])) +
                ") is narrower than the kernel radius " + std::to_string(k[d] / 2) + ": make x with that halo";
  }
  x.layout().comm().agree(problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);
  out_layout_ = derived_layout(x.layout(), shape_.cout);
  in_layout_ = x.layout();
  in_halo_ = x.halo();
  exchange_ = std::make_unique<HaloExchange<T>>(x);
}

template <class T>
ShardTensor<T> Conv<T>::make_output(const ShardTensor<T>& x, const Halo& halo) {
  prepare(x);
  return ShardTensor<T>(out_layout_, halo, "hpart::Conv::output");
}

template <class T>
void Conv<T>::forward(ShardTensor<T>& x, ShardTensor<T>& y) {
  prepare(x);
  if (!(y.layout() == out_layout_)) throw Error(ErrorCode::invalid_argument, "Conv::forward: y is not laid out like make_output(x)");
  // The core (cells whose stencil stays inside this shard) is convolved while the halo messages
  // are in flight; the rim, slab by slab, once they have landed.
  const auto px = padded(x), py = padded(y);
  const std::int64_t n[3] = {py.d(), py.h(), py.w()}, r[3] = {shape_.kd / 2, shape_.kh / 2, shape_.kw / 2};
  kernels::Region3 core;
  for (int d = 0; d < 3; ++d) {
    core.lo[d] = std::min(r[d], n[d]);
    core.hi[d] = std::max(core.lo[d], n[d] - r[d]);
  }
  exchange_->begin(x);
  kernels::conv_forward_region(px, weight, bias, shape_, py, core);
  exchange_->end(x);
  for (int d = 0; d < 3; ++d)
    for (int side = 0; side < 2; ++side) {
      kernels::Region3 slab;
      for (int e = 0; e < 3; ++e) {  // earlier dims: the core's range; later dims: everything
        slab.lo[e] = e < d ? core.lo[e] : 0;
        slab.hi[e] = e < d ? core.hi[e] : n[e];
      }
      slab.lo[d] = side == 0 ? 0 : core.hi[d];
      slab.hi[d] = side == 0 ? core.lo[d] : n[d];
      kernels::conv_forward_region(px, weight, bias, shape_, py, slab);
    }
}

template <class T>
void Conv<T>::backward(const ShardTensor<T>& x, const ShardTensor<T>& dy, ShardTensor<T>& dx) {
  prepare(x);
  if (!(dy.layout() == out_layout_)) throw Error(ErrorCode::invalid_argument, "Conv::backward: dy is not laid out like the output");
  if (!dx.same_shape(x)) throw Error(ErrorCode::invalid_argument, "Conv::backward: dx must have x's layout and halo");
  kernels::conv_backward_data(padded(dy), weight, shape_, padded(dx));
  exchange_->adjoint(dx);
  kernels::conv_backward_weights(padded(x), padded(dy), shape_, weight_grad, bias_grad);
  allreduce_sum(x.layout().comm(), weight_grad);
  allreduce_sum(x.layout().comm(), bias_grad);
}

template <class T>
std::vector<Parameter<T>> Conv<T>::parameters() const {
  std::vector<Parameter<T>> p{{weight, weight_grad}};
  if (bias.extent(0) > 0) p.push_back({bias, bias_grad});
  return p;
}

template class Conv<float>;
template class Conv<double>;

}  // namespace hpart::tensor
