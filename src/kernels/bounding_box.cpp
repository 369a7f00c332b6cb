#include "kernels/bounding_box.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "hpart/error.hpp"

namespace hpart::geometry {

CellMapper::CellMapper(const BoundingBox& box, int dim, int bits) {
  if (dim < 1 || dim > 3)
    throw Error(ErrorCode::invalid_argument,
                "CellMapper: dim must be 1, 2 or 3, got " + std::to_string(dim));
  if (bits < 1 || bits > 32)
    throw Error(ErrorCode::invalid_argument,
                "CellMapper: bits per axis must be in [1, 32], got " + std::to_string(bits));

  double longest = 0.0;
  for (int axis = 0; axis < dim; ++axis) {
    lo[axis] = box.lo[axis];
    const double extent = box.hi[axis] - box.lo[axis];
    if (extent > longest) longest = extent;
  }
  max_cell = static_cast<std::uint32_t>((std::uint64_t{1} << bits) - 1);

  // The box itself is not checked here: a non-finite extent (NaN or infinite corner) or an
  // empty one leaves scale 0, so every point lands in cell 0 rather than in undefined casts.
  if (!(longest > 0.0) || !std::isfinite(longest)) return;
  // 2^bits rather than max_cell cells per longest side: the half-open cells [k, k+1) then have
  // equal widths, and only the far face itself (c == 2^bits) needs the clamp to max_cell.
  scale = std::ldexp(1.0, bits) / longest;
  // A subnormal extent overflows the division; the largest finite scale still separates the
  // points and keeps (x - lo) * scale free of inf * 0.
  if (!std::isfinite(scale)) scale = std::numeric_limits<double>::max();
}

}  // namespace hpart::geometry
