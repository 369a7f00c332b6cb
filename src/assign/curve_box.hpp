#pragma once
// Which curve ranges meet a box of cells, without visiting its cells: both curves fill every
// aligned cube of 2^s cells per axis in one contiguous run of keys (key >> (n s) depends only on
// the cell >> s; sfc_keys.hpp), so a cube's keys are one interval. Descend from the cube that
// holds the whole grid: a cube outside the box is dropped, a cube inside it or whose keys lie in
// one range reports its ranges, any other is split into its 2^n children. Only cubes on the box's
// surface that straddle a splitter are split, so the work follows the box's surface and the
// ranges it meets, not its volume; at single cells the answer is exact.
#include <array>
#include <cstdint>

namespace hpart::detail {

using CellIndex = std::array<std::uint32_t, 3>;

// key(cell) -> curve key; mask(s) -> the key bits that vary inside an aligned cube of 2^s cells;
// ranges(kmin, kmax, &r0, &r1) -> the inclusive run of ranges that hold keys in [kmin, kmax];
// mark(r0, r1) records them. top: the level whose one cube covers the grid.
// sparse: the keys of a cube include keys of no cell (grid keys on a finer key grid, cells
// scaled by 2^shift onto it), so a range may meet a cube's keys without holding one of its
// cells: a cube inside the box is then split like the others, and a single cell looks up its
// own key only.
template <class Key, class Mask, class Ranges, class Mark>
void descend_box(int dim, int level, const CellIndex& corner, const CellIndex& lo, const CellIndex& hi,
                 const Key& key, const Mask& mask, const Ranges& ranges, const Mark& mark, bool sparse = false) {
  const std::uint64_t side = std::uint64_t{1} << level;
  bool inside = true;
  for (int a = 0; a < dim; ++a) {
    const std::uint64_t c0 = corner[a], c1 = c0 + side - 1;
    if (c1 < lo[a] || c0 > hi[a]) return;  // outside the box
    inside = inside && c0 >= lo[a] && c1 <= hi[a];
  }
  const std::uint64_t m = level == 0 ? 0 : mask(level), k = key(corner);
  int r0 = 0, r1 = 0;
  ranges(k & ~m, k | m, &r0, &r1);
  if ((inside && !sparse) || r0 == r1 || level == 0) {
    mark(r0, r1);
    return;
  }
  const auto half = static_cast<std::uint32_t>(side >> 1);
  for (int child = 0; child < (1 << dim); ++child) {
    CellIndex c = corner;
    for (int a = 0; a < dim; ++a)
      if (child & (1 << a)) c[a] += half;
    descend_box(dim, level - 1, c, lo, hi, key, mask, ranges, mark, sparse);
  }
}

// The key bits that vary inside an aligned cube of 2^s cells per axis in dim dimensions, for
// left-aligned keys whose lowest `zero_bits` are always 0 (coarse grid keys): those stay out of
// the mask, so k | mask is the cube's last real key (a splitter may sit just above it).
inline std::uint64_t cube_mask(int dim, int s, int zero_bits) {
  const int b = zero_bits + dim * s;
  const std::uint64_t upto = b >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << b) - 1;
  const std::uint64_t zeros = zero_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << zero_bits) - 1;
  return upto & ~zeros;
}

}  // namespace hpart::detail
