#pragma once
// Global reductions and elementwise operations on ShardTensors. Reductions are collective and
// return the same value on every rank; they read the primary interiors (each cell of the tensor
// once, whatever the replication), except stored_dot, which is the inner product of the stored
// representation that the adjoint tests use. Elementwise operations are local and touch the
// interior only (halos keep their values: the padding past global edges stays zero).
#include <cstdint>

#include "hpart/tensor/shard_tensor.hpp"

namespace hpart::tensor {

// Sums accumulate in double whatever T is.
template <class T, class M> double sum(const ShardTensor<T, M>& x);
template <class T, class M> double mean(const ShardTensor<T, M>& x);  // sum / global volume
template <class T, class M> T max(const ShardTensor<T, M>& x);        // an empty tensor cannot exist
template <class T, class M> T min(const ShardTensor<T, M>& x);
// sum over the tensor of x * y (same layout).
template <class T, class M> double dot(const ShardTensor<T, M>& x, const ShardTensor<T, M>& y);
// sum over every rank's interior (and halo, with_halo = true) of x * y: replicas each count.
template <class T, class M>
double stored_dot(const ShardTensor<T, M>& x, const ShardTensor<T, M>& y, bool with_halo = false);

template <class T, class M> void fill(ShardTensor<T, M>& x, T value);    // interior
template <class T, class M> void zero_halo(ShardTensor<T, M>& x);         // halo cells only
template <class T, class M> void scale(ShardTensor<T, M>& x, T a);       // x = a x
template <class T, class M> void axpy(T a, const ShardTensor<T, M>& x, ShardTensor<T, M>& y);  // y += a x
template <class T, class M> void copy(const ShardTensor<T, M>& x, ShardTensor<T, M>& y);       // y = x
// x = f(x) per interior cell; f is a device-callable functor (KOKKOS_LAMBDA) T -> T.
template <class T, class M, class F> void map(ShardTensor<T, M>& x, F f);
// y = f(y, x) per interior cell (same layout); f: (T y, T x) -> T.
template <class T, class M, class F> void zip_map(ShardTensor<T, M>& y, const ShardTensor<T, M>& x, F f);

}  // namespace hpart::tensor

#include "hpart/tensor/impl/ops_impl.hpp"
