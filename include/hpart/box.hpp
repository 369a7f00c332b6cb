#pragma once
// An N-dimensional box of integer cells with inclusive bounds: the shape of a grid part, of an
// AMR patch, and (later) of a tensor shard. A value type; dim <= kMaxBoxDim.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

namespace hpart {

inline constexpr int kMaxBoxDim = 4;

struct Box {
  int dim = 0;
  std::array<std::int64_t, kMaxBoxDim> lo{};  // first cell per dimension
  std::array<std::int64_t, kMaxBoxDim> hi{};  // last cell per dimension (inclusive)

  static Box from_extent(int dim, const std::array<std::int64_t, kMaxBoxDim>& extent) {
    Box b;
    b.dim = dim;
    for (int d = 0; d < dim; ++d) b.hi[d] = extent[d] - 1;
    return b;
  }
  [[nodiscard]] bool empty() const {
    for (int d = 0; d < dim; ++d)
      if (hi[d] < lo[d]) return true;
    return dim == 0;
  }
  [[nodiscard]] std::int64_t size(int d) const { return std::max<std::int64_t>(0, hi[d] - lo[d] + 1); }
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
  [[nodiscard]] Box intersect(const Box& o) const {
    Box b = *this;
    for (int d = 0; d < dim; ++d) b.lo[d] = std::max(lo[d], o.lo[d]), b.hi[d] = std::min(hi[d], o.hi[d]);
    return b;
  }
  friend bool operator==(const Box& a, const Box& b) {
    if (a.dim != b.dim) return false;
    for (int d = 0; d < a.dim; ++d)
      if (a.lo[d] != b.lo[d] || a.hi[d] != b.hi[d]) return false;
    return true;
  }
  [[nodiscard]] std::string str() const {
    std::string s = "[";
    for (int d = 0; d < dim; ++d)
      s += (d ? ", " : "") + std::to_string(lo[d]) + ".." + std::to_string(hi[d]);
    return s + "]";
  }
};

// How two disjoint boxes within reach of each other touch: the number of dimensions in which they
// are apart (1 face, 2 edge, 3 corner); 1 when they overlap.
inline int contact_kind(const Box& a, const Box& b) {
  int separated = 0;
  for (int d = 0; d < a.dim; ++d)
    separated += (a.hi[static_cast<std::size_t>(d)] < b.lo[static_cast<std::size_t>(d)] ||
                  b.hi[static_cast<std::size_t>(d)] < a.lo[static_cast<std::size_t>(d)])
                     ? 1
                     : 0;
  return std::max(separated, 1);
}

}  // namespace hpart
