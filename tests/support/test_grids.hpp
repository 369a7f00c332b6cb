#pragma once
// Test grids: a global grid split into slabs of its last dimension over the ranks (unevenly:
// rank 0 holds none at np >= 3), with a deterministic cost field that has a hotspot.
#include <cmath>
#include <vector>

#include "hpart/grid.hpp"
#include "test_points.hpp"

namespace hpart::testing {

struct LocalGrid {
  hpart::Grid grid;
  std::vector<double> cost;
};

// Cost 1 plus `peak` inside a disk/ball of radius 0.15 * extent[0] around (0.3, 0.6[, 0.5]).
inline double hotspot_cost(const hpart::Cell& c, const hpart::Grid& g, double peak) {
  const double cx[3] = {0.3, 0.6, 0.5};
  double r2 = 0.0;
  for (int d = 0; d < g.dim; ++d) {
    const double u = (static_cast<double>(c[static_cast<std::size_t>(d)]) + 0.5) / static_cast<double>(g.extent[static_cast<std::size_t>(d)]) - cx[d];
    r2 += u * u;
  }
  return 1.0 + (r2 < 0.15 * 0.15 ? peak : 0.0);
}

inline LocalGrid slab_grid(int dim, std::array<std::int64_t, 3> extent, int rank, int ranks, double peak) {
  LocalGrid lg;
  lg.grid.dim = dim;
  lg.grid.extent = extent;
  const int last = dim - 1;
  const auto [b, e] = uneven_block(extent[static_cast<std::size_t>(last)], rank, ranks);
  Box box = Box::from_extent(dim, {extent[0], extent[1], extent[2], 1});
  box.lo[static_cast<std::size_t>(last)] = b;
  box.hi[static_cast<std::size_t>(last)] = e - 1;
  lg.grid.local = box;
  if (peak > 0.0 && !box.empty()) {
    const auto n = static_cast<std::size_t>(box.volume());
    lg.cost.resize(n);
    const std::int64_t nx = box.size(0), ny = box.size(1);
    for (std::size_t i = 0; i < n; ++i) {
      const auto k = static_cast<std::int64_t>(i);
      const hpart::Cell c{box.lo[0] + k % nx, box.lo[1] + (k / nx) % ny, dim == 3 ? box.lo[2] + k / (nx * ny) : 0, 0};
      lg.cost[i] = hotspot_cost(c, lg.grid, peak);
    }
  }
  lg.grid.cost = lg.cost;
  return lg;
}

}  // namespace hpart::testing
