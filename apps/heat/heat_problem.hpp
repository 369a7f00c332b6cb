#pragma once
// The physics and the moving load of hpart-heat, shared by the distributed run and the serial
// reference of --check (both must compute bit-identical values, so both call these functions).
//
// Heat: u_new = u + alpha * laplacian(u) on an n^dim grid, 5-point (2D) / 7-point (3D) stencil,
// u = 0 outside the domain (fixed boundary). Load: a disk/ball of radius `radius` (in units of
// the domain side) moves in a straight line from `from` to `to` over the run. Every cell does
// `work` sub-steps of its update, hot cells (inside the disk) `work * hot`: the update is split
// into m sub-steps of alpha / m with the neighbours frozen (m = 1 is the plain explicit step;
// large m tends to the exact solution of the cell's ODE over the step), so the extra cost is
// real arithmetic whose result is the cell's new value (it cannot be optimised away), and the
// time of a cell is nearly proportional to m (heat_kernel.cpp): the partitioner is told m / work.
#include <array>
#include <cstdint>

#include "hpart/grid.hpp"  // hpart::Cell

namespace hpart_heat {

struct HeatProblem {
  int dim = 2;
  std::int64_t n = 1024;  // cells per dimension
  double alpha = 0.1;     // diffusion number; stable for alpha <= 1 / (2 dim)
  int hot = 20;           // cost factor inside the disk/ball
  int work = 1;           // sub-steps per unit of cost
  double radius = 0.13;
  int steps = 200;
  std::array<double, 3> from{0.2, 0.3, 0.35}, to{0.8, 0.7, 0.65};

  [[nodiscard]] hpart::Box domain() const {
    return hpart::Box::from_extent(dim, {n, n, dim == 3 ? n : 1, 1});
  }
  // Centre of the hot region during step s (s = 0 .. steps-1): linear in s along the path.
  [[nodiscard]] std::array<double, 3> centre(int s) const {
    const double t = steps > 1 ? static_cast<double>(s) / static_cast<double>(steps - 1) : 0.0;
    std::array<double, 3> c{};
    for (std::size_t d = 0; d < 3; ++d) c[d] = from[d] + t * (to[d] - from[d]);
    return c;
  }
  // Cell centre coordinate in [0, 1] along one dimension.
  [[nodiscard]] double coord(std::int64_t i) const {
    return (static_cast<double>(i) + 0.5) / static_cast<double>(n);
  }
  // Squared distance to the centre in the dimensions other than x (the kernel hoists it per row).
  [[nodiscard]] double row_offset2(std::int64_t y, std::int64_t z, const std::array<double, 3>& c) const {
    const double dy = coord(y) - c[1];
    const double dz = dim == 3 ? coord(z) - c[2] : 0.0;
    return dy * dy + dz * dz;
  }
  [[nodiscard]] bool is_hot(std::int64_t x, double row2, const std::array<double, 3>& c) const {
    const double dx = coord(x) - c[0];
    return dx * dx + row2 < radius * radius;
  }
  // The partitioner's cost of a cell: 1, or `hot` inside the disk (sub-steps / work).
  [[nodiscard]] int cost(const hpart::Cell& cell, const std::array<double, 3>& c) const {
    return is_hot(cell[0], row_offset2(cell[1], cell[2], c), c) ? hot : 1;
  }
  // Initial temperature: a smooth bump that is zero on the boundary.
  [[nodiscard]] double initial(const hpart::Cell& cell) const;
};

}  // namespace hpart_heat
