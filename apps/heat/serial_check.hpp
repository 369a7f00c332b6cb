#pragma once
// --check: gather the distributed temperature on rank 0, run the same steps serially on the
// whole grid there (same kernel, one box, no exchange), and compare.
#include "heat_field.hpp"
#include "heat_problem.hpp"
#include "hpart/comm.hpp"

namespace hpart_heat {

// Collective. Returns max |distributed - serial| over all cells on every rank (broadcast, so
// every rank exits with the same status).
double check_against_serial(const hpart::Comm& comm, const HeatProblem& p, const HeatField& f);

}  // namespace hpart_heat
