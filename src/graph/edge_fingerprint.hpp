#pragma once
// A fast screen for graph symmetry: a 128-bit fingerprint of the adjacency that is zero for every
// symmetric graph, and a per-row duplicate check. Pure (no MPI); the caller sums fingerprints
// over ranks. Nonzero proves a defect; zero means symmetric except with probability ~2^-128 per
// defective graph (two independent 64-bit hashes), which is why validate_graph runs the exact,
// message-producing check only when the screen fails.
#include <cstdint>

#include "hpart/graph.hpp"

namespace hpart::detail {

struct EdgeFingerprint {
  std::uint64_t a = 0, b = 0;  // sums mod 2^64 of +-H(min, max, w) over entries (+ if from < to)
  bool duplicate = false;      // some row lists a neighbour twice
  // The lowest local vertex with a bad value (a neighbour outside [0, N), itself, an edge weight
  // <= 0, a negative vertex weight, a non-finite coordinate), or -1: validate_graph's value check,
  // taken in the same pass over the edges.
  std::int64_t first_bad = -1;
};

// Over the rank's rows (structurally valid: lengths and offsets checked); `base` is the global id
// of its first vertex.
EdgeFingerprint edge_fingerprint(const Graph& g, gid_t base);

}  // namespace hpart::detail
