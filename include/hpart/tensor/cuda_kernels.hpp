#pragma once
// The native CUDA path (built when HPART_HAVE_CUDA, library hpart_tensor_cuda): halo face
// pack/unpack and the conv forward kernel on device pointers to the same padded 5-D LayoutRight
// arrays a ShardTensor holds, for builds where Kokkos has no CUDA backend (Debian's Kokkos is
// Serial only). Calls are synchronous on the default stream and throw hpart::Error on a CUDA
// failure. No CUDA headers here, so C++ code that calls it compiles without nvcc.
#include <cstddef>
#include <cstdint>

namespace hpart::tensor::cuda {

// True when the runtime reports at least one device (false without a driver, too).
bool device_available();

// Allocated extents of a padded array (halo included), N, C, D, H, W.
struct Extents5 {
  std::int64_t e[5] = {0, 0, 0, 0, 0};
};
// A box of the padded array: first index and counts per axis.
struct Region5 {
  std::int64_t lo[5] = {0, 0, 0, 0, 0};
  std::int64_t count[5] = {0, 0, 0, 0, 0};
  [[nodiscard]] std::int64_t volume() const {
    std::int64_t v = 1;
    for (std::int64_t c : count) v *= c;
    return v;
  }
};

// buffer[k] = array[region cell k] (region row-major, W fastest).
template <class T>
void pack(const T* array, const Extents5& extents, const Region5& region, T* buffer);
// array[region cell k] = buffer[k], or += for the halo adjoint.
enum class Unpack { assign, add };
template <class T>
void unpack(const T* buffer, const Extents5& extents, const Region5& region, T* array, Unpack mode);

// Interior extents and halo widths of the conv input and output (the output's interior equals
// the input's), channel counts and odd kernel extents; weights (C_out, C_in, KD, KH, KW).
struct ConvGeometry {
  std::int64_t n = 1, cin = 1, cout = 1, d = 1, h = 1, w = 1;
  int x_halo[3] = {0, 1, 1};
  int y_halo[3] = {0, 0, 0};
  int k[3] = {1, 3, 3};
};
// y = b + w (*) x on y's interior, summing in the order of the CPU kernel (bias, then C_in,
// KD, KH, KW). `bias` may be null.
template <class T>
void conv_forward(const T* x, const T* weights, const T* bias, T* y, const ConvGeometry& g);

// Device memory for tests and callers without Kokkos CUDA.
template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t count);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  [[nodiscard]] T* data() const { return data_; }
  [[nodiscard]] std::size_t size() const { return count_; }
  void upload(const T* host, std::size_t count);
  void download(T* host, std::size_t count) const;

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace hpart::tensor::cuda
