#pragma once
// Metrics shared by every partitioner, on input that the caller has already validated.
#include <cstdint>
#include <span>
#include <vector>

#include "hpart/int_span.hpp"
#include "hpart/partition.hpp"

namespace hpart::detail {

// Collective: part weights, sizes and imbalance of an already-validated part vector.
Partition summarise_partition(const Comm& comm, std::vector<part_t> parts, int num_parts,
                              std::span<const double> weights, int ncon, std::span<const double> target_sizes);
// The same for a graph's integer vertex weights at either width, read in place (no copy to
// double): the sums are those of the weights converted to double, bit for bit.
Partition summarise_partition(const Comm& comm, std::vector<part_t> parts, int num_parts,
                              IntSpan weights, int ncon, std::span<const double> target_sizes);

// The same from global part weights (K x ncon) and sizes already summed over the ranks (e.g.
// kept up to date by an incremental repartitioner, which then needs no pass over the objects).
// Local, no MPI.
Partition partition_from_totals(std::vector<part_t> parts, int num_parts, int ncon, std::vector<double> part_weights,
                                std::vector<long long> part_sizes, std::span<const double> target_sizes);

// Records the tolerance a call was asked to meet and whether every constraint's imbalance is
// within it (up to rounding: 1e-9 relative).
void record_tolerance(Partition& p, double tolerance);

}  // namespace hpart::detail
