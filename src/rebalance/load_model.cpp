#include "rebalance/load_model.hpp"

#include <algorithm>
#include <numeric>

namespace hpart::repart {

void LoadModel::observe(std::span<const double> loads) {
  if (observations_ == 0 || loads.size() != level_.size()) {
    level_.assign(loads.begin(), loads.end());
    trend_.assign(loads.size(), 0.0);
    last_ = level_;
    observations_ = 1;
    return;
  }
  for (std::size_t i = 0; i < loads.size(); ++i) {
    const double prev = level_[i];
    level_[i] = alpha_ * loads[i] + (1.0 - alpha_) * (prev + trend_[i]);
    // The second observation is the first that shows a change: take it whole, so a steady drift
    // is tracked from the start instead of being learnt over 1/beta steps.
    const double b = observations_ == 1 ? 1.0 : beta_;
    trend_[i] = b * (level_[i] - prev) + (1.0 - b) * trend_[i];
  }
  last_.assign(loads.begin(), loads.end());
  ++observations_;
}

std::vector<double> LoadModel::predict(int h) const {
  std::vector<double> p(level_.size());
  for (std::size_t i = 0; i < p.size(); ++i) p[i] = std::max(0.0, level_[i] + h * trend_[i]);
  return p;
}

double load_gap(std::span<const double> loads) {
  if (loads.empty()) return 0.0;
  const double mean = std::accumulate(loads.begin(), loads.end(), 0.0) / static_cast<double>(loads.size());
  return *std::max_element(loads.begin(), loads.end()) - mean;
}

double load_imbalance(std::span<const double> loads) {
  if (loads.empty()) return 0.0;
  const double mean = std::accumulate(loads.begin(), loads.end(), 0.0) / static_cast<double>(loads.size());
  return mean > 0.0 ? *std::max_element(loads.begin(), loads.end()) / mean - 1.0 : 0.0;
}

}  // namespace hpart::repart
