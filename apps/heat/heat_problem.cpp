#include "heat_problem.hpp"

#include <cmath>
#include <numbers>

namespace hpart_heat {

double HeatProblem::initial(const hpart::Cell& cell) const {
  double v = 1.0;
  for (int d = 0; d < dim; ++d) v *= std::sin(std::numbers::pi * coord(cell[static_cast<std::size_t>(d)]));
  return v;
}

}  // namespace hpart_heat
