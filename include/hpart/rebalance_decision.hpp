#pragma once
// The Rebalancer's verdict (Rebalancer::decide, rebalance.hpp), in a header of its own without
// MPI: the decision rule that fills it is a pure function of the load model.
#include <string>

namespace hpart {

// What decide() concluded, and from what.
struct Decision {
  bool rebalance = false;
  std::string reason;                 // one line, readable
  double imbalance = 0.0;             // last observed load imbalance (max / mean - 1)
  double predicted_imbalance = 0.0;   // predicted imbalance at the end of the horizon
  double predicted_loss_seconds = 0.0;  // predicted sum over the horizon of (max - mean) load
  // The part of that loss a rebalance now would save: the imbalance a rebalance leaves regrows
  // at the predicted rate, so this is less than the loss when the load drifts.
  double predicted_gain_seconds = 0.0;
  double predicted_cost_seconds = 0.0;  // predicted repartition + migration time
  // Imbalance a rebalance is predicted to leave: the imbalance observed right after the last
  // (re)partition, less its growth to the next observation (drift, counted by the regrowth), for
  // a horizon of steps after it; before and after that, 0.75 x imbalance. A rebalance whose
  // weights miss the real costs thus is not repeated at once for nothing.
  double residual_imbalance = 0.0;
  int steps_since = 0;                // observations since the last (re)partition
};

}  // namespace hpart
