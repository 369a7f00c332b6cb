#pragma once
// The one adapter to METIS: a graph and a request in METIS's own integer and real types, one call
// (k-way or recursive bisection, with a seed and the best of several cuts), the status and the
// parts. Every METIS call of hpart goes through it (the multilevel kernel's initial partition and
// the metis method, and the hierarchy's node-level cut of a grid's block graph), so the options
// are set one way and the idx_t limits are dealt with in one place.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hpart/version.hpp"  // HPART_HAVE_METIS

#if HPART_HAVE_METIS
#include <metis.h>
#else
// Built without METIS (HPART_WITH_METIS=OFF): METIS's types as in Debian's build, so the callers
// compile unchanged; run_metis throws (the public calls that reach it check first, on every rank).
using idx_t = std::int32_t;
using real_t = float;
inline constexpr int METIS_OK = 1;
#endif

namespace hpart::graphk {

// idx_t is 32 bits in Debian's build, and METIS sums weights in it: callers keep each
// constraint's weight total and the edge weight total below this before they round (see
// metis_weights).
constexpr double kMetisWeightLimit = static_cast<double>(std::int64_t{1} << 29);

struct MetisProblem {
  std::vector<idx_t> xadj, adjncy, vwgt, adjwgt;  // CSR, vertex-major weights; adjwgt empty: unit
  idx_t ncon = 1, parts = 2;
  std::vector<real_t> tpwgts;  // parts x ncon target shares, each constraint's summing to 1
  std::vector<real_t> ubvec;   // per constraint: 1 + the imbalance tolerance
  idx_t seed = 1;              // METIS_OPTION_SEED
  idx_t cuts = 1;              // METIS_OPTION_NCUTS: partitions computed, the smallest cut kept
  bool kway = true;            // METIS_PartGraphKway, else METIS_PartGraphRecursive
};

struct MetisResult {
  int status = METIS_OK;   // METIS's return code
  std::vector<idx_t> part;  // one per vertex (zeros when status is not METIS_OK)
};

// The name of the METIS function a problem calls, for messages.
const char* metis_function(bool kway);

// METIS on `p` (which METIS may reorder internally; the arrays are not changed for the caller).
// Built without METIS: throws hpart::Error (a safety net: every public call that gets here
// checks with detail::require_dependency at its entry, on every rank).
MetisResult run_metis(MetisProblem& p);

// Constraint c of weights `w` (stride values per vertex) in idx_t: scaled down when `total`
// passes kMetisWeightLimit, rounded to the nearest integer, at least `floor_value` (1 for edge
// weights: an edge must keep a weight).
std::vector<idx_t> metis_weights(std::span<const std::int64_t> w, std::size_t stride, std::size_t c, double total,
                                 idx_t floor_value);

}  // namespace hpart::graphk
