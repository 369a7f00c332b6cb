#include "patches/patch_assign.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <queue>
#include <utility>

#include "kernels/chains.hpp"

namespace hpart::patches {

std::vector<part_t> assign_knapsack(std::span<const double> cost, int parts) {
  std::vector<std::size_t> order(cost.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return cost[a] > cost[b]; });
  using Slot = std::pair<double, part_t>;  // (load, part): the lightest part, then the lowest id
  std::priority_queue<Slot, std::vector<Slot>, std::greater<>> lightest;
  for (part_t p = 0; p < parts; ++p) lightest.push({0.0, p});
  std::vector<part_t> out(cost.size(), 0);
  for (std::size_t i : order) {
    auto [load, p] = lightest.top();
    lightest.pop();
    out[i] = p;
    lightest.push({load + cost[i], p});
  }
  return out;
}

std::vector<part_t> assign_chains(std::span<const double> cost, int parts) {
  const std::vector<std::int64_t> cuts = balance::chains_optimal(cost, parts);
  std::vector<part_t> out(cost.size(), 0);
  for (int p = 0; p < parts; ++p)
    for (std::int64_t i = cuts[static_cast<std::size_t>(p)]; i < cuts[static_cast<std::size_t>(p) + 1]; ++i)
      out[static_cast<std::size_t>(i)] = p;
  return out;
}

namespace {

// The items of each part sorted by (cost, index), so that the item nearest a wanted cost is a
// binary search away.
class PartItems {
 public:
  PartItems(std::span<const double> cost, const std::vector<part_t>& parts, int K) : cost_(cost), items_(static_cast<std::size_t>(K)) {
    for (std::size_t i = 0; i < parts.size(); ++i) items_[static_cast<std::size_t>(parts[i])].push_back(i);
    for (auto& v : items_) std::sort(v.begin(), v.end(), [&](std::size_t a, std::size_t b) { return less(a, b); });
  }
  [[nodiscard]] const std::vector<std::size_t>& of(part_t p) const { return items_[static_cast<std::size_t>(p)]; }
  // The item of part p whose cost is nearest `want` (ties: the cheaper), or none.
  [[nodiscard]] std::ptrdiff_t nearest(part_t p, double want) const {
    const auto& v = of(p);
    if (v.empty()) return -1;
    auto it = std::lower_bound(v.begin(), v.end(), want, [&](std::size_t i, double w) { return cost_[i] < w; });
    if (it == v.end()) return static_cast<std::ptrdiff_t>(v.back());
    if (it != v.begin() && want - cost_[*std::prev(it)] <= cost_[*it] - want) --it;
    return static_cast<std::ptrdiff_t>(*it);
  }
  void remove(part_t p, std::size_t item) {
    auto& v = items_[static_cast<std::size_t>(p)];
    v.erase(std::lower_bound(v.begin(), v.end(), item, [&](std::size_t a, std::size_t b) { return less(a, b); }));
  }
  void add(part_t p, std::size_t item) {
    auto& v = items_[static_cast<std::size_t>(p)];
    v.insert(std::lower_bound(v.begin(), v.end(), item, [&](std::size_t a, std::size_t b) { return less(a, b); }), item);
  }

 private:
  [[nodiscard]] bool less(std::size_t a, std::size_t b) const {
    return cost_[a] < cost_[b] || (cost_[a] == cost_[b] && a < b);
  }
  std::span<const double> cost_;
  std::vector<std::vector<std::size_t>> items_;
};

struct Step {
  double pair_max = INFINITY;  // the larger of the two loads afterwards
  part_t to = -1;
  std::ptrdiff_t give = -1, take = -1;  // item leaving the heaviest part; item coming back (swap)
};

}  // namespace

int refine_by_swaps(std::span<const double> cost, std::vector<part_t>& parts, int num_parts, int max_steps, double good_enough) {
  std::vector<double> load(static_cast<std::size_t>(num_parts), 0.0);
  for (std::size_t i = 0; i < parts.size(); ++i) load[static_cast<std::size_t>(parts[i])] += cost[i];
  PartItems items(cost, parts, num_parts);
  int steps = 0;
  for (; steps < max_steps; ++steps) {
    const auto H = static_cast<part_t>(std::max_element(load.begin(), load.end()) - load.begin());
    const double top = load[static_cast<std::size_t>(H)];
    // A step must beat the heaviest load by more than rounding, or it could cycle on noise.
    const double needed = top - 1e-12 * top;
    Step best;
    const auto& mine = items.of(H);
    const auto search = [&](part_t q) {
      const double gap = top - load[static_cast<std::size_t>(q)];
      if (q == H || gap <= 0.0) return;
      // Moving d from H to q leaves max(top - d, load_q + d): best at d = gap / 2.
      const auto consider = [&](double d, std::ptrdiff_t give, std::ptrdiff_t take) {
        if (d <= 0.0 || d >= gap) return;
        const double m = std::max(top - d, load[static_cast<std::size_t>(q)] + d);
        if (m < best.pair_max) best = Step{m, q, give, take};
      };
      if (mine.size() >= 2) {  // a move must not empty H
        const std::ptrdiff_t a = items.nearest(H, gap / 2);
        consider(cost[static_cast<std::size_t>(a)], a, -1);
      }
      for (std::size_t a : mine) {
        const std::ptrdiff_t b = items.nearest(q, cost[a] - gap / 2);
        if (b >= 0) consider(cost[a] - cost[static_cast<std::size_t>(b)], static_cast<std::ptrdiff_t>(a), b);
      }
    };
    if (top <= good_enough) break;
    for (part_t q = 0; q < num_parts; ++q) search(q);
    if (!(best.pair_max < needed)) break;
    const auto give = static_cast<std::size_t>(best.give);
    items.remove(H, give);
    items.add(best.to, give);
    parts[give] = best.to;
    double d = cost[give];
    if (best.take >= 0) {
      const auto take = static_cast<std::size_t>(best.take);
      items.remove(best.to, take);
      items.add(H, take);
      parts[take] = H;
      d -= cost[take];
    }
    load[static_cast<std::size_t>(H)] -= d;
    load[static_cast<std::size_t>(best.to)] += d;
  }
  return steps;
}

double assignment_imbalance(std::span<const double> cost, std::span<const part_t> parts, int num_parts) {
  std::vector<double> load(static_cast<std::size_t>(num_parts), 0.0);
  double total = 0.0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    load[static_cast<std::size_t>(parts[i])] += cost[i];
    total += cost[i];
  }
  if (total <= 0.0) return 0.0;
  return *std::max_element(load.begin(), load.end()) / (total / num_parts) - 1.0;
}

}  // namespace hpart::patches
