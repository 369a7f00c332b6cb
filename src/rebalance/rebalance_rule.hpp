#pragma once
// The decision rule: rebalance when the time a rebalance now is predicted to save over the
// horizon exceeds its predicted cost. MPI-free (it fills the public Decision); the
// Rebalancer runs it on identical inputs on every rank.
#include <string>

#include "hpart/rebalance_decision.hpp"
#include "rebalance/load_model.hpp"

namespace hpart::repart {

struct RuleInputs {
  double seconds_per_unit = 1.0;  // converts the model's load units into seconds
  int horizon = 50;
  double tolerance = 0.02;
  // Imbalance a rebalance leaves behind (the incremental method ends between 0.6 and 0.9 of the tolerance).
  double residual_imbalance = 0.015;
  double predicted_cost_seconds = 0.0;
  int steps_since = 0;
};

// Without a rebalance the loss at step h is the predicted gap max - mean. After one, the gap
// restarts at the residual imbalance and regrows at the gap's predicted growth rate (a drifting
// hotspot keeps drifting), so the saving is the difference of the two, summed over the horizon.
Decision decide_rebalance(const LoadModel& model, const RuleInputs& in);

}  // namespace hpart::repart
