#pragma once
// A fast screen for graph symmetry: a 128-bit fingerprint of the adjacency that is zero for every
// symmetric graph, and a per-row duplicate check. Pure (no MPI); the caller sums fingerprints
// over ranks. Nonzero proves a defect; zero means symmetric except with probability ~2^-128 per
// defective graph (two independent 64-bit hashes), which is why validate_graph runs the exact,
// message-producing check only when the screen fails.
#include <cstdint>
#include <vector>

#include "hpart/graph.hpp"

namespace hpart::detail {

struct EdgeFingerprint {
  std::uint64_t a = 0, b = 0;  // sums mod 2^64 of +-H(min, max, w) over entries (+ if from < to)
  bool duplicate = false;      // some row lists a neighbour twice
  // The lowest local vertex with a bad value (a neighbour outside [0, N), itself, an edge weight
  // <= 0, a negative vertex weight, a non-finite coordinate), or -1: validate_graph's value check,
  // taken in the same pass over the edges.
  std::int64_t first_bad = -1;
  // The rank's weight totals, taken in the same pass: per constraint the vertex weights (unit
  // weights count 1), then the edge weights over the adjacency entries (each edge at both ends),
  // then the entries. Each saturates at kTotalLimit, so that no sum wraps, on any rank or in the
  // exact global sum (find_graph_asymmetry). Meaningful only when first_bad is -1.
  std::vector<std::uint64_t> totals;
};

// Totals are exact below this bound (2^62) and saturate at it.
inline constexpr std::uint64_t kTotalLimit = std::uint64_t{1} << 62;
// a + b saturated at kTotalLimit (a <= kTotalLimit, b < 2^63: the sum cannot wrap).
inline std::uint64_t add_saturated(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t s = a + b;
  return s < kTotalLimit ? s : kTotalLimit;
}

// Over the rank's rows (structurally valid: lengths and offsets checked); `base` is the global id
// of its first vertex.
EdgeFingerprint edge_fingerprint(const Graph& g, gid_t base);

}  // namespace hpart::detail
