// Sharded 2x pooling and upsampling. On aligned shards pooling is purely local; bilinear
// upsampling reads a halo of 1 (exchanged, then edge-replicated at global edges) and its
// backward runs the adjoints in reverse: local transpose, edge adjoint, halo adjoint.
#include <string>
#include <utility>

#include "hpart/tensor/layers.hpp"
#include "tensor/layers/layer_support.hpp"

namespace hpart::tensor {

template <class T>
void Pool2<T>::prepare(const ShardTensor<T>& x) {
  if (in_layout_.valid() && x.layout() == in_layout_) return;
  std::string problem;
  if (kind_ != Pool::average && kind_ != Pool::max)
    problem = "Pool2: kind " + std::to_string(static_cast<int>(kind_)) + " is neither Pool::average nor Pool::max";
  hpart::detail::Replicated args;  // average on one rank and max on another would mix silently
  args.value("Pool2 kind", static_cast<long long>(kind_));
  out_layout_ =
      detail_layers::derive_layout(x.layout(), x.layout().shape().extent[kAxisC], 1, 2, std::move(args), std::move(problem));
  in_layout_ = x.layout();
}

template <class T>
void Pool2<T>::forward(const ShardTensor<T>& x, ShardTensor<T>& y) {
  this->prepare_forward(x, y, "Pool2::forward");
  kernels::pool2_forward(kind_, x.layout().shape().spatial_dims, padded(x), padded(y));
}

template <class T>
void Pool2<T>::backward(const ShardTensor<T>& x, const ShardTensor<T>& dy, ShardTensor<T>& dx) {
  prepare(x);
  if (!(dy.layout() == out_layout_) || !(dx.layout() == x.layout()))
    throw Error(ErrorCode::invalid_argument, "Pool2::backward: dy or dx is not laid out like the output or the input");
  kernels::pool2_backward(kind_, x.layout().shape().spatial_dims, padded(x), padded(dy), padded(dx));
}

template <class T>
void Upsample2<T>::prepare(const ShardTensor<T>& x) {
  if (in_layout_.valid() && x.layout() == in_layout_ && x.halo() == in_halo_) return;
  const TensorShape& s = x.layout().shape();
  std::string problem;
  if (kind_ != Upsample::nearest && kind_ != Upsample::bilinear)
    problem = "Upsample2: kind " + std::to_string(static_cast<int>(kind_)) +
              " is neither Upsample::nearest nor Upsample::bilinear";
  if (kind_ == Upsample::bilinear)
    for (int a = s.first_spatial_axis(); a <= kAxisW; ++a)
      if (x.halo().along(a) < 1) problem = "bilinear upsampling needs an input halo of >= 1 on every spatial axis";
  hpart::detail::Replicated args;
  args.value("Upsample2 kind", static_cast<long long>(kind_));
  out_layout_ = detail_layers::derive_layout(x.layout(), s.extent[kAxisC], 2, 1, std::move(args), std::move(problem));
  in_layout_ = x.layout();
  in_halo_ = x.halo();
  if (kind_ == Upsample::bilinear) exchange_ = std::make_unique<HaloExchange<T>>(x);
}

template <class T>
kernels::Edges Upsample2<T>::edges() const {
  kernels::Edges e;
  const Box& b = in_layout_.local_box();
  const TensorShape& s = in_layout_.shape();
  const int axes[3] = {kAxisD, kAxisH, kAxisW};
  for (int d = 0; d < 3; ++d) {
    const auto ua = static_cast<std::size_t>(axes[d]);
    if (in_layout_.periodic(axes[d]) || b.empty()) continue;
    e.lo[d] = b.lo[ua] == 0;
    e.hi[d] = b.hi[ua] == s.extent[ua] - 1;
  }
  return e;
}

template <class T>
void Upsample2<T>::forward(ShardTensor<T>& x, ShardTensor<T>& y) {
  this->prepare_forward(x, y, "Upsample2::forward");
  if (kind_ == Upsample::bilinear) {
    exchange_->exchange(x);
    kernels::replicate_edges(padded(x), edges());
  }
  kernels::upsample2_forward(kind_, x.layout().shape().spatial_dims, padded(x), padded(y));
}

template <class T>
void Upsample2<T>::backward(const ShardTensor<T>& dy, ShardTensor<T>& dx) {
  if (!in_layout_.valid() || !(dx.layout() == in_layout_) || !(dx.halo() == in_halo_) || !(dy.layout() == out_layout_))
    throw Error(ErrorCode::invalid_argument, "Upsample2::backward: call forward first; dx must have x's layout and halo");
  kernels::upsample2_backward(kind_, in_layout_.shape().spatial_dims, padded(dy), padded(dx));
  if (kind_ == Upsample::bilinear) {
    kernels::replicate_edges_adjoint(padded(dx), edges());
    exchange_->adjoint(dx);
  }
}

template class Pool2<float>;
template class Pool2<double>;
template class Upsample2<float>;
template class Upsample2<double>;

}  // namespace hpart::tensor
