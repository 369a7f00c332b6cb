#pragma once
// The symmetry half of validate_graph, shared with the file readers (which name file lines):
// every edge must be listed at both ends, with the same weight, and at most once per end.
#include <cstdint>
#include <span>
#include <string>

#include "graph/edge_fingerprint.hpp"
#include "hpart/comm.hpp"
#include "hpart/graph.hpp"

namespace hpart::detail {

// A rank's first defect, ordered by (vertex, neighbour): the lowest failing rank then holds the
// defect of the lowest vertex, so the reported one does not depend on the rank count.
struct GraphDefect {
  enum class Kind { none, missing, weight, duplicate };
  Kind kind = Kind::none;
  gid_t vertex = 0;     // a vertex of this rank: it lacks `neighbour`, or lists it differently or twice
  gid_t neighbour = 0;  // global id
  std::int64_t weight = 0;            // vertex's weight for the edge (weight)
  std::int64_t neighbour_weight = 0;  // neighbour's weight for it (missing, weight)
  long long vertex_tag = 0, neighbour_tag = 0;  // the tags of both vertices (file lines), 0 without tags
};

// Collective: a hashed screen (one allreduce; see edge_fingerprint.hpp) and, only when it fails,
// one Alltoall of counts and one Alltoallv of the edges whose far end another rank owns (far ends
// on this rank are checked in place). `g` must be structurally valid; `tags`
// (one per local vertex, or empty) travel with the edges so messages can name both ends' lines.
// `screened`: this rank's edge_fingerprint when the caller has already taken it (validate_graph
// takes it with the value checks, in one pass). `totals` (with `screened`, screened->totals.size()
// values): receives the global sums of the ranks' totals, exact below kTotalLimit and saturated
// at it, summed in the screen's allreduce (each local total split in two 31-bit halves, whose
// sums over fewer than 2^31 ranks cannot wrap).
GraphDefect find_graph_asymmetry(const Comm& comm, const Graph& g, std::span<const long long> tags = {},
                                 const EdgeFingerprint* screened = nullptr, std::span<std::uint64_t> totals = {});

// The defect in words, ids printed as id + id_base (1: the 1-based numbering of METIS files).
// With a path, it is prefixed "path:line:" and names the other end's line (tags are lines).
std::string describe_defect(const GraphDefect& d, gid_t id_base = 0, const std::string& path = {});

}  // namespace hpart::detail
