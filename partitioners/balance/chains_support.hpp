#pragma once
// Pieces shared by the chains partitioners: argument checks, normalised targets, prefix sums
// and the nearest-target boundary search. Internal header.
#include <algorithm>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace hpart::balance::detail {

struct PartTargets {
  bool uniform = true;
  std::vector<double> share;       // K shares: targets[j] / (sum of targets, summed in order)
  std::vector<double> cumulative;  // K+1 values: share of parts 0..j-1, cumulative[K] = 1
};

// Throws hpart::Error (invalid_argument) unless parts >= 1 and targets is empty or holds
// `parts` positive finite values. `caller` names the entry point in the message.
PartTargets checked_targets(std::span<const double> targets, int parts, std::string_view caller);

// prefix[i] = weight of items [0, i). Throws hpart::Error (invalid_input) for a negative or
// non-finite weight or a total that overflows. With `count_if_weightless`, all-zero weights are
// replaced by unit weights: a partitioner then splits by item count rather than returning
// arbitrary cuts, because every cut is equally good for the weights themselves.
std::vector<double> checked_prefix_sums(std::span<const double> weights, std::string_view caller,
                                        bool count_if_weightless);
std::vector<std::int64_t> checked_prefix_sums(std::span<const std::int64_t> weights,
                                              std::string_view caller, bool count_if_weightless);

// The boundary i in [lo, hi] whose prefix weight is nearest to `ideal`. Ties go to the lower
// index, so the choice is deterministic and a run of zero-weight items at a cut goes to the
// later part.
template <typename Weight>
std::int64_t nearest_boundary(const std::vector<Weight>& prefix, std::int64_t lo, std::int64_t hi,
                              double ideal) {
  const auto first = prefix.begin() + lo;
  const auto last = prefix.begin() + hi + 1;
  const auto above = std::partition_point(
      first, last, [ideal](Weight p) { return static_cast<double>(p) < ideal; });
  if (above == first) return lo;
  // Lowest index holding the prefix value just below the ideal.
  const auto below = std::lower_bound(first, above, *(above - 1));
  if (above == last) return below - prefix.begin();
  const double below_gap = ideal - static_cast<double>(*below);
  const double above_gap = static_cast<double>(*above) - ideal;
  return (above_gap < below_gap ? above : below) - prefix.begin();
}

// Cuts at the boundaries nearest to the ideal cumulative targets, kept non-decreasing.
template <typename Weight>
std::vector<std::int64_t> nearest_target_cuts(const std::vector<Weight>& prefix,
                                              const PartTargets& targets) {
  const auto parts = static_cast<std::int64_t>(targets.share.size());
  const auto n = static_cast<std::int64_t>(prefix.size()) - 1;
  const double total = static_cast<double>(prefix.back());
  std::vector<std::int64_t> cuts(parts + 1, 0);
  for (std::int64_t j = 1; j < parts; ++j)
    cuts[j] = nearest_boundary(prefix, cuts[j - 1], n, total * targets.cumulative[j]);
  cuts[parts] = n;
  return cuts;
}

}  // namespace hpart::balance::detail
