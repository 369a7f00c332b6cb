#include "heat_samples.hpp"

#include <vector>

#include "hpart/tensor/ops.hpp"

namespace hpart_train {

namespace ht = hpart::tensor;

double field_value(std::uint64_t seed, std::uint64_t sample, std::uint64_t cell) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull ^ (sample + 1) * 0xD1B54A32D192ED03ull;
  z += cell * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return 2.0 * static_cast<double>(z >> 11) * 0x1.0p-53 - 1.0;
}

template <class T>
void fill_sample(ht::ShardTensor<T>& x, std::uint64_t seed, std::uint64_t sample) {
  const hpart::Box& b = x.box();
  if (b.empty()) return;
  auto h = Kokkos::create_mirror_view(x.view());
  const ht::Index5 e = x.layout().shape().extent, m = x.margins(), n = x.interior_extent();
  for (std::int64_t c = 0; c < n[ht::kAxisC]; ++c)
    for (std::int64_t i = 0; i < n[ht::kAxisH]; ++i)
      for (std::int64_t j = 0; j < n[ht::kAxisW]; ++j) {
        const std::int64_t gi = b.lo[ht::kAxisH] + i, gj = b.lo[ht::kAxisW] + j, gc = b.lo[ht::kAxisC] + c;
        const auto cell = static_cast<std::uint64_t>((gc * e[ht::kAxisH] + gi) * e[ht::kAxisW] + gj);
        h(0, c, m[ht::kAxisD], m[ht::kAxisH] + i, m[ht::kAxisW] + j) = static_cast<T>(field_value(seed, sample, cell));
      }
  Kokkos::deep_copy(x.view(), h);
}

template <class T>
HeatTarget<T>::HeatTarget(int steps, double alpha) : steps_(steps), stencil_({1, 1, 1, 3, 3}, false) {
  const T a = static_cast<T>(alpha), centre = static_cast<T>(1.0 - 4.0 * alpha);
  const std::vector<T> w{T(0), a, T(0), a, centre, a, T(0), a, T(0)};
  auto h = Kokkos::create_mirror_view(stencil_.weight);
  for (std::size_t k = 0; k < w.size(); ++k) h(k) = w[k];
  Kokkos::deep_copy(stencil_.weight, h);
}

template <class T>
void HeatTarget<T>::apply(const ht::ShardTensor<T>& x, ht::ShardTensor<T>& target) {
  if (!a_.valid() || !a_.same_shape(x)) {
    a_ = x.like("hpart_train::heat_a");
    b_ = x.like("hpart_train::heat_b");
  }
  ht::copy(x, a_);
  for (int s = 0; s < steps_; ++s) {
    stencil_.forward(a_, b_);
    std::swap(a_, b_);
  }
  ht::copy(a_, target);
}

template void fill_sample<float>(ht::ShardTensor<float>&, std::uint64_t, std::uint64_t);
template void fill_sample<double>(ht::ShardTensor<double>&, std::uint64_t, std::uint64_t);
template class HeatTarget<float>;
template class HeatTarget<double>;

}  // namespace hpart_train
