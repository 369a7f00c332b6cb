// Sharded convolution: halo exchange + local conv forward; local transpose over the padded
// gradient + halo adjoint + all-reduced weight gradients backward.
#include <algorithm>
#include <climits>
#include <cmath>
#include <string>
#include <utility>

#include "hpart/tensor/layers.hpp"
#include "core/memory_budget.hpp"
#include "tensor/layers/layer_support.hpp"
#include "tensor/layers/padded_geometry.hpp"

namespace hpart::tensor {

template <class T>
Conv<T>::Conv(const ConvShape& shape, bool with_bias, std::uint64_t seed, HaloTransfer transfer)
    : shape_(shape), with_bias_(with_bias), transfer_(transfer) {
  // Not collective: a problem is kept and reported by the first make_output / forward on every rank.
  problem_ = detail_layers::local_verdict([&] { kernels::check_conv_shape(shape); });
  // In double: extents of a few thousand would overflow the product.
  const double nw = static_cast<double>(shape.cout) * shape.cin * shape.kd * shape.kh * shape.kw;
  if (problem_.empty() && nw > INT_MAX)
    problem_ = "conv: " + std::to_string(shape.cout) + " x " + std::to_string(shape.cin) + " x " +
               kernels::detail::dims_str(shape.kd, shape.kh, shape.kw) +
               " weights are more than one all-reduce of their gradient takes (INT_MAX)";
  if (problem_.empty())  // weights and bias, and their gradients
    problem_ = hpart::detail::check_memory(2.0 * (nw + shape.cout) * static_cast<double>(sizeof(T)),
                                           "conv with " + std::to_string(static_cast<long long>(nw)) + " weights",
                                           "use fewer channels or smaller kernels");
  if (!problem_.empty()) return;
  const auto nws = static_cast<std::size_t>(shape.weight_count());
  weight = kernels::View1<T>("hpart::Conv::weight", nws);
  weight_grad = kernels::View1<T>("hpart::Conv::weight_grad", nws);
  if (with_bias) {
    bias = kernels::View1<T>("hpart::Conv::bias", static_cast<std::size_t>(shape.cout));
    bias_grad = kernels::View1<T>("hpart::Conv::bias_grad", static_cast<std::size_t>(shape.cout));
  }
  const double bound = 1.0 / std::sqrt(static_cast<double>(shape.cin) * shape.kd * shape.kh * shape.kw);
  std::vector<T> w(nws);
  for (std::size_t k = 0; k < nws; ++k) w[k] = static_cast<T>(detail_layers::uniform_at(seed, k, bound));
  detail_layers::from_host(weight, w);
}

template <class T>
void Conv<T>::prepare(const ShardTensor<T>& x) {
  if (in_layout_.valid() && x.layout() == in_layout_ && x.halo() == in_halo_) return;
  const TensorShape& s = x.layout().shape();
  std::string problem = problem_;
  const int k[3] = {shape_.kd, shape_.kh, shape_.kw};
  const int axes[3] = {kAxisD, kAxisH, kAxisW};
  const char* names[3] = {"D", "H", "W"};
  if (!problem.empty()) {
  } else if (static_cast<std::int64_t>(weight.extent(0)) != shape_.weight_count() ||
             weight_grad.extent(0) != weight.extent(0) || bias_grad.extent(0) != bias.extent(0) ||
             static_cast<std::int64_t>(bias.extent(0)) != (with_bias_ ? shape_.cout : 0)) {
    problem = "conv: weight and bias (and their gradients) must have " + std::to_string(shape_.weight_count()) +
              " and " + std::to_string(with_bias_ ? shape_.cout : 0) + " entries";
  } else if (s.extent[kAxisC] != shape_.cin) {
    problem = "conv: the input has " + std::to_string(s.extent[kAxisC]) + " channels, the layer expects " +
              std::to_string(shape_.cin);
  } else if (s.spatial_dims == 2 && shape_.kd != 1) {
    problem = "conv: a 2-D tensor needs kernel depth 1 (got " + std::to_string(shape_.kd) + ")";
  }
  if (problem.empty()) {
    // The backward pass' partial sums of the weight gradient, by blocks of this shard's rows.
    const Box& b = x.layout().local_box();
    const std::int64_t nv = shape_.weight_count() + shape_.cout;
    const auto cut = kernels::detail::conv_weight_blocks(b.extent(kAxisN) * b.extent(kAxisD) * b.extent(kAxisH), nv);
    problem = hpart::detail::check_memory(8.0 * static_cast<double>(cut.blocks) * static_cast<double>(nv),
                                          "the weight gradient's partial sums of conv on " + b.str(),
                                          "use fewer channels or smaller kernels, or shards of fewer rows");
  }
  for (int d = 0; d < 3 && problem.empty(); ++d) {
    const std::int64_t n = s.extent[static_cast<std::size_t>(axes[d])];
    if (k[d] > n)
      problem = "conv: kernel extent " + std::to_string(k[d]) + " along " + names[d] + " is larger than the domain (" +
                std::to_string(n) + " cells)";
    else if (x.halo().along(axes[d]) < k[d] / 2)
      problem = std::string("conv: the input halo along ") + names[d] + " (" + std::to_string(x.halo().along(axes[d])) +
                ") is narrower than the kernel radius " + std::to_string(k[d] / 2) + ": make x with that halo";
  }
  // The layer's shape must be the same on every rank, and then its parameters (a different seed
  // on one rank would silently give each rank its own model): compared after the local problems,
  // which they would otherwise hide (a rank that could not allocate its weights has none).
  hpart::detail::Replicated args;
  args.value("Conv cin", static_cast<long long>(shape_.cin))
      .value("Conv cout", static_cast<long long>(shape_.cout))
      .value("Conv kd", static_cast<long long>(shape_.kd))
      .value("Conv kh", static_cast<long long>(shape_.kh))
      .value("Conv kw", static_cast<long long>(shape_.kw))
      .value("Conv bias", with_bias_ ? 1LL : 0LL);
  out_layout_ = detail_layers::derive_layout(x.layout(), shape_.cout, 1, 1, std::move(args), std::move(problem));
  hpart::detail::Replicated params;
  detail_layers::add_parameter(params, "Conv weight", weight);
  detail_layers::add_parameter(params, "Conv bias values", bias);
  hpart::detail::agree(x.layout().comm(), params, ErrorCode::ok, {});
  in_layout_ = x.layout();
  in_halo_ = x.halo();
  exchange_ = std::make_unique<HaloExchange<T>>(x, HaloOptions{Padding::zero_each_exchange, transfer_});
}

template <class T>
void Conv<T>::forward(ShardTensor<T>& x, ShardTensor<T>& y) {
  this->prepare_forward(x, y, "Conv::forward");
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
