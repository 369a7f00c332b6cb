// The native CUDA kernels against the CPU (Kokkos) ones: conv forward in float and double, 2-D
// and 3-D, and face pack/unpack (assign and add) against host loops. Skips when the CUDA runtime
// reports no device (CI builds and links this without a GPU).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "hpart/error.hpp"
#include "hpart/tensor/cuda_kernels.hpp"
#include "hpart/tensor/layer_kernels.hpp"
#include "layers_test_support.hpp"

namespace {

namespace tk = hpart::tensor::kernels;
namespace cu = hpart::tensor::cuda;
using hpart::testing::host_copy;
using hpart::testing::random_padded;
using hpart::testing::random_vector;

#define HPART_REQUIRE_GPU() \
  if (!cu::device_available()) GTEST_SKIP() << "no CUDA device"

template <class T>
void compare_conv(const tk::ConvShape& s, std::int64_t n, std::int64_t d, std::int64_t h, std::int64_t w,
                  tk::Margin xh, tk::Margin yh, double tol) {
  auto x = random_padded<T>(n, s.cin, d, h, w, xh, 1);
  auto wt = random_vector<T>(s.weight_count(), 2);
  auto b = random_vector<T>(s.cout, 3);
  auto y = tk::make_padded<T>("y", n, s.cout, d, h, w, yh);
  tk::conv_forward(x, wt, b, s, y);
  const auto hx = host_copy(x.view), hw = host_copy(wt), hb = host_copy(b), cpu = host_copy(y.view);

  cu::DeviceBuffer<T> dx(hx.size()), dw(hw.size()), db(hb.size()), dy(cpu.size());
  dx.upload(hx.data(), hx.size());
  dw.upload(hw.data(), hw.size());
  db.upload(hb.data(), hb.size());
  std::vector<T> gpu(cpu.size(), T(0));
  dy.upload(gpu.data(), gpu.size());
  cu::ConvGeometry g;
  g.n = n, g.cin = s.cin, g.cout = s.cout, g.d = d, g.h = h, g.w = w;
  g.x_halo[0] = xh.d, g.x_halo[1] = xh.h, g.x_halo[2] = xh.w;
  g.y_halo[0] = yh.d, g.y_halo[1] = yh.h, g.y_halo[2] = yh.w;
  g.k[0] = s.kd, g.k[1] = s.kh, g.k[2] = s.kw;
  cu::conv_forward(dx.data(), dw.data(), db.data(), dy.data(), g);
  dy.download(gpu.data(), gpu.size());
  double m = 0;
  for (std::size_t k = 0; k < cpu.size(); ++k)
    m = std::max(m, std::abs(static_cast<double>(cpu[k]) - static_cast<double>(gpu[k])));
  EXPECT_LE(m, tol);
}

TEST(LayersCuda, ConvForwardMatchesTheCpuKernel) {
  HPART_REQUIRE_GPU();
  compare_conv<double>({3, 4, 1, 3, 3}, 2, 1, 37, 53, {0, 1, 1}, {0, 1, 2}, 1e-12);
  compare_conv<float>({3, 4, 1, 5, 3}, 1, 1, 64, 31, {0, 2, 1}, {0, 0, 0}, 1e-5);
  compare_conv<double>({2, 3, 3, 3, 3}, 1, 9, 10, 11, {1, 1, 1}, {1, 1, 1}, 1e-12);
}

TEST(LayersCuda, PackAndUnpackFaces) {
  HPART_REQUIRE_GPU();
  auto a = random_padded<double>(2, 3, 4, 5, 6, {1, 1, 1}, 4);
  auto h = host_copy(a.view);
  cu::Extents5 e;
  for (int k = 0; k < 5; ++k) e.e[k] = static_cast<std::int64_t>(a.view.extent(static_cast<unsigned>(k)));
  cu::Region5 r;  // the W face next to the high halo, all N, C, D, H
  const std::int64_t lo[5] = {0, 0, 1, 1, 6}, count[5] = {2, 3, 4, 5, 1};
  for (int k = 0; k < 5; ++k) r.lo[k] = lo[k], r.count[k] = count[k];
  cu::DeviceBuffer<double> arr(h.size()), buf(static_cast<std::size_t>(r.volume()));
  arr.upload(h.data(), h.size());
  cu::pack(arr.data(), e, r, buf.data());
  std::vector<double> packed(static_cast<std::size_t>(r.volume()));
  buf.download(packed.data(), packed.size());
  auto at = [&](std::int64_t i0, std::int64_t i1, std::int64_t i2, std::int64_t i3, std::int64_t i4) {
    return static_cast<std::size_t>((((i0 * e.e[1] + i1) * e.e[2] + i2) * e.e[3] + i3) * e.e[4] + i4);
  };
  std::size_t k = 0;
  for (std::int64_t i0 = 0; i0 < 2; ++i0)
    for (std::int64_t i1 = 0; i1 < 3; ++i1)
      for (std::int64_t i2 = 1; i2 < 5; ++i2)
        for (std::int64_t i3 = 1; i3 < 6; ++i3, ++k) EXPECT_EQ(packed[k], h[at(i0, i1, i2, i3, 6)]);
  // Add the face into the low W halo column: that column becomes its old value plus the face.
  cu::Region5 to = r;
  to.lo[4] = 0;
  cu::unpack(buf.data(), e, to, arr.data(), cu::Unpack::add);
  std::vector<double> after(h.size());
  arr.download(after.data(), after.size());
  k = 0;
  for (std::int64_t i0 = 0; i0 < 2; ++i0)
    for (std::int64_t i1 = 0; i1 < 3; ++i1)
      for (std::int64_t i2 = 1; i2 < 5; ++i2)
        for (std::int64_t i3 = 1; i3 < 6; ++i3, ++k) EXPECT_EQ(after[at(i0, i1, i2, i3, 0)], h[at(i0, i1, i2, i3, 0)] + packed[k]);
  cu::unpack(buf.data(), e, to, arr.data(), cu::Unpack::assign);
  arr.download(after.data(), after.size());
  EXPECT_EQ(after[at(1, 2, 4, 5, 0)], h[at(1, 2, 4, 5, 6)]);
}

TEST(LayersCuda, RejectsBadGeometryWithoutADevice) {
  cu::ConvGeometry g;
  g.k[1] = 4;
  EXPECT_THROW(cu::conv_forward<double>(nullptr, nullptr, nullptr, nullptr, g), hpart::Error);
}

}  // namespace
