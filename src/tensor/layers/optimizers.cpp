// SGD and Adam updates, one parallel_for per parameter; moments are kept in T like PyTorch.
#include <cmath>
#include <string>

#include "hpart/error.hpp"
#include "hpart/tensor/optim.hpp"
#include "tensor/layers/kokkos_math.hpp"

namespace hpart::tensor {

namespace {

template <class T>
void check_params(const std::vector<Parameter<T>>& params, const std::vector<kernels::View1<T>>& state,
                  const char* who) {
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (params[k].value.extent(0) != params[k].grad.extent(0))
      throw Error(ErrorCode::size_mismatch, std::string(who) + ": parameter " + std::to_string(k) +
                                                " and its gradient differ in extent");
    if (!state.empty() && (state.size() != params.size() || state[k].extent(0) != params[k].value.extent(0)))
      throw Error(ErrorCode::invalid_argument, std::string(who) + ": the parameter list changed between steps");
  }
}

using Policy = Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::IndexType<std::int64_t>>;

}  // namespace

template <class T>
void Sgd<T>::step(const std::vector<Parameter<T>>& params) {
  check_params(params, velocity_, "Sgd::step");
  const bool use_momentum = options_.momentum != 0.0;
  if (use_momentum && velocity_.empty())
    for (const auto& p : params) velocity_.emplace_back("hpart::sgd_velocity", p.value.extent(0));
  const T lr = static_cast<T>(options_.lr), mu = static_cast<T>(options_.momentum),
          wd = static_cast<T>(options_.weight_decay);
  for (std::size_t k = 0; k < params.size(); ++k) {
    const kernels::View1<T> v = params[k].value, g = params[k].grad;
    const kernels::View1<T> vel = use_momentum ? velocity_[k] : kernels::View1<T>();
    Kokkos::parallel_for("hpart::sgd", Policy(0, static_cast<std::int64_t>(v.extent(0))),
                         KOKKOS_LAMBDA(const std::int64_t i) {
                           T d = g(i) + wd * v(i);
                           if (use_momentum) {
                             vel(i) = mu * vel(i) + d;
                             d = vel(i);
                           }
                           v(i) -= lr * d;
                         });
  }
  Kokkos::fence();
}

template <class T>
void Adam<T>::step(const std::vector<Parameter<T>>& params) {
  check_params(params, m_, "Adam::step");
  if (m_.empty())
    for (const auto& p : params) {
      m_.emplace_back("hpart::adam_m", p.value.extent(0));
      v_.emplace_back("hpart::adam_v", p.value.extent(0));
    }
  ++t_;
  const double b1 = options_.beta1, b2 = options_.beta2;
  const T beta1 = static_cast<T>(b1), beta2 = static_cast<T>(b2), eps = static_cast<T>(options_.eps),
          wd = static_cast<T>(options_.weight_decay);
  const T step = static_cast<T>(options_.lr / (1.0 - std::pow(b1, static_cast<double>(t_))));
  const T corr2 = static_cast<T>(1.0 / (1.0 - std::pow(b2, static_cast<double>(t_))));
  for (std::size_t k = 0; k < params.size(); ++k) {
    const kernels::View1<T> p = params[k].value, g = params[k].grad, m = m_[k], v = v_[k];
    Kokkos::parallel_for("hpart::adam", Policy(0, static_cast<std::int64_t>(p.extent(0))),
                         KOKKOS_LAMBDA(const std::int64_t i) {
                           const T gi = g(i) + wd * p(i);
                           m(i) = beta1 * m(i) + (T(1) - beta1) * gi;
                           v(i) = beta2 * v(i) + (T(1) - beta2) * gi * gi;
                           const T denom = kmath::sqrt(v(i) * corr2) + eps;
                           p(i) -= step * m(i) / denom;
                         });
  }
  Kokkos::fence();
}

template class Sgd<float>;
template class Sgd<double>;
template class Adam<float>;
template class Adam<double>;

}  // namespace hpart::tensor
