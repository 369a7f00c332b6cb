#pragma once
// Axis-aligned bounding box of a point cloud and the map from coordinates to curve cells.
#include <array>
#include <cstdint>

namespace hpart::geometry {

struct BoundingBox {
  std::array<double, 3> lo{0, 0, 0};
  std::array<double, 3> hi{0, 0, 0};
};

// Maps coordinates to integer cells of a 2^bits grid per axis. The box is scaled uniformly by
// its longest side, so curve cells are cubes and parts keep the aspect ratio of the data; a
// degenerate axis (all points on a plane or a line, or one point) maps to cell 0 on that axis.
// scale = 2^bits / longest side, and the far face clamps to max_cell = 2^bits - 1; a box whose
// longest side is 0 (or not finite) gets scale 0, i.e. every point in cell 0. Axes >= dim are
// ignored. The constructor throws hpart::Error (invalid_argument) unless 1 <= dim <= 3 and
// 1 <= bits <= 32.
struct CellMapper {
  std::array<double, 3> lo{0, 0, 0};
  double scale = 0.0;     // cells per unit length
  std::uint32_t max_cell = 0;

  CellMapper(const BoundingBox& box, int dim, int bits);
  [[nodiscard]] std::uint32_t cell(double x, int axis) const {
    const double c = (x - lo[axis]) * scale;
    if (!(c > 0.0)) return 0;  // also catches NaN, though validation rejects it earlier
    if (c >= static_cast<double>(max_cell)) return max_cell;
    return static_cast<std::uint32_t>(c);
  }
};

}  // namespace hpart::geometry
