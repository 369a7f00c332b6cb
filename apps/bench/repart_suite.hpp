#pragma once
// The "repart" suite: dynamic repartitioning of a drifting load. Case drift3d: side^3 cells given
// as points at the cell centres, cost 1 plus a Gaussian ball (peak 5x the background) drifting
// corner to corner over `steps` steps; whenever the imbalance exceeds 2% the method rebalances.
// Case graphdrift (graph_drift_case.hpp): the same drift on a 2D grid graph; case griddrift
// (grid_drift_case.hpp) on a 2D grid of cells. One summary record per method with totals over
// the scenario.
#include <string>
#include <vector>

#include "bench_record.hpp"
#include "hpart/comm.hpp"

namespace hpart_bench {

struct RepartSuiteConfig {
  int parts = 64;
  long long side = 100;  // cells per side
  long long graph_side = 512;  // graphdrift: vertices per side of the grid graph
  long long grid_side = 1024;  // griddrift: cells per side of the grid
  int steps = 50;
  double threshold = 0.02;  // rebalance when the imbalance exceeds this
  std::vector<std::string> cases{"drift3d"};
  bool run_hpart = true, run_zoltan = true;
};

bool is_repart_case(const std::string& name);

void run_repart_suite(const hpart::Comm& comm, const RepartSuiteConfig& cfg, RecordSink& sink);

}  // namespace hpart_bench
