#pragma once
// A box of integer cells with inclusive bounds, up to kMaxBoxDim axes: the shape of a grid part,
// of an AMR patch and of a tensor shard. A value type. The box carries its axis order, which says
// what its axes are (cf. heFFTe's box3d):
//   AxisOrder::x_fastest     grids and patches: axis 0 = x (fastest), 1 = y, 2 = z; dim <= 3
//   AxisOrder::last_fastest  tensors: axes N, C, D, H, W (dim 5), the last (W) fastest
// Boxes of different orders never meet: intersect and contact_kind throw on a mix, == and
// same_cells are false.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "hpart/error.hpp"

namespace hpart {

inline constexpr int kMaxBoxDim = 5;

enum class AxisOrder : std::uint8_t {
  x_fastest,     // grid order: x, y, z (grids, patches)
  last_fastest,  // storage order: the last axis fastest (tensors: N, C, D, H, W)
};

struct Box {
  int dim = 0;
  std::array<std::int64_t, kMaxBoxDim> lo{};  // first cell per axis
  std::array<std::int64_t, kMaxBoxDim> hi{};  // last cell per axis (inclusive)
  AxisOrder order = AxisOrder::x_fastest;

  // The box [0, extent) of `dim` axes.
  static Box from_extent(int dim, const std::array<std::int64_t, kMaxBoxDim>& extent,
                         AxisOrder order = AxisOrder::x_fastest) {
    Box b;
    b.dim = dim;
    b.order = order;
    for (int d = 0; d < dim; ++d) b.hi[d] = extent[d] - 1;
    return b;
  }
  // The canonical empty box of `dim` axes: lo 0, hi -1 on every axis.
  static Box none(int dim, AxisOrder order = AxisOrder::x_fastest) {
    Box b;
    b.dim = dim;
    b.order = order;
    for (int d = 0; d < dim; ++d) b.hi[d] = -1;
    return b;
  }
  // Empty when some axis has hi < lo, and when dim is 0.
  [[nodiscard]] bool empty() const {
    for (int d = 0; d < dim; ++d)
      if (hi[d] < lo[d]) return true;
    return dim == 0;
  }
  // Cells along axis d, two ways. size(d) looks at that axis alone: hi < lo there gives 0, the
  // other axes of an empty box keep their widths. extent(d) is the box's cells as an array's
  // extents: 0 along every axis of an empty box (a tensor shard's local extents).
  [[nodiscard]] std::int64_t size(int d) const { return std::max<std::int64_t>(0, hi[d] - lo[d] + 1); }
  [[nodiscard]] std::int64_t extent(int d) const { return empty() ? 0 : hi[d] - lo[d] + 1; }
  [[nodiscard]] std::array<std::int64_t, kMaxBoxDim> extents() const {
    std::array<std::int64_t, kMaxBoxDim> e{};
    const bool none = empty();
    for (int d = 0; d < dim; ++d) e[d] = none ? 0 : hi[d] - lo[d] + 1;
    return e;
  }
  [[nodiscard]] std::int64_t volume() const {
    if (dim == 0) return 0;
    std::int64_t v = 1;
    for (int d = 0; d < dim; ++d) v *= size(d);
    return v;
  }
  [[nodiscard]] bool contains(const std::array<std::int64_t, kMaxBoxDim>& cell) const {
    for (int d = 0; d < dim; ++d)
      if (cell[d] < lo[d] || cell[d] > hi[d]) return false;
    return true;
  }
  // The box grown by `width` cells on every side (not clipped).
  [[nodiscard]] Box grown(std::int64_t width) const {
    Box b = *this;
    for (int d = 0; d < dim; ++d) b.lo[d] -= width, b.hi[d] += width;
    return b;
  }
  // The common cells, as a box of this box's dim (empty, not canonical, when there are none).
  [[nodiscard]] Box intersect(const Box& o) const {
    same_order(o, "Box::intersect");
    Box b = *this;
    for (int d = 0; d < dim; ++d) b.lo[d] = std::max(lo[d], o.lo[d]), b.hi[d] = std::min(hi[d], o.hi[d]);
    return b;
  }
  // Equal bounds (and dim and order): two empty boxes with different bounds differ.
  friend bool operator==(const Box& a, const Box& b) {
    if (a.dim != b.dim || a.order != b.order) return false;
    for (int d = 0; d < a.dim; ++d)
      if (a.lo[d] != b.lo[d] || a.hi[d] != b.hi[d]) return false;
    return true;
  }
  // The same set of cells: equal, or both empty (of the same dim and order).
  [[nodiscard]] bool same_cells(const Box& o) const {
    if (dim != o.dim || order != o.order) return false;
    if (empty() || o.empty()) return empty() && o.empty();
    return *this == o;
  }
  // "[lo..hi, ...]" axis by axis in the box's order; an empty tensor-order box is "[empty]".
  [[nodiscard]] std::string str() const {
    if (order == AxisOrder::last_fastest && empty()) return "[empty]";
    std::string s = "[";
    for (int d = 0; d < dim; ++d)
      s += (d ? ", " : "") + std::to_string(lo[d]) + ".." + std::to_string(hi[d]);
    return s + "]";
  }
  // Throws hpart::Error (invalid_argument) naming `where` when `o` has another axis order.
  void same_order(const Box& o, const char* where) const {
    if (order != o.order)
      throw Error(ErrorCode::invalid_argument,
                  std::string(where) + ": boxes of different axis orders (grid x_fastest and tensor last_fastest)");
  }
};

// How two disjoint boxes within reach of each other touch: the number of dimensions in which they
// are apart (1 face, 2 edge, 3 corner); 1 when they overlap.
inline int contact_kind(const Box& a, const Box& b) {
  a.same_order(b, "contact_kind");
  int separated = 0;
  for (int d = 0; d < a.dim; ++d)
    separated += (a.hi[static_cast<std::size_t>(d)] < b.lo[static_cast<std::size_t>(d)] ||
                  b.hi[static_cast<std::size_t>(d)] < a.lo[static_cast<std::size_t>(d)])
                     ? 1
                     : 0;
  return std::max(separated, 1);
}

}  // namespace hpart
