#pragma once
// The recording side of the counters (mpi_counters.cpp), called by the PMPI wrappers
// (mpi_counters_pmpi.cpp); users read them through mpi_counters.hpp.
#include <string_view>

namespace hpart_scaling::detail {

// One point-to-point send (or one-sided operation) to another rank.
void record_message(long long bytes);
// One collective call; name is a string literal (kept by reference).
void record_collective(std::string_view name, long long bytes);

}  // namespace hpart_scaling::detail
