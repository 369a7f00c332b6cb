#pragma once
// Metrics shared by every partitioner, on input that the caller has already validated.
#include <span>
#include <vector>

#include "hpart/partition.hpp"

namespace hpart::detail {

// Collective: part weights, sizes and imbalance of an already-validated part vector.
Partition summarise_partition(const Comm& comm, std::vector<part_t> parts, int num_parts,
                              std::span<const double> weights, int ncon, std::span<const double> target_sizes);

}  // namespace hpart::detail
