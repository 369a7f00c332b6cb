#pragma once
// The "assign" suite: point and box assign through hpart::PartitionMap (include/hpart/assign.hpp)
// on a partition of generated points: located points per second per core.
#include <cstdint>
#include <string>

namespace hpart_bench {

// Collective over MPI_COMM_WORLD. Partitions 10^6 uniform3d points into `parts` parts (hilbert,
// then morton), builds the map, and times map.assign on `queries` random coordinates per rank
// (a box 10% larger than the points', so some lie outside and are clamped), best of `reps`;
// then 10^4 small boxes (parts_in_box). Records go to `json` ("" = table only). Returns the exit
// status.
int run_assign_command(long long queries, int parts, int reps, std::uint64_t seed, const std::string& json);

}  // namespace hpart_bench
