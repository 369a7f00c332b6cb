#include "grid/grid_locator.hpp"

#include <algorithm>
#include <bit>

#include "kernels/sfc_keys.hpp"

namespace hpart {

part_t GridPartition::part_of(const Cell& cell) const { return locator ? locator->part_of(cell) : 0; }

}  // namespace hpart

namespace hpart::grid {

CellKeys CellKeys::for_grid(const Grid& g, Curve curve) {
  CellKeys k;
  k.dim = g.dim;
  k.curve = curve;
  std::int64_t longest = 1;
  for (int d = 0; d < g.dim; ++d) longest = std::max(longest, g.extent[static_cast<std::size_t>(d)]);
  const int bits = std::max(1, static_cast<int>(std::bit_width(static_cast<std::uint64_t>(longest - 1))));
  const int step = g.dim == 2 ? geometry::kHilbertLevelsPerStep2d : geometry::kHilbertLevelsPerStep3d;
  const int max_levels = g.dim == 2 ? geometry::kBits2d : geometry::kBits3d;
  k.levels = std::min(max_levels, (bits + step - 1) / step * step);
  k.shift = k.levels - bits;
  return k;
}

std::uint64_t CellKeys::key(const Cell& c) const {
  const auto x = static_cast<std::uint32_t>(c[0] << shift), y = static_cast<std::uint32_t>(c[1] << shift);
  if (dim == 2)
    return curve == Curve::hilbert ? geometry::hilbert_key_2d_levels(x, y, levels)
                                    : geometry::morton_key_2d_levels(x, y, levels);
  const auto z = static_cast<std::uint32_t>(c[2] << shift);
  return curve == Curve::hilbert ? geometry::hilbert_key_3d_levels(x, y, z, levels)
                                  : geometry::morton_key_3d_levels(x, y, z, levels);
}

part_t CurveLocator::part_of(const Cell& cell) const {
  const sfc::Order v = sfc::make_order(keys.key(cell), 0);
  return static_cast<part_t>(std::upper_bound(inner.begin(), inner.end(), v) - inner.begin());
}

part_t TreeLocator::part_of(const Cell& cell) const {
  int n = 0;
  while (nodes[static_cast<std::size_t>(n)].lower >= 0) {
    const CutNode& node = nodes[static_cast<std::size_t>(n)];
    n = cell[static_cast<std::size_t>(node.dim)] >= node.cut ? node.upper : node.lower;
  }
  return nodes[static_cast<std::size_t>(n)].first;
}

part_t TensorLocator::part_of(const Cell& cell) const {
  part_t p = 0, stride = 1;
  for (int d = 0; d < dim; ++d) {
    const auto& s = starts[static_cast<std::size_t>(d)];
    const auto i = std::upper_bound(s.begin(), s.end(), cell[static_cast<std::size_t>(d)]) - s.begin() - 1;
    p += static_cast<part_t>(i) * stride;
    stride *= static_cast<part_t>(s.size());
  }
  return p;
}

}  // namespace hpart::grid
