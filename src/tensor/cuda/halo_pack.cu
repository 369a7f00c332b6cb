// Halo face pack/unpack: one thread per region cell, W fastest, so consecutive threads touch
// consecutive addresses of a face row (coalesced for H and D faces; W faces are strided by
// nature and small).
#include "tensor/cuda/cuda_check.hpp"
#include "hpart/tensor/cuda_kernels.hpp"

namespace hpart::tensor::cuda {

namespace {

struct Map {
  std::int64_t lo[5], count[5], stride[5];
};

Map make_map(const Extents5& e, const Region5& r) {
  Map m{};
  std::int64_t s = 1;
  for (int a = 4; a >= 0; --a) {
    m.lo[a] = r.lo[a], m.count[a] = r.count[a], m.stride[a] = s;
    s *= e.e[a];
    if (r.lo[a] < 0 || r.count[a] < 0 || r.lo[a] + r.count[a] > e.e[a])
      throw Error(ErrorCode::invalid_argument, "cuda pack/unpack: region outside the array");
  }
  return m;
}

__device__ std::int64_t offset(const Map& m, std::int64_t k) {
  std::int64_t off = 0;
  for (int a = 4; a >= 0; --a) {
    off += (m.lo[a] + k % m.count[a]) * m.stride[a];
    k /= m.count[a];
  }
  return off;
}

template <class T>
__global__ void pack_kernel(const T* __restrict__ array, Map m, std::int64_t n, T* __restrict__ buffer) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < n) buffer[k] = array[offset(m, k)];
}

template <class T>
__global__ void unpack_kernel(const T* __restrict__ buffer, Map m, std::int64_t n, T* __restrict__ array, bool add) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const std::int64_t off = offset(m, k);
  array[off] = add ? array[off] + buffer[k] : buffer[k];
}

}  // namespace

template <class T>
void pack(const T* array, const Extents5& extents, const Region5& region, T* buffer) {
  const Map m = make_map(extents, region);
  const std::int64_t n = region.volume();
  if (n == 0) return;
  pack_kernel<T><<<detail::blocks_for(n, 256), 256>>>(array, m, n, buffer);
  detail::check(cudaGetLastError(), "pack launch");
  detail::check(cudaDeviceSynchronize(), "pack");
}

template <class T>
void unpack(const T* buffer, const Extents5& extents, const Region5& region, T* array, Unpack mode) {
  const Map m = make_map(extents, region);
  const std::int64_t n = region.volume();
  if (n == 0) return;
  unpack_kernel<T><<<detail::blocks_for(n, 256), 256>>>(buffer, m, n, array, mode == Unpack::add);
  detail::check(cudaGetLastError(), "unpack launch");
  detail::check(cudaDeviceSynchronize(), "unpack");
}

template void pack<float>(const float*, const Extents5&, const Region5&, float*);
template void pack<double>(const double*, const Extents5&, const Region5&, double*);
template void unpack<float>(const float*, const Extents5&, const Region5&, float*, Unpack);
template void unpack<double>(const double*, const Extents5&, const Region5&, double*, Unpack);

}  // namespace hpart::tensor::cuda
