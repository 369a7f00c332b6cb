#pragma once
// One explicit step on a rank's owned cells: next = update(u), reading u's ghosts.
#include <cstdint>

#include "heat_field.hpp"
#include "heat_problem.hpp"

namespace hpart_heat {

// Computes f.next on f.owned() for step s (OpenMP over rows) and returns the owned cells' cost
// (the sum of HeatProblem::cost), i.e. the load the partitioner would predict for this rank.
// The caller swaps the buffers.
std::int64_t advance(const HeatProblem& p, int s, HeatField& f);

}  // namespace hpart_heat
