#include "heat_report.hpp"

#include <mpi.h>
#include <omp.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

namespace hpart_heat {
namespace {

// The fields every record shares (BENCH.md): n is the total cell count, as in the grid suite;
// side is the cells per dimension.
nlohmann::ordered_json base_record(const HeatOptions& o, const HeatProblem& p, int ranks, int threads) {
  nlohmann::ordered_json j;
  j["suite"] = "app-heat";
  j["case"] = p.dim == 3 ? "heat3d" : "heat2d";
  j["library"] = "hpart";
  j["method"] = o.method;
  j["n"] = p.domain().volume();
  j["side"] = p.n;
  j["parts"] = ranks;
  j["ranks"] = ranks;
  j["threads"] = threads;
  return j;
}

}  // namespace

StepSample reduce_step(const hpart::Comm& comm, int step, double step_s, double compute_s, double cost) {
  const double mine_max[3] = {step_s, compute_s, cost};
  const double mine_sum[2] = {compute_s, cost};
  double max[3] = {0, 0, 0}, sum[2] = {0, 0};
  MPI_Reduce(mine_max, max, 3, MPI_DOUBLE, MPI_MAX, 0, comm.get());
  MPI_Reduce(mine_sum, sum, 2, MPI_DOUBLE, MPI_SUM, 0, comm.get());
  StepSample s;
  s.step = step;
  s.step_s = max[0];
  s.compute_max = max[1];
  s.cost_max = max[2];
  s.compute_mean = sum[0] / comm.size();
  s.cost_mean = sum[1] / comm.size();
  return s;
}

HeatReport::HeatReport(const hpart::Comm& comm, const HeatOptions& opts, const HeatProblem& problem)
    : rank_(comm.rank()), ranks_(comm.size()), threads_(omp_get_max_threads()), opts_(opts), problem_(problem) {
  std::string problem_msg;
  if (rank_ == 0 && !opts.json.empty()) {
    json_ = std::fopen(opts.json.c_str(), "w");
    if (!json_) problem_msg = "cannot open --json file '" + opts.json + "' for writing: " + std::strerror(errno);
  }
  comm.agree(problem_msg.empty() ? hpart::ErrorCode::ok : hpart::ErrorCode::io, problem_msg);
}

HeatReport::~HeatReport() {
  if (json_) std::fclose(json_);
}

void HeatReport::write(const std::string& line) {
  if (!json_) return;
  std::fputs(line.c_str(), json_);
  std::fputc('\n', json_);
  std::fflush(json_);  // a killed run keeps the steps it measured
}

void HeatReport::header(const std::string& threads_why) const {
  if (!printing()) return;
  const auto& p = problem_;
  const auto point = [&](const std::array<double, 3>& c) {
    char buf[64];
    if (p.dim == 3)
      std::snprintf(buf, sizeof buf, "(%.2f,%.2f,%.2f)", c[0], c[1], c[2]);
    else
      std::snprintf(buf, sizeof buf, "(%.2f,%.2f)", c[0], c[1]);
    return std::string(buf);
  };
  std::printf("hpart-heat: %dD %lld^%d cells, %d steps; hot %s r=%.2f x%d moving %s -> %s; %d sub-steps/unit\n", p.dim,
              static_cast<long long>(p.n), p.dim, p.steps, p.dim == 3 ? "ball" : "disk", p.radius, p.hot,
              point(p.centre(0)).c_str(), point(p.centre(p.steps - 1)).c_str(), p.work);
  std::printf("method %s, rebalance %s, %d ranks, %s; imbalance from %s time of the update\n",
              opts_.method.c_str(),
              opts_.rebalance_every > 0 ? ("every " + std::to_string(opts_.rebalance_every) + " steps").c_str()
                                        : "never (partitioned once at step 0)",
              ranks_, threads_why.c_str(), opts_.clock == "cpu" ? "CPU" : "wall");
  std::printf("%6s %10s %10s %10s  %s\n", "step", "step_s", "imbalance", "predicted", "rebalance");
  std::fflush(stdout);
}

void HeatReport::step(const StepSample& s) {
  if (rank_ != 0) return;
  if (!opts_.quiet) {
    std::printf("%6d %10.5f %10.4f %10.4f", s.step, s.step_s, s.imbalance(), s.predicted());
    if (s.rebalanced) std::printf("  %.4f s, %lld cells moved", s.rebalance_s, s.migrated);
    std::printf("\n");
    std::fflush(stdout);
  }
  nlohmann::ordered_json j = base_record(opts_, problem_, ranks_, threads_);
  j["step"] = s.step;
  j["time_s"] = s.step_s;
  j["imbalance"] = s.imbalance();
  j["predicted_imbalance"] = s.predicted();
  j["compute_s"] = s.compute_max;
  j["clock"] = opts_.clock;
  j["rebalanced"] = s.rebalanced;
  if (s.rebalanced) {
    j["rebalance_s"] = s.rebalance_s;
    j["migrated"] = s.migrated;
  }
  write(j.dump());
}

void HeatReport::summary(const RunSummary& r) {
  if (rank_ != 0) return;
  const double run_imbalance = r.compute_mean > 0 ? r.compute_max / r.compute_mean - 1 : 0;
  const double mean_step = r.steps > 0 ? r.step_imbalance_sum / r.steps : 0;
  const double mean_predicted = r.steps > 0 ? r.predicted_sum / r.steps : 0;
  std::printf("summary: %d steps in %.3f s (%.3f s rebalancing, %d rebalances, %lld cells moved); update time "
              "(sum over steps) slowest rank %.3f s, mean %.3f s: imbalance %.4f (mean per step %.4f, predicted %.4f)\n",
              r.steps, r.wall_s, r.rebalance_s, r.rebalances, r.migrated, r.compute_max, r.compute_mean,
              run_imbalance, mean_step, mean_predicted);
  std::fflush(stdout);
  nlohmann::ordered_json j = base_record(opts_, problem_, ranks_, threads_);
  j["step"] = r.steps;
  j["summary"] = true;
  j["time_s"] = r.wall_s;
  j["imbalance"] = run_imbalance;
  j["mean_step_imbalance"] = mean_step;
  j["mean_predicted_imbalance"] = mean_predicted;
  j["compute_s"] = r.compute_max;
  j["compute_mean_s"] = r.compute_mean;
  j["clock"] = opts_.clock;
  j["rebalance_every"] = opts_.rebalance_every;
  j["rebalances"] = r.rebalances;
  j["rebalance_s"] = r.rebalance_s;
  j["migrated"] = r.migrated;
  if (r.check_error) j["error"] = *r.check_error;
  write(j.dump());
}

}  // namespace hpart_heat
