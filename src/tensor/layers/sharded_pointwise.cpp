// Activations (local) and the MSE loss (one all-reduce: the sum and the ranks' verdicts).
#include <mpi.h>

#include <string>

#include "hpart/tensor/layers.hpp"
#include "tensor/layers/layer_support.hpp"

namespace hpart::tensor {

template <class T>
void activation_forward(Activation a, const ShardTensor<T>& x, ShardTensor<T>& y) {
  kernels::activation_forward(a, padded(x), padded(y));
}

template <class T>
void activation_backward(Activation a, const ShardTensor<T>& x, const ShardTensor<T>& dy, ShardTensor<T>& dx) {
  kernels::activation_backward(a, padded(x), padded(dy), padded(dx));
}

template <class T>
double mse_loss(const ShardTensor<T>& y, const ShardTensor<T>& t, ShardTensor<T>* dy) {
  const ShardLayout& l = y.layout();
  // A problem on one rank rides on the all-reduce: every rank throws it.
  std::string problem;
  if (!(t.layout() == l) || (dy && !(dy->layout() == l)))
    problem = "mse_loss: y, target and gradient must share a layout";
  // Replicas hold copies: only the primary one counts towards the mean.
  double v[2] = {0.0, 0.0};  // the local sum, whether this rank has a problem
  if (problem.empty() && l.is_primary(l.rank()))
    problem = detail_layers::local_verdict([&] { v[0] = kernels::squared_error_sum(padded(y), padded(t)); });
  v[1] = problem.empty() ? 0.0 : 1.0;
  MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_DOUBLE, MPI_SUM, l.comm().get());
  if (v[1] != 0.0) l.comm().agree(detail_layers::code_of(problem), problem);
  const double volume = static_cast<double>(l.shape().volume());
  if (dy) kernels::squared_error_gradient(padded(y), padded(t), 2.0 / volume, padded(*dy));
  return v[0] / volume;
}

#define HPART_POINTWISE_LAYERS(T)                                                                           \
  template void activation_forward<T>(Activation, const ShardTensor<T>&, ShardTensor<T>&);                  \
  template void activation_backward<T>(Activation, const ShardTensor<T>&, const ShardTensor<T>&, ShardTensor<T>&); \
  template double mse_loss<T>(const ShardTensor<T>&, const ShardTensor<T>&, ShardTensor<T>*);
HPART_POINTWISE_LAYERS(float)
HPART_POINTWISE_LAYERS(double)
#undef HPART_POINTWISE_LAYERS

}  // namespace hpart::tensor
