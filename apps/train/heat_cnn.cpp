#include "heat_cnn.hpp"

namespace hpart_train {

namespace ht = hpart::tensor;

template <class T>
HeatCnn<T>::HeatCnn(int channels, int depth, std::uint64_t seed) {
  for (int l = 0; l < depth; ++l) {
    const int cin = l == 0 ? 1 : channels, cout = l == depth - 1 ? 1 : channels;
    convs_.emplace_back(ht::ConvShape{cin, cout, 1, 3, 3}, true, seed * 1000 + static_cast<std::uint64_t>(l));
  }
}

template <class T>
void HeatCnn<T>::allocate(const ht::ShardTensor<T>& x) {
  if (!pre_.empty()) return;
  const std::size_t depth = convs_.size();
  const ht::ShardTensor<T>* in = &x;
  for (std::size_t l = 0; l < depth; ++l) {
    pre_.push_back(convs_[l].make_output(*in));
    grad_pre_.push_back(pre_.back().like("hpart_train::grad_pre"));
    if (l + 1 < depth) {
      // The next conv's input: the activation, with a halo for the next exchange.
      inputs_.push_back(convs_[l].make_output(*in, ht::Halo::uniform(1)));
      grad_in_.push_back(inputs_.back().like("hpart_train::grad_in"));
      in = &inputs_.back();
    }
  }
  dx_ = x.like("hpart_train::dx");
}

template <class T>
double HeatCnn<T>::step(ht::ShardTensor<T>& x, const ht::ShardTensor<T>& target) {
  allocate(x);
  const std::size_t depth = convs_.size();
  auto input = [&](std::size_t l) -> ht::ShardTensor<T>& { return l == 0 ? x : inputs_[l - 1]; };
  for (std::size_t l = 0; l < depth; ++l) {
    convs_[l].forward(input(l), pre_[l]);
    if (l + 1 < depth) ht::activation_forward(ht::Activation::gelu, pre_[l], inputs_[l]);
  }
  const double loss = ht::mse_loss(pre_[depth - 1], target, &grad_pre_[depth - 1]);
  for (std::size_t l = depth; l-- > 0;) {
    if (l + 1 < depth) ht::activation_backward(ht::Activation::gelu, pre_[l], grad_in_[l], grad_pre_[l]);
    convs_[l].backward(input(l), grad_pre_[l], l == 0 ? dx_ : grad_in_[l - 1]);
  }
  return loss;
}

template <class T>
std::vector<ht::Parameter<T>> HeatCnn<T>::parameters() const {
  std::vector<ht::Parameter<T>> p;
  for (const auto& c : convs_)
    for (const auto& q : c.parameters()) p.push_back(q);
  return p;
}

template <class T>
std::int64_t HeatCnn<T>::parameter_count() const {
  std::int64_t n = 0;
  for (const auto& p : parameters()) n += static_cast<std::int64_t>(p.value.extent(0));
  return n;
}

template class HeatCnn<float>;
template class HeatCnn<double>;

}  // namespace hpart_train
