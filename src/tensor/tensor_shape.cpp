// Text forms and conversions of the tensor value types.
#include <string>

#include "hpart/tensor/layout.hpp"

namespace hpart::tensor {

std::string TensorShape::str() const {
  const char* names = "NCDHW";
  std::string s = "(";
  for (int a = 0; a < kRank; ++a) {
    if (a == kAxisD && spatial_dims == 2) continue;
    if (s.size() > 1) s += ", ";
    s += std::string(1, names[a]) + "=" + std::to_string(extent[static_cast<std::size_t>(a)]);
  }
  return s + ")";
}

Box spatial_box(const Box& t, int spatial_dims) {
  if (t.dim != kRank || t.order != AxisOrder::last_fastest)
    throw Error(ErrorCode::invalid_argument, "spatial_box: " + t.str() + " is not a tensor box (N, C, D, H, W)");
  Box b;
  b.dim = spatial_dims;
  const bool empty = t.empty();
  // Grid order: x = W, y = H, z = D.
  const int axes[3] = {kAxisW, kAxisH, kAxisD};
  for (int d = 0; d < spatial_dims; ++d) {
    const auto ua = static_cast<std::size_t>(axes[d]);
    b.lo[static_cast<std::size_t>(d)] = t.lo[ua];
    b.hi[static_cast<std::size_t>(d)] = empty ? t.lo[ua] - 1 : t.hi[ua];
  }
  return b;
}

}  // namespace hpart::tensor
