#pragma once
// SGD (with optional momentum) and Adam over replicated parameters. Parameters are flat device
// views with a gradient of the same extent; the sharded layers all-reduce gradients before the
// step, so every rank applies the same update and the replicas stay identical without a
// broadcast. No MPI here.
#include <cstdint>
#include <vector>

#include "hpart/tensor/layer_kernels.hpp"

namespace hpart::tensor {

template <class T>
struct Parameter {
  kernels::View1<T> value;
  kernels::View1<T> grad;
};

struct SgdOptions {
  double lr = 1e-2;
  double momentum = 0.0;
  double weight_decay = 0.0;
};

struct AdamOptions {
  double lr = 1e-3;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double weight_decay = 0.0;
};

// What the optimizers share: their options. Their step takes the same parameter list (same
// order, same extents) at every call; the state they keep per parameter is made at the first.
template <class Options>
class Optimizer {
 public:
  explicit Optimizer(Options options = {}) : options_(options) {}
  [[nodiscard]] const Options& options() const { return options_; }

 protected:
  Options options_;
};

template <class T>
class Sgd : public Optimizer<SgdOptions> {
 public:
  using Optimizer::Optimizer;
  void step(const std::vector<Parameter<T>>& params);

 private:
  std::vector<kernels::View1<T>> velocity_;
};

template <class T>
class Adam : public Optimizer<AdamOptions> {
 public:
  using Optimizer::Optimizer;
  void step(const std::vector<Parameter<T>>& params);
  [[nodiscard]] std::int64_t steps() const { return t_; }

 private:
  std::int64_t t_ = 0;
  std::vector<kernels::View1<T>> m_, v_;
};

}  // namespace hpart::tensor
