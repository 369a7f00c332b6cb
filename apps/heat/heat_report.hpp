#pragma once
// What hpart-heat prints (rank 0) and writes with --json: one line/record per reported step and
// a final summary, in the BENCH.md record shape (suite "app-heat", case "heat2d"/"heat3d").
#include <cstdio>
#include <optional>
#include <string>

#include "heat_options.hpp"
#include "heat_problem.hpp"
#include "hpart/comm.hpp"

namespace hpart_heat {

// One step, reduced over the ranks (valid on rank 0).
struct StepSample {
  int step = 0;
  double step_s = 0;        // max over ranks: halo exchange + update
  double compute_max = 0, compute_mean = 0;  // the update alone (what the imbalance is made of)
  double cost_max = 0, cost_mean = 0;        // the partitioner's cost model of the same cells
  bool rebalanced = false;  // a repartition (and redistribution) came right before this step
  double rebalance_s = 0;   // its time, max over ranks
  long long migrated = 0;   // cells it moved between ranks

  [[nodiscard]] double imbalance() const { return compute_mean > 0 ? compute_max / compute_mean - 1 : 0; }
  [[nodiscard]] double predicted() const { return cost_mean > 0 ? cost_max / cost_mean - 1 : 0; }
};

// Collective: reduces this rank's times and cost to rank 0.
StepSample reduce_step(const hpart::Comm& comm, int step, double step_s, double compute_s, double cost);

struct RunSummary {
  int steps = 0;
  double wall_s = 0;  // the time loop, rebalancing included (max over ranks)
  // Sums over the steps of the slowest rank's and of the mean update time (rank 0): their ratio
  // is the run's imbalance. (Per-rank totals would hide a load that visits every rank in turn.)
  double compute_max = 0, compute_mean = 0;
  double step_imbalance_sum = 0;             // sum over steps of the measured step imbalance
  double predicted_sum = 0;                  // ... and of the predicted one
  int rebalances = 0;
  double rebalance_s = 0;
  long long migrated = 0;
  std::optional<double> check_error;  // --check: max |distributed - serial|
};

class HeatReport {
 public:
  // Collective: rank 0 opens --json; a failure throws hpart::Error(io) on every rank.
  HeatReport(const hpart::Comm& comm, const HeatOptions& opts, const HeatProblem& problem);
  ~HeatReport();
  HeatReport(const HeatReport&) = delete;
  HeatReport& operator=(const HeatReport&) = delete;

  void header(const std::string& threads_why) const;  // threads_why: thread_default.hpp's reason
  void step(const StepSample& s);  // rank 0: prints the line and writes the record
  void summary(const RunSummary& r);

 private:
  bool printing() const { return rank_ == 0 && !opts_.quiet; }
  void write(const std::string& line);

  int rank_ = 0, ranks_ = 1, threads_ = 1;
  HeatOptions opts_;
  HeatProblem problem_;
  std::FILE* json_ = nullptr;
};

}  // namespace hpart_heat
