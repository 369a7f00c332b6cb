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

std::string TensorBox::str() const {
  if (empty()) return "[empty]";
  std::string s = "[";
  for (int a = 0; a < kRank; ++a)
    s += (a ? ", " : "") + std::to_string(lo[static_cast<std::size_t>(a)]) + ".." +
         std::to_string(hi[static_cast<std::size_t>(a)]);
  return s + "]";
}

Box TensorBox::spatial(int spatial_dims) const {
  Box b;
  b.dim = spatial_dims;
  // Grid order: x = W, y = H, z = D.
  const int axes[3] = {kAxisW, kAxisH, kAxisD};
  for (int d = 0; d < spatial_dims; ++d) {
    const auto ua = static_cast<std::size_t>(axes[d]);
    b.lo[static_cast<std::size_t>(d)] = lo[ua];
    b.hi[static_cast<std::size_t>(d)] = empty() ? lo[ua] - 1 : hi[ua];
  }
  return b;
}

}  // namespace hpart::tensor
