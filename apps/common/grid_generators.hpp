#pragma once
// Generated cost fields for grids (benchmarks, CLI): the costs of a rank's local box.
#include <vector>

#include "hpart/grid.hpp"

namespace hpart_apps {

// Cost 1 everywhere plus `peak` inside a disk (2D) or ball (3D) covering 5% of the domain (as a
// fraction of each side: centre (0.35, 0.6[, 0.45])). Returns grid.local.volume() values,
// row-major over grid.local, x fastest; OpenMP-parallel.
std::vector<double> hotspot_cost(const hpart::Grid& grid, double peak);

}  // namespace hpart_apps
