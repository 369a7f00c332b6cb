#pragma once
// The block distribution of the graph readers: rank r owns vertices [N r / R, N (r+1) / R), and
// the owner of a vertex is found in any vtxdist by binary search (O(log R), no table of size N).
#include <algorithm>
#include <span>
#include <vector>

#include "hpart/types.hpp"

namespace hpart::detail {

inline std::vector<gid_t> block_vtxdist(gid_t n, int ranks) {
  std::vector<gid_t> vtxdist(static_cast<std::size_t>(ranks) + 1);
  // floor(N r / R) without forming N r, which could overflow: (N / R) r + floor((N % R) r / R).
  for (int r = 0; r <= ranks; ++r) vtxdist[static_cast<std::size_t>(r)] = n / ranks * r + n % ranks * r / ranks;
  return vtxdist;
}

// Rank owning global vertex v (0 <= v < vtxdist.back()): the last r with vtxdist[r] <= v.
inline int owner_of(std::span<const gid_t> vtxdist, gid_t v) {
  return static_cast<int>(std::upper_bound(vtxdist.begin(), vtxdist.end(), v) - vtxdist.begin()) - 1;
}

}  // namespace hpart::detail
