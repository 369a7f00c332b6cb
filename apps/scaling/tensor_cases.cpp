// Cases halo.exchange (width-1 halo exchanges of a 2-D float field over a 2-D process mesh) and
// conv.conv2d (forward + backward of a 3x3 convolution on that field, sharded). The halo plan's
// transfer is fixed (pack, for the conv's own plan too) rather than tuned at run time, so the
// messages are the same in every round and every run.
#include <cmath>
#include <cstring>

#include "hpart/tensor/halo.hpp"
#include "hpart/tensor/layers.hpp"
#include "parts_checksum.hpp"
#include "scaling_case.hpp"

namespace hpart_scaling {
namespace {

namespace ht = hpart::tensor;

constexpr int kExchangesPerCall = 20;  // one exchange is tens of microseconds: too short to time alone

// The most square ph x pw mesh of `ranks` (ph <= pw): 16 ranks are 4 x 4, 8 are 2 x 4.
ht::Mesh square_mesh(int ranks) {
  int ph = 1;
  for (int d = 1; d * d <= ranks; ++d)
    if (ranks % d == 0) ph = d;
  return ht::Mesh::grid2d(ph, ranks / ph);
}

// A value per global cell, so every layout holds the same field.
float value_at(std::uint64_t cell) { return static_cast<float>(static_cast<double>(mix(cell, 7) >> 11) * 0x1.0p-53 - 0.5); }

void fill(ht::ShardTensor<float>& t) {
  const hpart::Box& b = t.box();
  if (b.empty()) return;
  auto h = Kokkos::create_mirror_view(t.view());
  const ht::Index5 e = t.layout().shape().extent, m = t.margins(), n = t.interior_extent();
  for (std::int64_t c = 0; c < n[1]; ++c)
    for (std::int64_t i = 0; i < n[3]; ++i)
      for (std::int64_t j = 0; j < n[4]; ++j)
        h(0, c, 0, m[3] + i, m[4] + j) = value_at(static_cast<std::uint64_t>((c * e[3] + b.lo[3] + i) * e[4] + b.lo[4] + j));
  Kokkos::deep_copy(t.view(), h);
}

// Collective: the checksum of the local arrays (halo cells included when `with_halo`), each value
// keyed by its global cell (padded coordinates, so halo cells have ids too).
std::uint64_t tensor_checksum(const hpart::Comm& comm, const ht::ShardTensor<float>& t, bool with_halo) {
  std::uint64_t s = 0;
  const hpart::Box& b = t.box();
  if (!b.empty()) {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), t.const_view());
    const ht::Index5 e = t.layout().shape().extent, m = t.margins(), n = t.interior_extent();
    const std::int64_t lo_h = with_halo ? -m[3] : 0, hi_h = with_halo ? n[3] + m[3] : n[3];
    const std::int64_t lo_w = with_halo ? -m[4] : 0, hi_w = with_halo ? n[4] + m[4] : n[4];
    for (std::int64_t c = 0; c < n[1]; ++c)
      for (std::int64_t i = lo_h; i < hi_h; ++i)
        for (std::int64_t j = lo_w; j < hi_w; ++j) {
          const float v = h(0, c, 0, m[3] + i, m[4] + j);
          std::uint32_t bits = 0;
          std::memcpy(&bits, &v, sizeof bits);
          const auto cell = static_cast<std::uint64_t>((c * (e[3] + 2) + b.lo[3] + i + 1) * (e[4] + 2) + b.lo[4] + j + 1);
          s += mix(cell, bits);
        }
  }
  return sum_over_ranks(comm, s);
}

class HaloCase final : public ScalingCase {
 public:
  HaloCase(const hpart::Comm& comm, const Sizes& s)
      : ScalingCase("halo", "exchange", s.halo_side * s.halo_side * s.channels, comm.size()), comm_(comm) {
    const auto shape = ht::TensorShape::d2(1, s.channels, s.halo_side, s.halo_side);
    x_ = ht::ShardTensor<float>(ht::ShardLayout::sharded(comm, shape, square_mesh(comm.size())), ht::Halo::uniform(1),
                                "scaling.halo");
    fill(x_);
    exchange_ = ht::HaloExchange<float>(x_, ht::HaloOptions{ht::Padding::zero_each_exchange, ht::HaloTransfer::pack});
  }
  void call() override {
    for (int k = 0; k < kExchangesPerCall; ++k) exchange_.exchange(x_);
    Kokkos::fence();
  }
  Figures figures() override {
    Figures f;
    f.checksum = tensor_checksum(comm_, x_, true);
    return f;
  }

 private:
  const hpart::Comm& comm_;
  ht::ShardTensor<float> x_;
  ht::HaloExchange<float> exchange_;
};

class ConvCase final : public ScalingCase {
 public:
  ConvCase(const hpart::Comm& comm, const Sizes& s)
      : ScalingCase("conv", "conv2d", s.conv_side * s.conv_side * s.channels, comm.size()), comm_(comm),
        conv_(ht::ConvShape{s.channels, s.channels, 1, 3, 3}, true, 5, ht::HaloTransfer::pack) {
    const auto shape = ht::TensorShape::d2(1, s.channels, s.conv_side, s.conv_side);
    x_ = ht::ShardTensor<float>(ht::ShardLayout::sharded(comm, shape, square_mesh(comm.size())), ht::Halo::uniform(1),
                                "scaling.conv.x");
    fill(x_);
    y_ = conv_.make_output(x_);
    dy_ = y_.like("scaling.conv.dy");
    fill(dy_);
    dx_ = x_.like("scaling.conv.dx");
  }
  void call() override {
    conv_.forward(x_, y_);
    conv_.backward(x_, dy_, dx_);
    Kokkos::fence();
  }
  Figures figures() override {
    Figures f;
    f.checksum = tensor_checksum(comm_, y_, false) + tensor_checksum(comm_, dx_, false);
    return f;
  }

 private:
  const hpart::Comm& comm_;
  ht::Conv<float> conv_;
  ht::ShardTensor<float> x_, y_, dy_, dx_;
};

}  // namespace

std::unique_ptr<ScalingCase> make_halo_case(const hpart::Comm& comm, const Sizes& s) {
  return std::make_unique<HaloCase>(comm, s);
}
std::unique_ptr<ScalingCase> make_conv_case(const hpart::Comm& comm, const Sizes& s) {
  return std::make_unique<ConvCase>(comm, s);
}

}  // namespace hpart_scaling
