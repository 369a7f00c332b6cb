#pragma once
// Pieces shared by the chains partitioners: argument checks, normalised targets, prefix sums,
// the nearest-target boundary search and the cuts' aims. Internal header.
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

// At least one item per part whenever there are enough items (zero-weight ones included): an
// empty part is a part that gets no work. With fewer items than parts some must stay empty.
inline std::int64_t min_items_per_part(std::int64_t n, std::int64_t parts) {
  return n >= parts ? 1 : 0;
}

// The ideal prefix weight of each cut: the cumulative targets of the total, until a cut has to
// move off its ideal (a heavy item, the bottleneck bound, a part kept non-empty). From such a
// cut on, the later cuts aim at the weight still to place in proportion to the targets still to
// fill, so that the parts after it share the surplus or deficit rather than one part absorbing
// it by snapping back to its original cumulative target.
class CutAims {
 public:
  CutAims(const PartTargets& targets, double total) : targets_(targets), total_(total) {}

  [[nodiscard]] double ideal(std::int64_t j) const {
    const std::vector<double>& cumulative = targets_.cumulative;
    // Not re-based: exactly the cumulative target (no rounding through the ratio below).
    if (base_cut_ == 0) return total_ * cumulative[j];
    const double done = cumulative[base_cut_];
    const double left = cumulative.back() - done;
    if (!(left > 0.0)) return total_;  // the targets left round to nothing: aim at the end
    return base_weight_ + (total_ - base_weight_) * ((cumulative[j] - done) / left);
  }

  // Records cut j at `cut`, placed after cut j-1 at `previous`: re-bases the later aims unless
  // the cut holds the weight that the nearest boundary without constraints would have.
  template <typename Weight>
  void placed(const std::vector<Weight>& prefix, std::int64_t j, std::int64_t previous,
              std::int64_t cut);

 private:
  const PartTargets& targets_;
  double total_;
  std::int64_t base_cut_ = 0;
  double base_weight_ = 0.0;
};

template <typename Weight>
void CutAims::placed(const std::vector<Weight>& prefix, std::int64_t j, std::int64_t previous,
                     std::int64_t cut) {
  const auto n = static_cast<std::int64_t>(prefix.size()) - 1;
  const std::int64_t unconstrained = nearest_boundary(prefix, previous, n, ideal(j));
  if (prefix[cut] == prefix[unconstrained]) return;
  base_cut_ = j;
  base_weight_ = static_cast<double>(prefix[cut]);
}

// Cuts at the boundaries nearest to their aims, kept non-decreasing and, whenever n >= K, far
// enough apart and from the end that every part holds at least one item.
template <typename Weight>
std::vector<std::int64_t> nearest_target_cuts(const std::vector<Weight>& prefix,
                                              const PartTargets& targets) {
  const auto parts = static_cast<std::int64_t>(targets.share.size());
  const auto n = static_cast<std::int64_t>(prefix.size()) - 1;
  const std::int64_t min_items = min_items_per_part(n, parts);
  CutAims aims(targets, static_cast<double>(prefix.back()));
  std::vector<std::int64_t> cuts(parts + 1, 0);
  for (std::int64_t j = 1; j < parts; ++j) {
    const std::int64_t lo = cuts[j - 1] + min_items;
    const std::int64_t hi = n - min_items * (parts - j);
    cuts[j] = nearest_boundary(prefix, lo, hi, aims.ideal(j));
    aims.placed(prefix, j, cuts[j - 1], cuts[j]);
  }
  cuts[parts] = n;
  return cuts;
}

}  // namespace hpart::balance::detail
