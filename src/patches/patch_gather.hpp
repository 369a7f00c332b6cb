#pragma once
// The validated, gathered patch list every rank works on: partition_patches and
// patch_neighbours both start here. O(patches) on each rank, never O(cells).
#include <string>
#include <vector>

#include "core/agreement.hpp"

#include "hpart/patches.hpp"

namespace hpart::patches {

struct GatheredPatches {
  std::vector<Box> boxes;      // all patches, rank by rank in input order
  std::vector<double> cost;    // per patch (the cell count where no rank gave costs)
  std::vector<int> first;      // per rank: index of its first patch; first[R] = total
  int rank = 0;
  [[nodiscard]] std::size_t local_begin() const { return static_cast<std::size_t>(first[static_cast<std::size_t>(rank)]); }
  [[nodiscard]] std::size_t local_end() const { return static_cast<std::size_t>(first[static_cast<std::size_t>(rank) + 1]); }
};

// Collective: checks the local list (dim, extent, boxes non-empty and inside the domain, cost
// length and values), `parts` and the caller's option verdict `option_problem`, compares what
// must be alike on every rank (dim, extent, parts, whether costs are given, and the caller's
// `options`) in one agreement, gathers, checks that the patches are pairwise disjoint (the same
// verdict on every rank) and throws the same hpart::Error on every rank.
GatheredPatches gather_patches(const Comm& comm, const PatchList& list, int parts, detail::Replicated options = {},
                               const std::string& option_problem = {});

// Collective: the part of every gathered patch, from each rank's parts of its own patches.
std::vector<part_t> gather_parts(const Comm& comm, const GatheredPatches& g, const std::vector<part_t>& local);

}  // namespace hpart::patches
