#pragma once
// Collective relabelling of a fresh partition to keep most weight in its old part.
#include <cstdint>
#include <span>
#include <vector>

#include "hpart/comm.hpp"
#include "hpart/int_span.hpp"
#include "hpart/types.hpp"

namespace hpart::repart {

// Relabels new_parts in place (new part j becomes label[j]) so that the weight staying in its
// old part is (greedily) maximal; returns label, identical on every rank. weights: the first
// weight per object, stride ncon (empty: unit weights). The overlaps are summed locally and
// gathered on rank 0: O(distinct (old, new) pairs) per rank, never O(objects).
std::vector<int> relabel_to_overlap(const Comm& comm, std::span<const part_t> old_parts, std::vector<part_t>& new_parts,
                                    std::span<const double> weights, int ncon, int num_parts);
// The same with a graph's integer vertex weights at either width, read in place (each converted
// to double where it is added: the same result as a copy to double, without the copy).
std::vector<int> relabel_to_overlap(const Comm& comm, std::span<const part_t> old_parts, std::vector<part_t>& new_parts,
                                    IntSpan weights, int ncon, int num_parts);

}  // namespace hpart::repart
