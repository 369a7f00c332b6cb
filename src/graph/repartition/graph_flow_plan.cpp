#include "graph/repartition/graph_flow_plan.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <utility>

#include "kernels/diffusion_flow.hpp"

namespace hpart::repart {

std::vector<QuotientArc> merge_arcs(std::vector<QuotientArc> arcs) {
  std::stable_sort(arcs.begin(), arcs.end(),
                   [](const QuotientArc& a, const QuotientArc& b) { return a.p != b.p ? a.p < b.p : a.q < b.q; });
  std::vector<QuotientArc> out;
  for (const QuotientArc& a : arcs) {
    if (!out.empty() && out.back().p == a.p && out.back().q == a.q) {
      out.back().cut += a.cut;
      out.back().boundary += a.boundary;
    } else {
      out.push_back(a);
    }
  }
  return out;
}

std::vector<double> balancing_excess(std::span<const double> part_weights, double aim) {
  const std::size_t k = part_weights.size();
  std::vector<double> excess(k, 0.0);
  const double total = std::accumulate(part_weights.begin(), part_weights.end(), 0.0);
  if (!(total > 0.0) || k == 0) return excess;
  const double mean = total / static_cast<double>(k), cap = (1.0 + aim) * mean;
  double supply = 0.0, deficit = 0.0;
  for (double w : part_weights) supply += std::max(0.0, w - cap), deficit += std::max(0.0, mean - w);
  // deficit >= supply: the weights above the mean balance those below it, and cap >= mean.
  const double scale = deficit > 0.0 ? supply / deficit : 0.0;
  for (std::size_t p = 0; p < k; ++p)
    excess[p] = part_weights[p] > cap ? part_weights[p] - cap : -std::max(0.0, mean - part_weights[p]) * scale;
  return excess;
}

std::vector<ArcFlow> plan_flows(int num_parts, std::span<const QuotientArc> merged, std::span<const double> excess,
                                double layers) {
  // One undirected edge per part pair, with both directions' limits.
  std::map<std::pair<int, int>, std::size_t> index;
  std::vector<PartEdge> edges;
  std::vector<double> cap_pq, cap_qp;
  for (const QuotientArc& a : merged) {
    if (a.p == a.q) continue;
    const std::pair<int, int> key{std::min(a.p, a.q), std::max(a.p, a.q)};
    auto [it, fresh] = index.try_emplace(key, edges.size());
    if (fresh) {
      edges.push_back({key.first, key.second, 0.0});
      cap_pq.push_back(0.0), cap_qp.push_back(0.0);
    }
    const std::size_t k = it->second;
    // Both ends see the same cut; the larger guards against a rank's rounding.
    edges[k].capacity = std::max(edges[k].capacity, a.cut);
    (a.p == key.first ? cap_pq : cap_qp)[k] += layers * a.boundary;
  }
  for (PartEdge& e : edges) e.capacity = std::max(e.capacity, 1e-12);  // transport_flow wants > 0
  const std::vector<double> flow = transport_flow(num_parts, edges, excess, cap_pq, cap_qp);
  double scale = 0.0;
  for (double x : excess) scale = std::max(scale, std::abs(x));
  std::vector<ArcFlow> out;
  for (std::size_t k = 0; k < edges.size(); ++k) {
    if (std::abs(flow[k]) <= 1e-12 * scale) continue;
    if (flow[k] > 0.0) out.push_back({edges[k].p, edges[k].q, flow[k]});
    else out.push_back({edges[k].q, edges[k].p, -flow[k]});
  }
  std::sort(out.begin(), out.end(), [](const ArcFlow& a, const ArcFlow& b) { return a.p != b.p ? a.p < b.p : a.q < b.q; });
  return out;
}

std::size_t take_count(std::span<const double> weights_in_order, double quota) {
  if (!(quota > 0.0)) return 0;
  double taken = 0.0;
  std::size_t i = 0;
  for (; i < weights_in_order.size(); ++i) {
    if (taken + 0.5 * weights_in_order[i] > quota) break;
    taken += weights_in_order[i];
  }
  return i;
}

}  // namespace hpart::repart
