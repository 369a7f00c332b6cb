#pragma once
// The training data: a random field per step, by global cell index (identical for any rank
// count), and its target after k explicit heat steps, each a sharded 3x3 conv with the 5-point
// stencil and zero padding (a Dirichlet-0 boundary).
#include <cstdint>

#include "hpart/tensor/layers.hpp"

namespace hpart_train {

// Uniform in [-1, 1) from (seed, sample, global cell index).
double field_value(std::uint64_t seed, std::uint64_t sample, std::uint64_t cell);

// Writes sample `sample` into x's interior.
template <class T>
void fill_sample(hpart::tensor::ShardTensor<T>& x, std::uint64_t seed, std::uint64_t sample);

template <class T>
class HeatTarget {
 public:
  HeatTarget(int steps, double alpha);
  // target = H^steps x; x is copied in (x's halo must be >= 1), target's interior overwritten.
  void apply(const hpart::tensor::ShardTensor<T>& x, hpart::tensor::ShardTensor<T>& target);

 private:
  int steps_;
  hpart::tensor::Conv<T> stencil_;
  hpart::tensor::ShardTensor<T> a_, b_;
};

}  // namespace hpart_train
