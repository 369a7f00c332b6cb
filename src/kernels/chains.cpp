// chains_greedy and chains_imbalance; chains_optimal lives in chains_optimal.cpp.
#include "kernels/chains.hpp"

#include <algorithm>
#include <string>

#include "kernels/chains_support.hpp"
#include "hpart/error.hpp"

namespace hpart::balance {

std::vector<std::int64_t> chains_greedy(std::span<const double> weights, int parts,
                                        std::span<const double> targets) {
  const detail::PartTargets t = detail::checked_targets(targets, parts, "chains_greedy");
  const std::vector<double> prefix = detail::checked_prefix_sums(weights, "chains_greedy", true);
  return detail::nearest_target_cuts(prefix, t);
}

double chains_imbalance(std::span<const double> weights, std::span<const std::int64_t> cuts,
                        std::span<const double> targets) {
  constexpr std::string_view caller = "chains_imbalance";
  if (cuts.size() < 2)
    throw Error(ErrorCode::invalid_argument,
                "chains_imbalance: cuts must hold parts + 1 >= 2 offsets, got " +
                    std::to_string(cuts.size()));
  const int parts = static_cast<int>(cuts.size() - 1);
  const detail::PartTargets t = detail::checked_targets(targets, parts, caller);
  const auto n = static_cast<std::int64_t>(weights.size());
  if (cuts.front() != 0 || cuts.back() != n || !std::is_sorted(cuts.begin(), cuts.end()))
    throw Error(ErrorCode::invalid_argument,
                "chains_imbalance: cuts must be non-decreasing from 0 to the item count " +
                    std::to_string(n));
  const std::vector<double> prefix = detail::checked_prefix_sums(weights, caller, false);
  const double total = prefix.back();
  // Nothing to balance: every part holds its share (none) of the weight.
  if (total == 0.0) return 0.0;

  double worst = 0.0;
  for (std::size_t j = 0; j + 1 < cuts.size(); ++j) {
    const double part_weight = prefix[cuts[j + 1]] - prefix[cuts[j]];
    worst = std::max(worst, part_weight / (total * t.share[j]));
  }
  return worst - 1.0;
}

}  // namespace hpart::balance
