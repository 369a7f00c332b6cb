#pragma once
// What hpart-particles prints (rank 0) and writes with --json: one record per reported step and
// a final summary, in the BENCH.md record shape (suite "app-particles", case "drift2d",
// method = the mode).
#include <cstdio>
#include <string>

#include "hpart/comm.hpp"
#include "particles_options.hpp"
#include "particles_problem.hpp"

namespace hpart_particles {

// One step, reduced over the ranks (valid on rank 0).
struct StepSample {
  int step = 0;
  double step_s = 0;                          // max over ranks: the whole step, rebalancing included
  double compute_max = 0, compute_mean = 0;   // forces + integration (what the imbalance is made of)
  double work_max = 0, work_mean = 0;         // distance tests (the partitioner's cost model)
  bool rebalanced = false;                    // a repartition came before this step's forces
  double rebalance_s = 0;                     // its time (partition + migration), max over ranks
  double partition_s = 0;                     // ... of which the partition call
  long long rebalance_migrated = 0;           // particles the repartition moved
  long long cells_moved = 0;
  long long crossed = 0;                      // particles that crossed into another rank's cell
  std::string decision;                       // feedback: the Rebalancer's reason

  [[nodiscard]] double imbalance() const { return compute_mean > 0 ? compute_max / compute_mean - 1 : 0; }
  [[nodiscard]] double work_imbalance() const { return work_mean > 0 ? work_max / work_mean - 1 : 0; }
};

// Collective: this rank's times and work reduced to rank 0.
void reduce_step(const hpart::Comm& comm, double step_s, double compute_s, double work, StepSample& s);

struct RunSummary {
  int steps = 0;
  double wall_s = 0;  // the time loop (max over ranks)
  double compute_max = 0, compute_mean = 0;  // sums over the steps of the slowest and mean rank
  double work_imbalance_sum = 0;
  int rebalances = 0;
  double rebalance_s = 0, partition_s = 0;
  double feedback_s = 0;  // in the Rebalancer's observe() and decide() (max over ranks)
  double ghost_s = 0;     // in the ghost exchange (max over ranks)
  long long ghosts = 0;   // ghost particles received, summed over steps and ranks
  long long rebalance_migrated = 0, crossed = 0, cells_moved = 0, bytes = 0;
  long long particles = 0;
  bool checked = false, check_ok = true;
};

class ParticlesReport {
 public:
  // Collective: rank 0 opens --json; a failure throws hpart::Error(io) on every rank.
  ParticlesReport(const hpart::Comm& comm, const ParticlesOptions& opts, const ParticlesProblem& problem);
  ~ParticlesReport();
  ParticlesReport(const ParticlesReport&) = delete;
  ParticlesReport& operator=(const ParticlesReport&) = delete;

  void header(const std::string& threads_why) const;  // threads_why: thread_default.hpp's reason
  void step(const StepSample& s);
  void summary(const RunSummary& r);

 private:
  [[nodiscard]] bool printing() const { return rank_ == 0 && !opts_.quiet; }
  void write(const std::string& line);

  int rank_ = 0, ranks_ = 1, threads_ = 1;
  ParticlesOptions opts_;
  ParticlesProblem problem_;
  std::FILE* json_ = nullptr;
};

}  // namespace hpart_particles
