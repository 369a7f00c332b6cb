#include "heat_unet.hpp"

#include "hpart/tensor/ops.hpp"

namespace hpart_train {

namespace ht = hpart::tensor;

template <class T>
HeatUnet<T>::HeatUnet(int channels, std::uint64_t seed)
    : enc_({1, channels, 1, 3, 3}, true, seed * 1000),
      mid_({channels, channels, 1, 3, 3}, true, seed * 1000 + 1),
      dec_({channels, 1, 1, 3, 3}, true, seed * 1000 + 2) {}

template <class T>
void HeatUnet<T>::allocate(const ht::ShardTensor<T>& x) {
  if (out_.valid()) return;
  const ht::Halo one = ht::Halo::uniform(1);
  z1_ = enc_.make_output(x);
  e_ = enc_.make_output(x);
  p_ = pool_.make_output(e_, one);
  z2_ = mid_.make_output(p_);
  m_ = mid_.make_output(p_);
  u_ = up_.make_output(m_);
  s_ = ht::ShardTensor<T>(e_.layout(), one, "hpart_train::skip");
  out_ = dec_.make_output(s_);
  dx_ = x.like();
  dz1_ = z1_.like(), de_ = e_.like(), dp_ = p_.like(), dz2_ = z2_.like(), dm_ = m_.like(), ds_ = s_.like();
  dout_ = out_.like();
}

template <class T>
double HeatUnet<T>::step(ht::ShardTensor<T>& x, const ht::ShardTensor<T>& target) {
  allocate(x);
  enc_.forward(x, z1_);
  ht::activation_forward(ht::Activation::gelu, z1_, e_);
  pool_.forward(e_, p_);
  mid_.forward(p_, z2_);
  ht::activation_forward(ht::Activation::gelu, z2_, m_);
  up_.forward(m_, u_);
  ht::copy(e_, s_);
  ht::axpy(T(1), u_, s_);
  dec_.forward(s_, out_);
  const double loss = ht::mse_loss(out_, target, &dout_);

  dec_.backward(s_, dout_, ds_);
  up_.backward(ds_, dm_);  // the skip's upsampled branch
  ht::activation_backward(ht::Activation::gelu, z2_, dm_, dz2_);
  mid_.backward(p_, dz2_, dp_);
  pool_.backward(e_, dp_, de_);
  ht::axpy(T(1), ds_, de_);  // plus the skip's identity branch
  ht::activation_backward(ht::Activation::gelu, z1_, de_, dz1_);
  enc_.backward(x, dz1_, dx_);
  return loss;
}

template <class T>
std::vector<ht::Parameter<T>> HeatUnet<T>::parameters() const {
  std::vector<ht::Parameter<T>> p;
  for (const ht::Conv<T>* c : {&enc_, &mid_, &dec_})
    for (const auto& q : c->parameters()) p.push_back(q);
  return p;
}

template <class T>
std::int64_t HeatUnet<T>::parameter_count() const {
  std::int64_t n = 0;
  for (const auto& p : parameters()) n += static_cast<std::int64_t>(p.value.extent(0));
  return n;
}

template class HeatUnet<float>;
template class HeatUnet<double>;

}  // namespace hpart_train
