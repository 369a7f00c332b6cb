// Bottleneck-optimal chains partitioning (cf. Pinar & Aykanat, "Fast optimal load balancing
// algorithms for 1D partitioning", JPDC 2004), for double and integer weights alike.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "balance/chains.hpp"
#include "balance/chains_support.hpp"
#include "hpart/error.hpp"

namespace hpart::balance {
namespace {

// The bound search bisects over integers that order like the (non-negative) bottleneck values:
// the values themselves for integers, the bit patterns for doubles. That makes the search exact
// in both cases, with at most 64 probes, instead of stopping at some tolerance.
std::uint64_t ordinal(std::int64_t value) { return static_cast<std::uint64_t>(value); }
std::uint64_t ordinal(double value) { return std::bit_cast<std::uint64_t>(value); }

template <typename Value>
Value from_ordinal(std::uint64_t o) {
  if constexpr (std::is_same_v<Value, double>)
    return std::bit_cast<double>(o);
  else
    return static_cast<Value>(o);
}

template <typename Value>
constexpr Value unbounded() {
  if constexpr (std::numeric_limits<Value>::has_infinity)
    return std::numeric_limits<Value>::infinity();
  else
    return std::numeric_limits<Value>::max();
}

// The chain of items as seen by one cost function. cost(j, w) is what part j pays for holding
// weight w (w itself for equal targets, w / share_j otherwise); it must not decrease with w, so
// that a part's cost grows as it gains items and the greedy probes below are optimal.
template <typename Weight, typename Cost>
class Chain {
 public:
  using Value = std::invoke_result_t<Cost, std::int64_t, Weight>;

  Chain(const std::vector<Weight>& prefix, std::int64_t parts, Cost cost)
      : prefix_(prefix),
        n_(static_cast<std::int64_t>(prefix.size()) - 1),
        parts_(parts),
        cost_(cost) {}

  // Part j over items [a, b): the cost of a prefix-sum difference, so that every comparison
  // here and in the callers' checks sees the same rounded value.
  [[nodiscard]] Value part_cost(std::int64_t j, std::int64_t a, std::int64_t b) const {
    return cost_(j, prefix_[b] - prefix_[a]);
  }

  [[nodiscard]] Value cost_of_cuts(const std::vector<std::int64_t>& cuts) const {
    Value worst{};
    for (std::int64_t j = 0; j < parts_; ++j)
      worst = std::max(worst, part_cost(j, cuts[j], cuts[j + 1]));
    return worst;
  }

  // Largest b in [a, n] such that part j = [a, b) costs at most `bound`.
  [[nodiscard]] std::int64_t furthest_end(std::int64_t j, std::int64_t a, Value bound) const {
    std::int64_t lo = a;
    std::int64_t hi = n_;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo + 1) / 2;
      if (part_cost(j, a, mid) <= bound)
        lo = mid;
      else
        hi = mid - 1;
    }
    return lo;
  }

  // Smallest a in [0, b] such that part j = [a, b) costs at most `bound`.
  [[nodiscard]] std::int64_t earliest_start(std::int64_t j, std::int64_t b, Value bound) const {
    std::int64_t lo = 0;
    std::int64_t hi = b;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (part_cost(j, mid, b) <= bound)
        hi = mid;
      else
        lo = mid + 1;
    }
    return lo;
  }

  struct Probe {
    bool feasible = false;
    Value reached{};  // feasible: the largest part cost of the packing, a feasible bound <= bound
    Value next_change = unbounded<Value>();  // infeasible: no bound below this is feasible
  };

  // Packs parts left to right, each as far as `bound` allows: feasible iff any partition is.
  [[nodiscard]] Probe probe(Value bound) const {
    Probe p;
    std::int64_t a = 0;
    for (std::int64_t j = 0; j < parts_ && a < n_; ++j) {
      const std::int64_t b = furthest_end(j, a, bound);
      p.reached = std::max(p.reached, part_cost(j, a, b));
      // Until the bound reaches the cost of taking one more item, every part ends where it
      // does now, so the packing (and its failure) stays the same.
      if (b < n_) p.next_change = std::min(p.next_change, part_cost(j, a, b + 1));
      a = b;
    }
    p.feasible = a == n_;
    return p;
  }

  // The least bound any partition achieves, given one that is achieved.
  [[nodiscard]] Value optimal_bound(Value achieved) const {
    std::uint64_t lo = 0;
    std::uint64_t hi = ordinal(achieved);
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      const Probe p = probe(from_ordinal<Value>(mid));
      // Both jumps go beyond plain bisection: to the packing's actual cost, and past the
      // bounds that cannot change the packing (Pinar & Aykanat's exact bisection).
      if (p.feasible)
        hi = ordinal(p.reached);
      else
        lo = std::max(mid + 1, ordinal(p.next_change));
    }
    return from_ordinal<Value>(hi);
  }

  // Among the partitions whose parts all cost at most `bound`, cuts near the ideal targets.
  [[nodiscard]] std::vector<std::int64_t> place_cuts(Value bound,
                                                     const detail::PartTargets& targets) const {
    // earliest[j]: the first position cut j may take with items [cut j, n) still fitting parts
    // j..K-1. Honouring it keeps the cuts nearest the targets from starving the last parts.
    std::vector<std::int64_t> earliest(parts_ + 1, n_);
    for (std::int64_t j = parts_ - 1; j >= 1; --j)
      earliest[j] = earliest_start(j, earliest[j + 1], bound);

    const double total = static_cast<double>(prefix_.back());
    std::vector<std::int64_t> cuts(parts_ + 1, 0);
    for (std::int64_t j = 1; j < parts_; ++j) {
      const std::int64_t lo = std::max(earliest[j], cuts[j - 1]);
      const std::int64_t hi = furthest_end(j - 1, cuts[j - 1], bound);
      if (lo > hi)
        throw Error(ErrorCode::internal, "chains_optimal: no feasible position for cut " +
                                             std::to_string(j) + " under the optimal bound");
      cuts[j] = detail::nearest_boundary(prefix_, lo, hi, total * targets.cumulative[j]);
    }
    cuts[parts_] = n_;
    return cuts;
  }

 private:
  const std::vector<Weight>& prefix_;
  std::int64_t n_;
  std::int64_t parts_;
  Cost cost_;
};

template <typename Weight, typename Cost>
std::vector<std::int64_t> optimal_cuts(const std::vector<Weight>& prefix,
                                       const detail::PartTargets& targets, Cost cost) {
  const Chain<Weight, Cost> chain(prefix, static_cast<std::int64_t>(targets.share.size()), cost);
  // The nearest-target cuts are feasible and usually close to optimal: a tight start.
  const auto start = chain.cost_of_cuts(detail::nearest_target_cuts(prefix, targets));
  return chain.place_cuts(chain.optimal_bound(start), targets);
}

template <typename Weight>
std::vector<std::int64_t> chains_optimal_of(std::span<const Weight> weights, int parts,
                                            std::span<const double> targets) {
  constexpr std::string_view caller = "chains_optimal";
  const detail::PartTargets t = detail::checked_targets(targets, parts, caller);
  const std::vector<Weight> prefix = detail::checked_prefix_sums(weights, caller, true);
  if (parts == 1) return {0, static_cast<std::int64_t>(weights.size())};
  if (t.uniform) {
    // Equal targets: minimise the heaviest part in the weights' own type (exact for integers).
    return optimal_cuts(prefix, t, [](std::int64_t, Weight w) { return w; });
  }
  const std::vector<double>& share = t.share;
  return optimal_cuts(prefix, t, [&share](std::int64_t j, Weight w) {
    return static_cast<double>(w) / share[static_cast<std::size_t>(j)];
  });
}

}  // namespace

std::vector<std::int64_t> chains_optimal(std::span<const double> weights, int parts,
                                         std::span<const double> targets) {
  return chains_optimal_of(weights, parts, targets);
}

std::vector<std::int64_t> chains_optimal(std::span<const std::int64_t> weights, int parts,
                                         std::span<const double> targets) {
  return chains_optimal_of(weights, parts, targets);
}

}  // namespace hpart::balance
