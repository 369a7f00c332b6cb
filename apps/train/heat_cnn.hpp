#pragma once
// The model: `depth` 3x3 convs, 1 -> C -> ... -> C -> 1 channels, GELU between them, trained
// on the MSE against the heat target. Every activation keeps its own tensor (the backward pass
// needs the conv inputs with their exchanged halos and the pre-activation values).
#include <memory>
#include <vector>

#include "hpart/tensor/layers.hpp"

namespace hpart_train {

template <class T>
class HeatCnn {
 public:
  HeatCnn(int channels, int depth, std::uint64_t seed);

  // Forward and backward of one sample: returns the loss; parameter gradients are left in the
  // layers (summed over the ranks).
  double step(hpart::tensor::ShardTensor<T>& x, const hpart::tensor::ShardTensor<T>& target);
  [[nodiscard]] std::vector<hpart::tensor::Parameter<T>> parameters() const;
  [[nodiscard]] std::int64_t parameter_count() const;

 private:
  void allocate(const hpart::tensor::ShardTensor<T>& x);
  std::vector<hpart::tensor::Conv<T>> convs_;
  // inputs_[l]: conv l's input (halo 1; inputs_[0] is x itself); pre_[l]: conv l's output.
  std::vector<hpart::tensor::ShardTensor<T>> inputs_, pre_, grad_in_, grad_pre_;
  hpart::tensor::ShardTensor<T> dx_;
};

}  // namespace hpart_train
