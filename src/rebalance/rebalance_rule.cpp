#include "rebalance/rebalance_rule.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace hpart::repart {

namespace {
double mean_of(const std::vector<double>& v) {
  return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}
}  // namespace

Decision decide_rebalance(const LoadModel& model, const RuleInputs& in) {
  Decision d;
  d.steps_since = in.steps_since;
  d.residual_imbalance = in.residual_imbalance;
  d.predicted_cost_seconds = in.predicted_cost_seconds;
  if (model.observations() == 0 || model.size() == 0) {
    d.reason = "no load observed since the last partition";
    return d;
  }
  d.imbalance = load_imbalance(model.last());
  const int H = std::max(1, in.horizon);
  std::vector<double> gap(static_cast<std::size_t>(H) + 1), mean(static_cast<std::size_t>(H) + 1);
  for (int h = 1; h <= H; ++h) {
    const std::vector<double> p = model.predict(h);
    gap[static_cast<std::size_t>(h)] = load_gap(p) * in.seconds_per_unit;
    mean[static_cast<std::size_t>(h)] = mean_of(p) * in.seconds_per_unit;
    if (h == H) d.predicted_imbalance = load_imbalance(p);
  }
  const double next_imbalance = load_imbalance(model.predict(1));
  const double rate = H > 1 ? std::max(0.0, (gap[static_cast<std::size_t>(H)] - gap[1]) / (H - 1)) : 0.0;
  double loss = 0.0, gain = 0.0;
  for (int h = 1; h <= H; ++h) {
    const std::size_t i = static_cast<std::size_t>(h);
    const double after = in.residual_imbalance * mean[i] + rate * h;
    loss += gap[i];
    gain += std::max(0.0, gap[i] - after);
  }
  d.predicted_loss_seconds = loss;
  d.predicted_gain_seconds = gain;
  char buf[256];
  if (next_imbalance <= in.tolerance) {
    std::snprintf(buf, sizeof buf, "imbalance %.4f (next step %.4f) within tolerance %.4f", d.imbalance,
                  next_imbalance, in.tolerance);
  } else if (gain <= in.predicted_cost_seconds) {
    std::snprintf(buf, sizeof buf, "imbalance %.4f, but saving %.4g s over %d steps <= cost %.4g s (residual %.4f)",
                  next_imbalance, gain, H, in.predicted_cost_seconds, in.residual_imbalance);
  } else {
    d.rebalance = true;
    std::snprintf(buf, sizeof buf, "imbalance %.4f: saving %.4g s over %d steps > cost %.4g s (residual %.4f)",
                  next_imbalance, gain, H, in.predicted_cost_seconds, in.residual_imbalance);
  }
  d.reason = buf;
  return d;
}

}  // namespace hpart::repart
