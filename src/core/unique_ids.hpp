#pragma once
// The global check that object ids are non-negative and given once.
#include <span>

#include "hpart/comm.hpp"
#include "hpart/int_span.hpp"
#include "hpart/types.hpp"

namespace hpart::detail {

// Collective: throws hpart::Error(invalid_input) on every rank, naming the id and the ranks that
// hold it, if an id is negative or appears more than once on any rank or across ranks.
// Ids that ascend within each rank and across ranks in rank order (file positions, generators,
// any contiguous numbering) are unique by construction: one pass, one MPI_Exscan and one
// allreduce prove it. Otherwise each id goes to the rank its hash picks, which sorts what it
// gets: O(n / R) memory per rank, never the global set on one rank.
void require_unique_ids(const Comm& comm, IntSpan ids, const char* who);

}  // namespace hpart::detail
