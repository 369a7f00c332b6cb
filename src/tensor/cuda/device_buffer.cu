// Device detection and a minimal owning device buffer.
#include "tensor/cuda/cuda_check.hpp"
#include "hpart/tensor/cuda_kernels.hpp"

namespace hpart::tensor::cuda {

bool device_available() {
  int count = 0;
  // No driver or no device both mean "no GPU here": the tests skip.
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return count > 0;
}

template <class T>
DeviceBuffer<T>::DeviceBuffer(std::size_t count) : count_(count) {
  if (count > 0) detail::check(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)), "cudaMalloc");
}

template <class T>
DeviceBuffer<T>::~DeviceBuffer() {
  if (data_) cudaFree(data_);
}

template <class T>
void DeviceBuffer<T>::upload(const T* host, std::size_t count) {
  if (count > count_) throw Error(ErrorCode::size_mismatch, "DeviceBuffer::upload: more elements than the buffer holds");
  detail::check(cudaMemcpy(data_, host, count * sizeof(T), cudaMemcpyHostToDevice), "upload");
}

template <class T>
void DeviceBuffer<T>::download(T* host, std::size_t count) const {
  if (count > count_) throw Error(ErrorCode::size_mismatch, "DeviceBuffer::download: more elements than the buffer holds");
  detail::check(cudaMemcpy(host, data_, count * sizeof(T), cudaMemcpyDeviceToHost), "download");
}

template class DeviceBuffer<float>;
template class DeviceBuffer<double>;

}  // namespace hpart::tensor::cuda
