// Bottleneck-optimal chains partitioning (cf. Pinar & Aykanat, "Fast optimal load balancing
// algorithms for 1D partitioning", JPDC 2004), for double and integer weights alike.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "kernels/chains.hpp"
#include "kernels/chains_support.hpp"
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

// Positions [lo, hi] that a cut may take. Spans lists hold them ascending, disjoint and apart.
struct Span {
  std::int64_t lo;
  std::int64_t hi;
};
using Spans = std::vector<Span>;

// Appends positions [lo, hi] (none if lo > hi), at or after the last span's start, merging
// them into that span where they touch it.
void append(Spans& spans, std::int64_t lo, std::int64_t hi) {
  if (lo > hi) return;
  if (!spans.empty() && lo <= spans.back().hi + 1) {
    spans.back().hi = std::max(spans.back().hi, hi);
    return;
  }
  spans.push_back(Span{lo, hi});
}

// The largest item weight over ranges of items (a segment tree), so that the items too heavy
// to form a part on their own are found without scanning every item of a range.
template <typename Weight>
class ItemMaxima {
 public:
  explicit ItemMaxima(const std::vector<Weight>& prefix) {
    const std::size_t n = prefix.size() - 1;
    while (leaves_ < n) leaves_ *= 2;
    max_.assign(2 * leaves_, Weight{0});
    // Item weights as prefix differences: the values the part costs are computed from.
    for (std::size_t i = 0; i < n; ++i) max_[leaves_ + i] = prefix[i + 1] - prefix[i];
    for (std::size_t node = leaves_ - 1; node >= 1; --node)
      max_[node] = std::max(max_[2 * node], max_[2 * node + 1]);
  }

  // Calls visit(i), by increasing i, for every item i in [lo, hi] whose weight is heavy; heavy
  // must stay true as the weight grows, so that a range whose maximum is light is skipped.
  template <typename Heavy, typename Visit>
  void for_each_heavy(std::int64_t lo, std::int64_t hi, Heavy heavy, Visit visit) const {
    descend(1, 0, static_cast<std::int64_t>(leaves_) - 1, lo, hi, heavy, visit);
  }

 private:
  template <typename Heavy, typename Visit>
  void descend(std::size_t node, std::int64_t node_lo, std::int64_t node_hi, std::int64_t lo,
               std::int64_t hi, Heavy& heavy, Visit& visit) const {
    if (node_hi < lo || node_lo > hi || !heavy(max_[node])) return;
    if (node >= leaves_) {
      visit(node_lo);
      return;
    }
    const std::int64_t mid = node_lo + (node_hi - node_lo) / 2;
    descend(2 * node, node_lo, mid, lo, hi, heavy, visit);
    descend(2 * node + 1, mid + 1, node_hi, lo, hi, heavy, visit);
  }

  std::size_t leaves_ = 1;
  std::vector<Weight> max_;
};

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
        min_items_(detail::min_items_per_part(n_, parts)),
        cost_(cost),
        heaviest_item_(heaviest_item(prefix)) {}

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

  // Packs parts left to right, each as far as `bound` allows: feasible iff any partition is,
  // empty parts allowed (a part's first item may not fit it, which the starts below handle).
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

  // The least bound any partition achieves, empty parts allowed, given one that is achieved.
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

  // The least bound under which a partition with min_items_ items in every part exists, given
  // the least bound without that condition and one that such a partition achieves. With equal
  // targets the two coincide: shifting the cuts between an empty part and the nearest part of
  // several items by one fills it, and leaves that part lighter and each part between a single
  // item, no heavier than the part it came from. With unequal targets leaving a part of a
  // small target empty can be cheaper, and then the bound rises.
  [[nodiscard]] Value least_bound(Value unconstrained, Value achieved) const {
    if (feasible(starts(unconstrained))) return unconstrained;
    // Exact bisection again, on the ordinals; the starts give no cheap jump past a bound.
    std::uint64_t lo = ordinal(unconstrained) + 1;
    std::uint64_t hi = ordinal(achieved);
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (feasible(starts(from_ordinal<Value>(mid))))
        hi = mid;
      else
        lo = mid + 1;
    }
    return from_ordinal<Value>(hi);
  }

  // Among the partitions whose parts all cost at most `bound` (and hold min_items_ items),
  // cuts near their aims.
  [[nodiscard]] std::vector<std::int64_t> place_cuts(Value bound,
                                                     const detail::PartTargets& targets) const {
    const std::vector<Spans> allowed = starts(bound);
    detail::CutAims aims(targets, static_cast<double>(prefix_.back()));
    std::vector<std::int64_t> cuts(parts_ + 1, 0);
    for (std::int64_t j = 1; j < parts_; ++j) {
      const std::int64_t lo = cuts[j - 1] + min_items_;
      const std::int64_t hi = furthest_end(j - 1, cuts[j - 1], bound);
      cuts[j] = nearest_start(allowed[j], lo, hi, aims.ideal(j));
      if (cuts[j] < 0)
        throw Error(ErrorCode::internal, "chains_optimal: no feasible position for cut " +
                                             std::to_string(j) + " under the optimal bound");
      aims.placed(prefix_, j, cuts[j - 1], cuts[j]);
    }
    cuts[parts_] = n_;
    return cuts;
  }

 private:
  // starts[j]: the positions cut j may take with items [cut j, n) still fitting parts j..K-1
  // under `bound`, min_items_ items each; starts[K] = {n}. A partition exists iff starts[0]
  // holds 0. Honouring them keeps the cuts nearest their aims from starving the last parts.
  // Where parts may be empty each is one span [earliest, n]; where they may not, an item too
  // heavy to be part j on its own leaves a hole in starts[j].
  [[nodiscard]] std::vector<Spans> starts(Value bound) const {
    std::vector<Spans> result(parts_ + 1);
    result[parts_] = {Span{n_, n_}};
    for (std::int64_t j = parts_ - 1; j >= 0 && !result[j + 1].empty(); --j)
      result[j] = part_starts(j, result[j + 1], bound);
    return result;
  }

  [[nodiscard]] static bool feasible(const std::vector<Spans>& all_starts) {
    return !all_starts.front().empty() && all_starts.front().front().lo == 0;
  }

  // The starts a of part j, given the starts `next` of part j+1: a qualifies iff part j is
  // light enough when it ends at the first start after a that leaves it min_items_ items,
  // since it is lightest there. For the positions up to a span of `next` that is the span's
  // first position; within the span it is the position min_items_ further on.
  [[nodiscard]] Spans part_starts(std::int64_t j, const Spans& next, Value bound) const {
    Spans result;
    // Positions up to previous_end - min_items_ were settled by the earlier spans.
    std::int64_t previous_end = min_items_ - 1;
    for (const Span& span : next) {
      append(result, std::max(previous_end + 1 - min_items_, earliest_start(j, span.lo, bound)),
             span.lo - 1 - min_items_);
      if (min_items_ == 0)
        append(result, span.lo, span.hi);  // part j empty
      else
        append_light_items(result, j, span.lo - 1, span.hi - 1, bound);  // one item
      previous_end = span.hi;
    }
    return result;
  }

  static Weight heaviest_item(const std::vector<Weight>& prefix) {
    Weight heaviest{0};
    for (std::size_t i = 1; i < prefix.size(); ++i)
      heaviest = std::max(heaviest, prefix[i] - prefix[i - 1]);
    return heaviest;
  }

  // Appends the positions a in [lo, hi] whose item a alone costs at most `bound` in part j.
  void append_light_items(Spans& spans, std::int64_t j, std::int64_t lo, std::int64_t hi,
                          Value bound) const {
    std::int64_t from = std::max<std::int64_t>(lo, 0);
    // The usual case, and always so with equal targets under a feasible bound: no item is too
    // heavy, and the item maxima are never built.
    if (cost_(j, heaviest_item_) <= bound) {
      append(spans, from, hi);
      return;
    }
    if (!items_) items_.emplace(prefix_);
    items_->for_each_heavy(
        from, hi, [this, j, bound](Weight w) { return cost_(j, w) > bound; },
        [&spans, &from](std::int64_t heavy) {
          append(spans, from, heavy - 1);
          from = heavy + 1;
        });
    append(spans, from, hi);
  }

  // The position in spans and [lo, hi] whose prefix weight is nearest to `ideal` (ties: the
  // lower one, as in detail::nearest_boundary), or -1 if there is none. Only the span that
  // holds or follows the first position reaching the ideal, and the span before it, can hold
  // the nearest one.
  [[nodiscard]] std::int64_t nearest_start(const Spans& spans, std::int64_t lo, std::int64_t hi,
                                           double ideal) const {
    if (lo > hi) return -1;
    const auto first = prefix_.begin() + lo;
    const auto reached = std::partition_point(first, prefix_.begin() + hi + 1, [ideal](Weight p) {
      return static_cast<double>(p) < ideal;
    });
    const std::int64_t at = reached - prefix_.begin();
    const auto after = std::lower_bound(spans.begin(), spans.end(), at,
                                        [](const Span& s, std::int64_t p) { return s.hi < p; });
    std::int64_t best = -1;
    double best_gap = 0.0;
    const auto consider = [&](const Span& span) {
      const std::int64_t a = std::max(span.lo, lo);
      const std::int64_t b = std::min(span.hi, hi);
      if (a > b) return;
      const std::int64_t c = detail::nearest_boundary(prefix_, a, b, ideal);
      const double gap = std::abs(static_cast<double>(prefix_[c]) - ideal);
      if (best < 0 || gap < best_gap || (gap == best_gap && c < best)) {
        best = c;
        best_gap = gap;
      }
    };
    if (after != spans.begin()) consider(*(after - 1));
    if (after != spans.end()) consider(*after);
    return best;
  }

  const std::vector<Weight>& prefix_;
  std::int64_t n_;
  std::int64_t parts_;
  std::int64_t min_items_;  // 1 where n >= K: no part is left empty
  Cost cost_;
  Weight heaviest_item_;
  // Built on first need (a part that some item outweighs): a cache, hence mutable.
  mutable std::optional<ItemMaxima<Weight>> items_;
};

template <typename Weight, typename Cost>
std::vector<std::int64_t> optimal_cuts(const std::vector<Weight>& prefix,
                                       const detail::PartTargets& targets, Cost cost) {
  const Chain<Weight, Cost> chain(prefix, static_cast<std::int64_t>(targets.share.size()), cost);
  // The nearest-target cuts are feasible (with no part empty where n >= K) and usually close
  // to optimal: a tight start.
  const auto start = chain.cost_of_cuts(detail::nearest_target_cuts(prefix, targets));
  return chain.place_cuts(chain.least_bound(chain.optimal_bound(start), start), targets);
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
