#include "hpart/rebalance.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <numeric>

#include "core/log.hpp"
#include "metrics/partition_metrics.hpp"
#include "core/validate.hpp"
#include "metrics/part_ids.hpp"
#include "hpart/points.hpp"
#include "rebalance/cost_fit.hpp"
#include "rebalance/load_model.hpp"
#include "points/point_diffusion.hpp"
#include "rebalance/rebalance_rule.hpp"
#include "rebalance/rebalancer_state.hpp"
#include "migration/relabel_partition.hpp"
#include "points/partition_scanned.hpp"
#include "kernels/enum_names.hpp"
#include "metrics/migration_volume.hpp"

namespace hpart {

constexpr detail::EnumNames<RebalanceKind, 4> kKinds{{
    {RebalanceKind::none, "none"}, {RebalanceKind::scratch, "scratch"}, {RebalanceKind::shift, "shift"},
    {RebalanceKind::diffusion, "diffusion"}}};

const char* to_string(RebalanceKind k) { return detail::enum_name(kKinds, k); }

namespace {

std::string check_options(const RebalanceOptions& o) {
  if (std::string m = detail::check_parts(o.parts); !m.empty()) return m;
  auto in_unit = [](double v) { return v > 0.0 && v <= 1.0; };
  if (!(o.imbalance > 0.0) || !std::isfinite(o.imbalance)) return "imbalance must be finite and > 0";
  if (o.horizon < 1) return "horizon must be >= 1 step";
  if (!in_unit(o.smoothing) || !in_unit(o.trend_smoothing) || !in_unit(o.forgetting))
    return "smoothing, trend_smoothing and forgetting must lie in (0, 1]";
  if (!(o.max_surface_growth >= 1.0)) return "max_surface_growth must be >= 1";
  if (o.max_rounds < 1) return "max_rounds must be >= 1";
  if (!(o.itr > 0.0) || !std::isfinite(o.itr)) return "itr must be finite and > 0";
  // Load model, diffusion contact and flow tables, relabelling: ~320 bytes a part (measured: K =
  // 2^20 took ~300 MB on each rank).
  return detail::check_part_memory(o.parts, 320.0, 0, 0.0);
}

std::string check_values(std::span<const double> v, const char* what) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i]) || v[i] < 0.0)
      return std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(v[i]) + ": must be finite and >= 0";
  return {};
}

}  // namespace

Rebalancer::Rebalancer(const Comm& comm, RebalanceOptions opts) {
  const std::string problem = check_options(opts);
  // Every decision is taken from the options on every rank alike: ranks whose options differ
  // would decide differently and wait in different collectives.
  detail::Replicated args;
  args.value("Rebalancer: parts", static_cast<long long>(opts.parts))
      .value("Rebalancer: curve", static_cast<long long>(opts.curve))
      .value("Rebalancer: imbalance", opts.imbalance)
      .value("Rebalancer: horizon", static_cast<long long>(opts.horizon))
      .value("Rebalancer: smoothing", opts.smoothing)
      .value("Rebalancer: trend_smoothing", opts.trend_smoothing)
      .value("Rebalancer: forgetting", opts.forgetting)
      .value("Rebalancer: max_surface_growth", opts.max_surface_growth)
      .value("Rebalancer: incremental", static_cast<long long>(opts.incremental))
      .value("Rebalancer: max_rounds", static_cast<long long>(opts.max_rounds))
      .value("Rebalancer: itr", opts.itr);
  detail::agree(comm, args, problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument,
                problem.empty() ? std::string{} : "Rebalancer: " + problem);
  state_ = std::make_unique<State>(comm, opts);
}
Rebalancer::~Rebalancer() = default;
Rebalancer::Rebalancer(Rebalancer&&) noexcept = default;
Rebalancer& Rebalancer::operator=(Rebalancer&&) noexcept = default;

const RebalanceStats& Rebalancer::stats() const { return state_->stats; }
const Decision& Rebalancer::last_decision() const { return state_->decision; }
const RebalanceOptions& Rebalancer::options() const { return state_->opts; }

namespace {
PointOptions scratch_options(const RebalanceOptions& o) {
  PointOptions s;
  s.parts = o.parts;
  s.curve = o.curve;
  s.imbalance = std::min(0.001, o.imbalance / 4);
  return s;
}
}  // namespace

Partition Rebalancer::partition(const PointSet& points) {
  State& s = *state_;
  Partition p = hpart::partition_points(s.comm, points, scratch_options(s.opts));
  s.record_fresh(p);
  s.curve_order.resize(static_cast<std::size_t>(s.opts.parts));
  std::iota(s.curve_order.begin(), s.curve_order.end(), 0);
  s.fresh_pending = true;
  s.graph_surface = false;
  return p;
}

void Rebalancer::observe(const Observation& obs) {
  State& s = *state_;
  const int K = s.opts.parts;
  const std::span<const part_t> parts = obs.parts.empty() ? std::span<const part_t>(s.parts) : obs.parts;
  const std::size_t n = parts.size();
  const bool has_step = obs.step_seconds.has_value();
  // Local checks first, agreed, then the checks that need every rank's flags.
  std::string problem;
  ErrorCode code = ErrorCode::ok;
  auto fail = [&](ErrorCode c, std::string m) {
    if (problem.empty()) code = c, problem = "observe(): " + std::move(m);
  };
  if (has_step && (!std::isfinite(*obs.step_seconds) || *obs.step_seconds < 0.0))
    fail(ErrorCode::invalid_input, "step_seconds = " + std::to_string(*obs.step_seconds) + ": must be finite and >= 0");
  if (obs.parts.empty() && !s.have_parts && (!obs.object_costs.empty() || !obs.features.empty()))
    fail(ErrorCode::invalid_argument, "no partition known yet: pass the parts of the local objects");
  if (!obs.object_costs.empty() && obs.object_costs.size() != n)
    fail(ErrorCode::size_mismatch, "object_costs has " + std::to_string(obs.object_costs.size()) + " values for " +
                                       std::to_string(n) + " local objects");
  if (obs.nfeatures < 0 || (!obs.features.empty() && obs.features.size() != n * static_cast<std::size_t>(std::max(0, obs.nfeatures))))
    fail(ErrorCode::size_mismatch, "features has " + std::to_string(obs.features.size()) + " values for " +
                                       std::to_string(n) + " local objects x nfeatures " + std::to_string(obs.nfeatures));
  if (problem.empty()) {
    if (std::string m = check_values(obs.object_costs, "object_costs"); !m.empty()) fail(ErrorCode::invalid_input, m);
    if (std::string m = check_values(obs.features, "features"); !m.empty()) fail(ErrorCode::invalid_input, m);
    if (std::string m = detail::check_part_ids(obs.parts, K); !m.empty()) fail(ErrorCode::invalid_input, m);
  }
  s.comm.agree(code, problem);

  // flags: step set (min, max), costs given (max), features given (max), nfeatures (min, max)
  int flags[6] = {has_step ? 1 : 0, has_step ? -1 : 0, obs.object_costs.empty() ? 0 : -1, obs.features.empty() ? 0 : -1,
                  obs.nfeatures, -obs.nfeatures};
  MPI_Allreduce(MPI_IN_PLACE, flags, 6, MPI_INT, MPI_MIN, s.comm.get());
  const bool step_all = flags[0] == 1, step_any = flags[1] == -1, costs = flags[2] == -1, features = flags[3] == -1;
  if (step_any && !step_all)
    throw Error(ErrorCode::invalid_argument, "observe(): step_seconds is set on some ranks only: set it on all or none");
  if (features && flags[4] != -flags[5])
    throw Error(ErrorCode::invalid_argument, "observe(): nfeatures differs between ranks");
  if (features && flags[4] < 1)
    throw Error(ErrorCode::invalid_argument, "observe(): features given with nfeatures < 1");
  if (!step_all && !costs && !(features && !s.fit.coefficients().empty()))
    throw Error(ErrorCode::invalid_argument,
                "observe(): nothing to learn from: give step_seconds, object_costs, or features once a cost model is fitted "
                "(features need step_seconds to fit it)");
  problem.clear();
  if (costs && n > 0 && obs.object_costs.empty()) problem = "observe(): object_costs missing on this rank (given on others)";
  if (features && n > 0 && obs.features.empty()) problem = "observe(): features missing on this rank (given on others)";
  s.comm.agree(problem.empty() ? ErrorCode::ok : ErrorCode::size_mismatch, problem);

  const double step = has_step ? *obs.step_seconds : 0.0;
  if (features && step_all) {  // one least-squares row per rank: step time ~ a . sum(features) + b * count
    const std::size_t m = static_cast<std::size_t>(flags[4]) + 1;
    std::vector<double> x(m, 0.0), buf(m * m + m, 0.0);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t f = 0; f + 1 < m; ++f) x[f] += obs.features[i * (m - 1) + f];
    x[m - 1] = static_cast<double>(n);
    repart::add_normal_row(x, step, std::span<double>(buf).first(m * m), std::span<double>(buf).subspan(m * m));
    MPI_Allreduce(MPI_IN_PLACE, buf.data(), static_cast<int>(buf.size()), MPI_DOUBLE, MPI_SUM, s.comm.get());
    s.fit.add(std::span<const double>(buf).first(m * m), std::span<const double>(buf).subspan(m * m), s.comm.size());
  }
  std::vector<double> loads;
  if (costs || (features && !s.fit.coefficients().empty())) {
    std::vector<double> predicted;
    if (!costs) predicted = predicted_costs(obs.features);
    const std::span<const double> c = costs ? obs.object_costs : std::span<const double>(predicted);
    loads.assign(static_cast<std::size_t>(K), 0.0);
    for (std::size_t i = 0; i < n; ++i) loads[static_cast<std::size_t>(parts[i])] += c[i];
    MPI_Allreduce(MPI_IN_PLACE, loads.data(), K, MPI_DOUBLE, MPI_SUM, s.comm.get());
    double total_step = step;
    MPI_Allreduce(MPI_IN_PLACE, &total_step, 1, MPI_DOUBLE, MPI_SUM, s.comm.get());
    const double total = std::accumulate(loads.begin(), loads.end(), 0.0);
    s.seconds_per_unit = step_all && total > 0.0 ? total_step / total : 1.0;
  } else {
    loads.resize(static_cast<std::size_t>(s.comm.size()));
    MPI_Allgather(&step, 1, MPI_DOUBLE, loads.data(), 1, MPI_DOUBLE, s.comm.get());
    s.seconds_per_unit = 1.0;
  }
  s.model.observe(loads);
  ++s.steps_since;
  const double seen = repart::load_imbalance(loads);
  if (s.await_residual) {
    s.residual = s.first_seen = seen;
    s.await_residual = false;
    s.await_growth = true;
  } else if (s.await_growth) {
    s.residual = std::max(s.first_seen - std::max(0.0, seen - s.first_seen), std::min(s.first_seen, s.balanced_imbalance));
    s.await_growth = false;
  }
}

Decision Rebalancer::decide() {
  State& s = *state_;
  repart::RuleInputs in;
  in.seconds_per_unit = s.seconds_per_unit;
  in.horizon = s.opts.horizon;
  in.tolerance = s.opts.imbalance;
  // The residual: what the last rebalance left (its first observation), for a horizon after it;
  // before that is known, and after a horizon, the middle of what diffusion aims at (0.6 to 0.9
  // of the tolerance). The expiry keeps a load that jumped right after a rebalance, and so
  // taught a large residual, from blocking rebalancing for good.
  const bool learned = s.residual >= 0.0 && s.steps_since <= s.opts.horizon;
  in.residual_imbalance = learned ? s.residual : 0.75 * s.opts.imbalance;
  in.predicted_cost_seconds = s.predicted_cost();
  in.steps_since = s.steps_since;
  Decision d = repart::decide_rebalance(s.model, in);
  // Reductions give every rank the same loads in practice; rank 0's verdict makes it certain.
  int yes = d.rebalance ? 1 : 0;
  MPI_Bcast(&yes, 1, MPI_INT, 0, s.comm.get());
  d.rebalance = yes != 0;
  s.decision = d;
  s.log("rebalance decision: " + std::string(d.rebalance ? "yes" : "no") + " (" + d.reason + ")");
  return d;
}

namespace {

// What the incremental path chose once the diffusion measured the parts: a splitter shift (the
// parts are curve ranges, and shifting the splitters moves no more than the diffusion's flow),
// the diffusion's rounds and parts, or (kind scratch) a fresh partition; and why.
struct IncrementalChoice {
  RebalanceKind kind = RebalanceKind::scratch;
  std::string why;
  int rounds = 0;
  std::vector<part_t> result;  // the diffusion's parts (kind diffusion)
};

IncrementalChoice choose_incremental(repart::PointDiffusion& diff, const RebalanceOptions& opts,
                                     const std::vector<int>& curve_order, int K, double surface_fresh) {
  IncrementalChoice c;
  const double surface = diff.surface();
  double shift = -1.0;  // weight a splitter shift moves, while the parts are curve ranges
  if (!curve_order.empty()) {
    const std::vector<double>& w = diff.part_weights();
    const double total = std::accumulate(w.begin(), w.end(), 0.0);
    double cum = 0.0;
    shift = 0.0;
    for (int j = 0; j + 1 < K; ++j) {
      cum += w[static_cast<std::size_t>(curve_order[static_cast<std::size_t>(j)])];
      shift += std::abs(cum - total * (j + 1) / K);
    }
  }
  if (surface_fresh > 0.0 && surface > opts.max_surface_growth * surface_fresh) {
    c.why = "surface " + std::to_string(surface) + " > " + std::to_string(opts.max_surface_growth) + " x fresh " +
            std::to_string(surface_fresh);
  } else if (shift >= 0.0 && shift <= diff.flow_total()) {
    c.kind = RebalanceKind::shift;
    c.why = "splitter shift moves ~" + std::to_string(shift) + " <= diffusion flow " + std::to_string(diff.flow_total());
  } else {
    c.rounds = diff.run(opts.max_rounds);
    const auto& ph = diff.phase_seconds();
    char info[224];
    std::snprintf(info, sizeof info,
                  "realised %.3f of the flow; surface %.4g x fresh; measure %.4f, contacts %.4f, flows %.4f, select %.4f s",
                  diff.realised_fraction(), surface_fresh > 0.0 ? surface / surface_fresh : 1.0, ph[0], ph[1], ph[2],
                  ph[3]);
    c.why = info;
    if (diff.imbalance() <= opts.imbalance) {
      c.kind = RebalanceKind::diffusion;
      c.result.assign(diff.parts().begin(), diff.parts().end());
    } else {
      c.why = "diffusion reached only " + std::to_string(diff.imbalance()) + " in " + std::to_string(c.rounds) + " rounds";
    }
  }
  return c;
}

// The part weights and sizes of a fresh partition under new labels (curve_order[j]: fresh part
// j's label).
std::pair<std::vector<double>, std::vector<long long>> relabelled_totals(const Partition& fresh,
                                                                        const std::vector<int>& curve_order) {
  const auto C = static_cast<std::size_t>(fresh.ncon);
  std::vector<double> weights(fresh.part_weights.size());
  std::vector<long long> sizes(fresh.part_sizes.size());
  for (std::size_t j = 0; j < curve_order.size(); ++j) {
    const auto to = static_cast<std::size_t>(curve_order[j]);
    sizes[to] = fresh.part_sizes[j];
    for (std::size_t c = 0; c < C; ++c) weights[to * C + c] = fresh.part_weights[j * C + c];
  }
  return {std::move(weights), std::move(sizes)};
}

}  // namespace

Partition Rebalancer::rebalance(const PointSet& points, std::span<const part_t> parts_in) {
  State& s = *state_;
  const int K = s.opts.parts;
  // The scan that validates the points also gives the local box the diffusion's grid needs;
  // when a diffusion may follow, it is the diffusion's measuring pass as well.
  std::string problem = detail::check_point_shape(points);
  const std::size_t n = problem.empty() ? points.size() : 0;
  const std::span<const part_t> cur = parts_in.empty() ? std::span<const part_t>(s.parts) : parts_in;
  std::string parts_problem;
  if (parts_in.empty() && s.have_parts && s.parts.size() != n)
    parts_problem = "no parts given, and the last partition has " + std::to_string(s.parts.size()) +
                    " local objects, not " + std::to_string(n) + ": pass the current part of each local object";
  if (parts_problem.empty() && !parts_in.empty() && parts_in.size() != n)
    parts_problem = "parts has " + std::to_string(parts_in.size()) + " values for " + std::to_string(n) + " local points";
  detail::PointScan scan;
  bool parts_checked = false;
  s.diffusion.premeasured = false;
  if (problem.empty()) {
    const bool diffusion_may_follow =
        parts_problem.empty() && s.opts.incremental && K > 1 && (!parts_in.empty() || s.have_parts);
    if (diffusion_may_follow) {
      const repart::MeasuredScan m = repart::scan_and_measure(points, cur, K, s.diffusion);
      scan = m.scan;
      parts_checked = m.parts_checked && m.parts_valid;  // else checked below, for the message
    } else {
      scan = detail::scan_points(points);
    }
    problem = detail::check_points(points, &scan);
  }
  // The last partition's parts are hpart's own; given parts are checked unless the pass did.
  if (parts_problem.empty() && !parts_checked) parts_problem = detail::check_part_ids(parts_in, K);
  if (problem.empty()) problem = parts_problem;
  detail::Replicated args;
  detail::replicate_point_shape(args, points);
  detail::agree(s.comm, args, problem.empty() ? ErrorCode::ok : ErrorCode::invalid_input,
                problem.empty() ? std::string{} : "rebalance(): " + problem);
  // Ranks that know no current parts, and the global object count, in one allreduce.
  long long counts[2] = {parts_in.empty() && !s.have_parts ? 1 : 0, static_cast<long long>(n)};
  MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_LONG_LONG, MPI_SUM, s.comm.get());
  const int known = counts[0] == 0 ? 1 : 0;

  MPI_Barrier(s.comm.get());  // time the call, not the ranks' arrival
  const detail::Stopwatch clock;
  std::vector<part_t> result;
  RebalanceKind kind = RebalanceKind::scratch;
  std::string why;
  int rounds = 0;
  double surface = 0.0;
  std::unique_ptr<repart::PointDiffusion> diffusion;
  if (!known) {
    why = "no current partition";
  } else if (!s.opts.incremental || K == 1) {
    why = "incremental off";
  } else if (counts[1] < K) {
    // Some parts are necessarily empty, and diffusion only moves load between neighbouring parts:
    // it could not fill them, and its per-part tables would cost O(K) each round for nothing.
    why = "fewer objects (" + std::to_string(counts[1]) + ") than parts";
  } else {
    diffusion = std::make_unique<repart::PointDiffusion>(s.comm, points, cur, K, 0.6 * s.opts.imbalance,
                                                         0.9 * s.opts.imbalance, scan.lo, scan.hi, s.diffusion);
    surface = diffusion->surface();
    // After graph calls the reference is an edge cut: the current surface replaces it.
    if (s.fresh_pending || s.graph_surface) s.stats.surface_fresh = surface, s.fresh_pending = false;
    s.graph_surface = false;
    IncrementalChoice choice = choose_incremental(*diffusion, s.opts, s.curve_order, K, s.stats.surface_fresh);
    kind = choice.kind;
    why = std::move(choice.why);
    rounds = choice.rounds;
    result = std::move(choice.result);
  }
  s.diffusion.premeasured = false;  // the pass was for this call only
  Partition fresh;  // a from-scratch partition, before relabelling
  if (kind != RebalanceKind::diffusion) {
    // The points were validated above (that scan is also the diffusion's measuring pass).
    fresh = sfc::partition_scanned(s.comm, points, scratch_options(s.opts), scan);
    result = std::move(fresh.parts);
    if (known) {
      s.curve_order = repart::relabel_to_overlap(s.comm, cur, result, points.weights, points.ncon, K);
    } else {
      s.curve_order.resize(static_cast<std::size_t>(K));
      std::iota(s.curve_order.begin(), s.curve_order.end(), 0);
    }
    s.fresh_pending = true;
  } else {
    s.curve_order.clear();
  }
  MigrationStats moved;
  Partition out;
  if (kind != RebalanceKind::diffusion) {
    // The fresh partition's totals, moved to the parts' new labels: no second summarising pass.
    auto [weights, sizes] = relabelled_totals(fresh, s.curve_order);
    moved = detail::moved_everywhere(s.comm, known ? cur : std::span<const part_t>{}, result, points.weights, points.ncon);
    out = detail::partition_from_totals(std::move(result), K, fresh.ncon, std::move(weights), std::move(sizes), {});
  } else if (points.ncon == 1) {
    // The diffusion knows its part totals and what it moved: no pass over the objects.
    repart::PointDiffusion::Summary sum = diffusion->summary(cur);
    moved = {sum.moved_objects, sum.moved_weight};
    out = detail::partition_from_totals(std::move(result), K, 1, std::move(sum.part_weights),
                                        std::move(sum.part_sizes), {});
  } else {
    moved = detail::moved_everywhere(s.comm, known ? cur : std::span<const part_t>{}, result, points.weights, points.ncon);
    // The points and the parts were validated above or come from a partitioner.
    out = detail::summarise_partition(s.comm, std::move(result), K, points.weights, points.ncon, {});
  }
  const double seconds = detail::seconds_max(s.comm, clock);
  out.metrics.seconds = seconds;
  detail::record_tolerance(out, s.opts.imbalance);
  s.record_rebalance(out, kind, rounds, moved.weight, moved.objects);
  s.stats.surface = surface;
  char buf[200];
  std::snprintf(buf, sizeof buf, "rebalance: %s, %d rounds, imbalance %.4f, moved %.6g weight, %.4f s",
                to_string(kind), rounds, s.stats.imbalance, moved.weight, seconds);
  s.log(std::string(buf) + (why.empty() ? "" : " (" + why + ")"));
  return out;
}

void Rebalancer::record_migration_seconds(double seconds) {
  State& s = *state_;
  const bool ok = std::isfinite(seconds) && seconds >= 0.0;
  s.comm.agree(ok ? ErrorCode::ok : ErrorCode::invalid_input,
               ok ? std::string{} : "record_migration_seconds(): " + std::to_string(seconds) + " is not a time");
  const double t = s.comm.max(seconds);
  s.stats.migration_seconds = t;
  State::ewma(s.migration_cost, t);
}

std::vector<double> Rebalancer::predicted_costs(std::span<const double> features) const {
  const std::vector<double>& c = state_->fit.coefficients();
  if (c.empty()) return {};
  const std::size_t m = c.size() - 1;
  const std::size_t n = m > 0 ? features.size() / m : 0;
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    double v = c[m];
    for (std::size_t f = 0; f < m; ++f) v += c[f] * features[i * m + f];
    out[i] = std::max(0.0, v);
  }
  return out;
}

std::vector<double> Rebalancer::cost_coefficients() const { return state_->fit.coefficients(); }

}  // namespace hpart
