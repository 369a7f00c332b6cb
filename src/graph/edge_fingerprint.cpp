#include "graph/edge_fingerprint.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace hpart::detail {
namespace {

// The finaliser of splitmix64: every input bit reaches every output bit.
inline std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Two hashes of an undirected, weighted edge {lo, hi}, built from different combinations so that
// their collisions are independent. An entry adds them when it points up (from < to) and
// subtracts them when it points down: an edge listed at both ends with one weight cancels.
inline std::uint64_t hash_a(std::uint64_t lo, std::uint64_t hi, std::uint64_t w) {
  return mix(lo * 0x9e3779b97f4a7c15ULL ^ hi * 0xc2b2ae3d27d4eb4fULL ^ w * 0x165667b19e3779f9ULL);
}
inline std::uint64_t hash_b(std::uint64_t lo, std::uint64_t hi, std::uint64_t w) {
  return mix((lo + 0x27d4eb2f165667c5ULL) * 0xd6e8feb86659fd93ULL + (hi << 29 | hi >> 35) + w * 0xff51afd7ed558ccdULL);
}

// Rows up to this degree are checked for duplicates pairwise; longer rows are sorted in a copy.
constexpr std::int64_t kPairwiseDegree = 24;

template <class Id>  // the caller's width (Graph::adjncy or adjncy32)
bool has_duplicate(const Id* row, std::int64_t d, std::vector<gid_t>& scratch) {
  if (d <= kPairwiseDegree) {
    bool dup = false;  // no early exit: the inner loop vectorises
    for (std::int64_t i = 1; i < d; ++i)
      for (std::int64_t j = 0; j < i; ++j) dup |= row[i] == row[j];
    return dup;
  }
  scratch.assign(row, row + d);
  std::sort(scratch.begin(), scratch.end());
  return std::adjacent_find(scratch.begin(), scratch.end()) != scratch.end();
}

// The values of vertex v (see EdgeFingerprint::first_bad), without building messages.
bool vertex_ok(const Graph& g, gid_t base, std::size_t v) {
  const gid_t gv = base + static_cast<gid_t>(v), N = g.vtxdist.back();
  bool ok = true;
  for (auto e = static_cast<std::size_t>(g.xadj[v]); e < static_cast<std::size_t>(g.xadj[v + 1]); ++e) {
    const gid_t u = g.neighbour(e);
    ok &= u >= 0 && u < N && u != gv && (g.adjwgt.empty() || g.adjwgt[e] > 0);
  }
  for (std::size_t c = 0; c < (g.vwgt.empty() ? 0 : static_cast<std::size_t>(g.ncon)); ++c)
    ok &= g.vwgt[v * static_cast<std::size_t>(g.ncon) + c] >= 0;
  for (std::size_t d = 0; d < static_cast<std::size_t>(g.dim); ++d)
    ok &= static_cast<bool>(std::isfinite(g.coords[v * static_cast<std::size_t>(g.dim) + d]));
  return ok;
}

}  // namespace

EdgeFingerprint edge_fingerprint(const Graph& g, gid_t base) {
  const auto n = static_cast<std::int64_t>(g.local_vertices());
  const auto nc = static_cast<std::size_t>(g.ncon);
  const bool unit_vertices = g.vwgt.empty(), unit_edges = g.adjwgt.empty();
  std::uint64_t a = 0, b = 0;
  int duplicate = 0;
  std::int64_t first_bad = n;
  // Constraints' vertex weights, edge weights (ncon, ncon + 1; the entries are counted below).
  std::vector<std::uint64_t> totals(nc + 2, 0);
#pragma omp parallel reduction(+ : a, b) reduction(| : duplicate) reduction(min : first_bad)
  {
    std::vector<gid_t> scratch;
    std::vector<std::uint64_t> mine(nc + 1, 0);
    std::uint64_t edge_total = 0;
#pragma omp for schedule(static, 4096)
    for (std::int64_t v = 0; v < n; ++v) {
      const auto from = static_cast<std::uint64_t>(base + v);
      const std::int64_t begin = g.xadj[static_cast<std::size_t>(v)], end = g.xadj[static_cast<std::size_t>(v) + 1];
      for (std::int64_t e = begin; e < end; ++e) {
        const auto to = static_cast<std::uint64_t>(g.neighbour(static_cast<std::size_t>(e)));
        const auto w = static_cast<std::uint64_t>(unit_edges ? 1 : g.adjwgt[static_cast<std::size_t>(e)]);
        edge_total = add_saturated(edge_total, w);
        const std::uint64_t lo = std::min(from, to), hi = std::max(from, to);
        if (from < to) {
          a += hash_a(lo, hi, w), b += hash_b(lo, hi, w);
        } else {
          a -= hash_a(lo, hi, w), b -= hash_b(lo, hi, w);
        }
      }
      if (!unit_vertices)
        for (std::size_t c = 0; c < nc; ++c)
          mine[c] = add_saturated(mine[c], static_cast<std::uint64_t>(g.vwgt[static_cast<std::size_t>(v) * nc + c]));
      if (!duplicate && (g.adjncy32.empty() ? has_duplicate(g.adjncy.data() + begin, end - begin, scratch)
                                            : has_duplicate(g.adjncy32.data() + begin, end - begin, scratch)))
        duplicate = 1;
      if (v < first_bad && !vertex_ok(g, base, static_cast<std::size_t>(v))) first_bad = v;
    }
    mine[nc] = edge_total;
#pragma omp critical(hpart_edge_fingerprint_totals)
    for (std::size_t i = 0; i <= nc; ++i) totals[i] = add_saturated(totals[i], mine[i]);
  }
  if (unit_vertices) std::fill(totals.begin(), totals.begin() + static_cast<std::ptrdiff_t>(nc), static_cast<std::uint64_t>(n));
  totals[nc + 1] = std::min<std::uint64_t>(g.entries(), kTotalLimit);
  return {a, b, duplicate != 0, first_bad < n ? first_bad : -1, std::move(totals)};
}

}  // namespace hpart::detail
