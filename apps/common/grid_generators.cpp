#include "grid_generators.hpp"

#include <cmath>
#include <cstddef>

namespace hpart_apps {

std::vector<double> hotspot_cost(const hpart::Grid& grid, double peak) {
  const hpart::Box& box = grid.local;
  const auto n = static_cast<std::size_t>(box.empty() ? 0 : box.volume());
  std::vector<double> cost(n);
  const int dim = grid.dim;
  // pi r^2 = 0.05 (2D), 4/3 pi r^3 = 0.05 (3D), in units of the side.
  const double radius = dim == 2 ? std::sqrt(0.05 / M_PI) : std::cbrt(0.05 * 3.0 / (4.0 * M_PI));
  const double centre[3] = {0.35, 0.6, 0.45};
  const std::int64_t nx = box.empty() ? 1 : box.size(0), ny = box.empty() || dim < 2 ? 1 : box.size(1);
  const auto sn = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < sn; ++i) {
    const std::int64_t k = i;
    const std::int64_t c[3] = {box.lo[0] + k % nx, box.lo[1] + (k / nx) % ny, dim == 3 ? box.lo[2] + k / (nx * ny) : 0};
    double r2 = 0.0;
    for (int d = 0; d < dim; ++d) {
      const double u = (static_cast<double>(c[d]) + 0.5) / static_cast<double>(grid.extent[static_cast<std::size_t>(d)]) - centre[d];
      r2 += u * u;
    }
    cost[static_cast<std::size_t>(i)] = 1.0 + (r2 < radius * radius ? peak : 0.0);
  }
  return cost;
}

}  // namespace hpart_apps
