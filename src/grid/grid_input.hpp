#pragma once
// What every grid method needs first: validated input (agreed across ranks), the rank's local
// cells in row-major order, and their costs in exact fixed point.
#include <cstdint>
#include <string>
#include <vector>

#include "core/agreement.hpp"
#include "core/fixed_point.hpp"
#include "hpart/grid.hpp"

namespace hpart::grid {

// The cells of a box in row-major order, x fastest: index <-> cell.
struct BoxCells {
  Box box;
  std::int64_t nx = 0, ny = 1, nz = 1;

  explicit BoxCells(const Box& b) : box(b) {
    if (b.empty()) return;
    nx = b.size(0);
    ny = b.dim > 1 ? b.size(1) : 1;
    nz = b.dim > 2 ? b.size(2) : 1;
  }
  [[nodiscard]] std::size_t size() const { return static_cast<std::size_t>(nx * ny * nz); }
  [[nodiscard]] Cell cell(std::size_t i) const {
    const auto k = static_cast<std::int64_t>(i);
    return {box.lo[0] + k % nx, box.lo[1] + (k / nx) % ny, box.lo[2] + k / (nx * ny), 0};
  }
};

// Calls f(index, cell_x, y, z, count) for every x-row of `sub` (a box inside `cells.box`): the
// local index of the row's first cell, its coordinates, and its length. Rows are contiguous in
// the local arrays, so methods stream through them without per-cell index arithmetic.
template <class F>
void for_each_row(const BoxCells& cells, const Box& sub, F&& f) {
  if (sub.empty()) return;
  const Box& b = cells.box;
  const std::int64_t z0 = b.dim > 2 ? sub.lo[2] : 0, z1 = b.dim > 2 ? sub.hi[2] : 0;
  const std::int64_t y0 = b.dim > 1 ? sub.lo[1] : 0, y1 = b.dim > 1 ? sub.hi[1] : 0;
  const std::int64_t by = b.dim > 1 ? b.lo[1] : 0, bz = b.dim > 2 ? b.lo[2] : 0;
  for (std::int64_t z = z0; z <= z1; ++z)
    for (std::int64_t y = y0; y <= y1; ++y) {
      const auto index = static_cast<std::size_t>((sub.lo[0] - b.lo[0]) + cells.nx * ((y - by) + cells.ny * (z - bz)));
      f(index, sub.lo[0], y, z, sub.hi[0] - sub.lo[0] + 1);
    }
}

// The validated, agreed view of the input shared by all methods.
struct GridInput {
  const Grid* grid = nullptr;
  BoxCells local{Box{}};
  long long global_cells = 0;
  bool unit_cost = true;        // no rank passed costs
  int exponent = 0;              // fixed-point exponent of the costs
  detail::FixedPoint weight{0};  // cost -> exact integer weight

  [[nodiscard]] std::int64_t weight_of(std::size_t i) const {
    return unit_cost ? 1 : weight(grid->cost[i]);
  }
};

// dim 2 or 3 and every extent in [1, 2^31] (2D) or [1, 2^21] (3D): the curve key resolution.
std::string check_grid_shape(int dim, const std::array<std::int64_t, 3>& extent);

// What every rank must pass alike about a grid: dim, extent, and whether costs are given (ranks
// holding no cells do not vote on that).
void replicate_grid(detail::Replicated& args, const Grid& grid);

// Collective: every check of the grid, its boxes and costs, and of the options; throws the same
// hpart::Error on every rank.
GridInput prepare_grid(const Comm& comm, const Grid& grid, const GridOptions& opts);

}  // namespace hpart::grid
