#pragma once
// A one-level U-Net: conv -> GELU at full resolution (e), 2x average pool, conv -> GELU at half
// resolution, nearest 2x upsample added to e (the skip), conv to one channel. It needs shards
// aligned to 2 (the layout's SplitOptions::align_levels >= 1).
#include <vector>

#include "hpart/tensor/layers.hpp"

namespace hpart_train {

template <class T>
class HeatUnet {
 public:
  HeatUnet(int channels, std::uint64_t seed);
  double step(hpart::tensor::ShardTensor<T>& x, const hpart::tensor::ShardTensor<T>& target);
  [[nodiscard]] std::vector<hpart::tensor::Parameter<T>> parameters() const;
  [[nodiscard]] std::int64_t parameter_count() const;

 private:
  void allocate(const hpart::tensor::ShardTensor<T>& x);
  hpart::tensor::Conv<T> enc_, mid_, dec_;
  hpart::tensor::Pool2<T> pool_{hpart::tensor::Pool::average};
  hpart::tensor::Upsample2<T> up_{hpart::tensor::Upsample::nearest};
  // Forward values and their gradients (d*), full resolution unless noted.
  hpart::tensor::ShardTensor<T> z1_, e_, p_ /*half*/, z2_ /*half*/, m_ /*half*/, u_, s_, out_;
  hpart::tensor::ShardTensor<T> dx_, dz1_, de_, dp_, dz2_, dm_, ds_, dout_;
};

}  // namespace hpart_train
