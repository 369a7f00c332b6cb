#include "particles_report.hpp"

#include <mpi.h>
#include <omp.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

namespace hpart_particles {
namespace {

nlohmann::ordered_json base_record(const ParticlesOptions& o, const ParticlesProblem& p, int ranks, int threads) {
  nlohmann::ordered_json j;
  j["suite"] = "app-particles";
  j["case"] = "drift2d";
  j["library"] = "hpart";
  j["method"] = o.mode;
  j["n"] = p.n;
  j["cells"] = static_cast<long long>(p.cells) * p.cells;
  j["parts"] = ranks;
  j["ranks"] = ranks;
  j["threads"] = threads;  // of hpart's calls (the force loop is serial)
  return j;
}

}  // namespace

void reduce_step(const hpart::Comm& comm, double step_s, double compute_s, double work, StepSample& s) {
  const double mine_max[3] = {step_s, compute_s, work};
  const double mine_sum[2] = {compute_s, work};
  double max[3] = {0, 0, 0}, sum[2] = {0, 0};
  MPI_Reduce(mine_max, max, 3, MPI_DOUBLE, MPI_MAX, 0, comm.get());
  MPI_Reduce(mine_sum, sum, 2, MPI_DOUBLE, MPI_SUM, 0, comm.get());
  s.step_s = max[0];
  s.compute_max = max[1];
  s.work_max = max[2];
  s.compute_mean = sum[0] / comm.size();
  s.work_mean = sum[1] / comm.size();
}

ParticlesReport::ParticlesReport(const hpart::Comm& comm, const ParticlesOptions& opts, const ParticlesProblem& problem)
    : rank_(comm.rank()), ranks_(comm.size()), threads_(omp_get_max_threads()), opts_(opts), problem_(problem) {
  std::string problem_msg;
  if (rank_ == 0 && !opts.json.empty()) {
    json_ = std::fopen(opts.json.c_str(), "w");
    if (!json_) problem_msg = "cannot open --json file '" + opts.json + "' for writing: " + std::strerror(errno);
  }
  comm.agree(problem_msg.empty() ? hpart::ErrorCode::ok : hpart::ErrorCode::io, problem_msg);
}

ParticlesReport::~ParticlesReport() {
  if (json_) std::fclose(json_);
}

void ParticlesReport::write(const std::string& line) {
  if (!json_) return;
  std::fputs(line.c_str(), json_);
  std::fputc('\n', json_);
  std::fflush(json_);
}

void ParticlesReport::header(const std::string& threads_why) const {
  if (!printing()) return;
  const auto& p = problem_;
  std::printf("hpart-particles: %lld particles, %d^2 cells (cutoff %.4g), %d steps; blob %.0f%% moving (%.2f,%.2f) -> "
              "(%.2f,%.2f); mode %s, %d ranks, %s\n",
              p.n, p.cells, p.cutoff(), p.steps, 100 * p.blob_fraction, p.from[0], p.from[1], p.to[0], p.to[1],
              opts_.mode.c_str(), ranks_, threads_why.c_str());
  std::printf("%6s %10s %10s %10s %10s  %s\n", "step", "step_s", "imbalance", "work_imb", "work", "rebalance");
  std::fflush(stdout);
}

void ParticlesReport::step(const StepSample& s) {
  if (rank_ != 0) return;
  if (!opts_.quiet) {
    std::printf("%6d %10.5f %10.4f %10.4f %10.3g", s.step, s.step_s, s.imbalance(), s.work_imbalance(),
                s.work_mean * ranks_);
    if (s.rebalanced)
      std::printf("  %.4f s, %lld cells, %lld particles moved", s.rebalance_s, s.cells_moved, s.rebalance_migrated);
    std::printf("\n");
    std::fflush(stdout);
  }
  nlohmann::ordered_json j = base_record(opts_, problem_, ranks_, threads_);
  j["step"] = s.step;
  j["time_s"] = s.step_s;
  j["imbalance"] = s.imbalance();
  j["work_imbalance"] = s.work_imbalance();
  j["work"] = s.work_mean * ranks_;
  j["compute_s"] = s.compute_max;
  j["clock"] = opts_.clock;
  j["rebalanced"] = s.rebalanced;
  j["crossed"] = s.crossed;
  if (s.rebalanced) {
    j["rebalance_s"] = s.rebalance_s;
    j["partition_s"] = s.partition_s;
    j["migrated"] = s.rebalance_migrated;
    j["cells_moved"] = s.cells_moved;
  }
  if (!s.decision.empty()) j["decision"] = s.decision;
  write(j.dump());
}

void ParticlesReport::summary(const RunSummary& r) {
  if (rank_ != 0) return;
  const double run_imbalance = r.compute_mean > 0 ? r.compute_max / r.compute_mean - 1 : 0;
  const double mean_work = r.steps > 0 ? r.work_imbalance_sum / r.steps : 0;
  std::printf("summary: mode %s, %d steps in %.3f s (%.3f s in %d rebalances moving %lld particles; %lld crossings); "
              "compute (sum over steps) slowest rank %.3f s, mean %.3f s: imbalance %.4f (work %.4f)\n",
              opts_.mode.c_str(), r.steps, r.wall_s, r.rebalance_s, r.rebalances, r.rebalance_migrated, r.crossed,
              r.compute_max, r.compute_mean, run_imbalance, mean_work);
  std::fflush(stdout);
  nlohmann::ordered_json j = base_record(opts_, problem_, ranks_, threads_);
  j["step"] = r.steps;
  j["summary"] = true;
  j["time_s"] = r.wall_s;
  j["imbalance"] = run_imbalance;
  j["mean_work_imbalance"] = mean_work;
  j["compute_s"] = r.compute_max;
  j["compute_mean_s"] = r.compute_mean;
  j["clock"] = opts_.clock;
  j["rebalances"] = r.rebalances;
  j["rebalance_s"] = r.rebalance_s;
  j["partition_s"] = r.partition_s;
  if (opts_.mode == "feedback") j["feedback_s"] = r.feedback_s;
  j["ghost_s"] = r.ghost_s;
  j["ghosts_per_step"] = r.steps > 0 ? static_cast<double>(r.ghosts) / r.steps : 0.0;
  j["migrated"] = r.rebalance_migrated + r.crossed;
  j["rebalance_migrated"] = r.rebalance_migrated;
  j["crossed"] = r.crossed;
  j["cells_moved"] = r.cells_moved;
  j["bytes"] = r.bytes;
  j["particles"] = r.particles;
  if (r.checked) j["check"] = r.check_ok ? "ok" : "failed";
  write(j.dump());
}

}  // namespace hpart_particles
