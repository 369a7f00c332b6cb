// Activations (local) and the MSE loss (one all-reduced double).
#include <mpi.h>

#include "hpart/tensor/layers.hpp"

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
  if (!(t.layout() == l) || (dy && !(dy->layout() == l)))
    throw Error(ErrorCode::invalid_argument, "mse_loss: y, target and gradient must share a layout");
  // Replicas hold copies: only the primary one counts towards the mean.
  double local = l.is_primary(l.rank()) ? kernels::squared_error_sum(padded(y), padded(t)) : 0.0;
  MPI_Allreduce(MPI_IN_PLACE, &local, 1, MPI_DOUBLE, MPI_SUM, l.comm().get());
  const double volume = static_cast<double>(l.shape().volume());
  if (dy) kernels::squared_error_gradient(padded(y), padded(t), 2.0 / volume, padded(*dy));
  return local / volume;
}

#define HPART_POINTWISE_LAYERS(T)                                                                           \
  template void activation_forward<T>(Activation, const ShardTensor<T>&, ShardTensor<T>&);                  \
  template void activation_backward<T>(Activation, const ShardTensor<T>&, const ShardTensor<T>&, ShardTensor<T>&); \
  template double mse_loss<T>(const ShardTensor<T>&, const ShardTensor<T>&, ShardTensor<T>*);
HPART_POINTWISE_LAYERS(float)
HPART_POINTWISE_LAYERS(double)
#undef HPART_POINTWISE_LAYERS

}  // namespace hpart::tensor
