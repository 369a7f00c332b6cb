#pragma once
// Part weight bounds of the multilevel partitioner: every constraint of every part p must stay at
// or below floor((1 + imbalance) * share_p * total_c), the bound METIS's ubvec expresses too.
#include <cstdint>
#include <span>
#include <vector>

#include "graph/ml_graph_view.hpp"
#include "hpart/types.hpp"

namespace hpart::graphk {

struct Balance {
  int k = 1;
  int ncon = 1;
  std::vector<double> share;         // k relative part sizes, summing to 1
  std::vector<std::int64_t> total;   // ncon total vertex weights
  std::vector<double> target;        // k * ncon: share_p * total_c
  std::vector<std::int64_t> maxw;    // k * ncon: floor((1 + imbalance) * target)
  std::vector<double> inv_maxw;      // k * ncon: 1 / max(maxw, 1), for relative loads

  [[nodiscard]] std::size_t at(part_t p, int c) const {
    return static_cast<std::size_t>(p) * static_cast<std::size_t>(ncon) + static_cast<std::size_t>(c);
  }
};

// `shares`: k values > 0 (normalised here). The totals come from the graph (integer sums, so the
// same for any thread count).
Balance make_balance(const GraphView& g, int k, double imbalance, std::span<const double> shares);

// k * ncon part weights of a partition (parts in [0, k)).
std::vector<std::int64_t> part_weights(const GraphView& g, std::span<const part_t> part, int k);

// max over parts and constraints of weight / target - 1 (targets of weight 0 are skipped).
double max_imbalance(const Balance& b, std::span<const std::int64_t> pw);

// True when every part and constraint is within its bound.
bool within_bounds(const Balance& b, std::span<const std::int64_t> pw);

}  // namespace hpart::graphk
