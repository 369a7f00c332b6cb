#pragma once
// Smoothed load per part (or rank) with a linear trend (Holt's double exponential smoothing), so
// a drifting hotspot is extrapolated rather than chased. MPI-free: the Rebalancer feeds it the
// same global loads on every rank.
#include <span>
#include <vector>

namespace hpart::repart {

class LoadModel {
 public:
  LoadModel(double level_weight, double trend_weight) : alpha_(level_weight), beta_(trend_weight) {}

  // One step's loads (the same length each time; a new length restarts the model).
  void observe(std::span<const double> loads);
  void reset() { level_.clear(), trend_.clear(), last_.clear(), observations_ = 0; }

  [[nodiscard]] int observations() const { return observations_; }
  [[nodiscard]] std::size_t size() const { return level_.size(); }
  [[nodiscard]] std::span<const double> last() const { return last_; }
  // Predicted loads h steps ahead (h = 0: the smoothed level), clamped at 0.
  [[nodiscard]] std::vector<double> predict(int h) const;

 private:
  double alpha_, beta_;
  std::vector<double> level_, trend_, last_;
  int observations_ = 0;
};

// max / mean - 1 of loads (0 when the mean is 0 or there are none).
double load_imbalance(std::span<const double> loads);
// max - mean of loads.
double load_gap(std::span<const double> loads);

}  // namespace hpart::repart
