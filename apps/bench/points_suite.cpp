#include "points_suite.hpp"

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "call_measurement.hpp"
#include "dump_parts.hpp"
#include "floor_baseline.hpp"
#include "hpart/hpart.h"
#include "hpart/partition.hpp"
#include "hpart/points.hpp"
#include "progress.hpp"
#if HPART_HAVE_ZOLTAN
#include "zoltan_baseline.hpp"
#endif

namespace hpart_bench {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

struct CaseInput {
  LocalPoints pts;
  double input_mb = 0.0;                 // max over ranks
  std::optional<double> w_max_over_avg;  // weighted cases
};

CaseInput make_input(const hpart::Comm& comm, PointCase c, const PointsSuiteConfig& cfg) {
  CaseInput in;
  in.pts = generate_points(c, cfg.n, comm.rank(), comm.size(), cfg.seed);
  double mb = static_cast<double>(in.pts.bytes()) / kMiB;
  MPI_Allreduce(MPI_IN_PLACE, &mb, 1, MPI_DOUBLE, MPI_MAX, comm.get());
  in.input_mb = mb;
  if (!in.pts.weights.empty()) {
    double sum = 0.0, wmax = 0.0;
    for (double w : in.pts.weights) {
      sum += w;
      wmax = std::max(wmax, w);
    }
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, comm.get());
    MPI_Allreduce(MPI_IN_PLACE, &wmax, 1, MPI_DOUBLE, MPI_MAX, comm.get());
    if (sum > 0.0) in.w_max_over_avg = wmax / (sum / static_cast<double>(cfg.n));
  }
  return in;
}

Record base_record(const hpart::Comm& comm, const PointsSuiteConfig& cfg, const CaseInput& in, PointCase c,
                   const char* library, const char* method, const CallStats& stats) {
  Record r = measured_record(comm.get(), "points", to_string(c), library, method, cfg.n, cfg.parts, cfg.reps, stats);
  r.input_mb = in.input_mb;
  r.w_max_over_avg = in.w_max_over_avg;
  return r;
}

std::string imbalance_note(const Record& r) {
  char buf[64];
  std::snprintf(buf, sizeof buf, " (imbalance %.2e)", r.imbalance.value_or(0.0));
  return r.imbalance ? buf : "";
}

hpart::PointSet point_set(const LocalPoints& p) {
  hpart::PointSet s;
  s.coords = p.coords;
  s.dim = p.dim;
  s.weights = p.weights;
  s.ncon = 1;
  s.ids = p.ids;
  return s;
}

void run_hpart(const hpart::Comm& comm, const PointsSuiteConfig& cfg, const CaseInput& in, PointCase c,
               hpart::Curve method, bool reset_works, RecordSink& sink) {
  const char* name = hpart::to_string(method);
  Progress progress(comm, "points", to_string(c), std::string("hpart ") + name);
  const hpart::PointSet pts = point_set(in.pts);
  hpart::PointOptions opts;
  opts.parts = cfg.parts;
  opts.curve = method;
  std::optional<hpart::Partition> result;
  const CallStats stats = measure_calls(
      comm.get(), cfg.reps, reset_works, [&] { result.reset(); },
      [&] { result.emplace(hpart::partition_points(comm, pts, opts)); });
  dump_parts(comm, "points", to_string(c), "hpart", name, cfg.parts, result->parts);
  // The same metric code for every method: re-evaluate the returned parts (untimed).
  const hpart::Partition eval =
      hpart::evaluate_partition(comm, std::move(result->parts), cfg.parts, in.pts.weights, 1);
  Record r = base_record(comm, cfg, in, c, "hpart", name, stats);
  r.imbalance = eval.metrics.imbalance.at(0);
  progress.done(imbalance_note(r));
  sink.add(r);
}

// The same call through the C API: a point view over the same arrays and hpart_partition_points,
// timed together (what a C caller pays), the result handle freed untimed before the next rep.
void run_hpart_c(const hpart::Comm& comm, const PointsSuiteConfig& cfg, const CaseInput& in, PointCase c,
                 hpart::Curve method, bool reset_works, RecordSink& sink) {
  const char* name = hpart::to_string(method);
  Progress progress(comm, "points", to_string(c), std::string("hpart-c ") + name);
  hpart_point_options opts;
  hpart_point_options_init(&opts);
  opts.parts = cfg.parts;
  opts.curve = method == hpart::Curve::hilbert ? HPART_CURVE_HILBERT : HPART_CURVE_MORTON;
  hpart_partition* result = nullptr;
  hpart_status status = HPART_OK;
  const CallStats stats = measure_calls(
      comm.get(), cfg.reps, reset_works, [&] { hpart_partition_free(&result); },
      [&] {
        hpart_points* pts = nullptr;
        status = hpart_points_create(in.pts.dim, static_cast<int64_t>(in.pts.size()), in.pts.coords.data(), &pts);
        if (status == HPART_OK && !in.pts.weights.empty()) status = hpart_points_set_weights(pts, 1, in.pts.weights.data());
        if (status == HPART_OK && !in.pts.ids.empty()) status = hpart_points_set_ids_i64(pts, in.pts.ids.data());
        if (status == HPART_OK) status = hpart_partition_points(comm.get(), pts, &opts, &result);
        hpart_points_free(&pts);
      });
  if (status != HPART_OK) throw std::runtime_error(std::string("hpart-c: ") + hpart_last_error());
  const int32_t* parts = nullptr;
  int64_t n = 0;
  hpart_partition_parts(result, &parts);
  hpart_partition_local_size(result, &n);
  std::vector<hpart::part_t> local(parts, parts + n);
  hpart_partition_free(&result);
  dump_parts(comm, "points", to_string(c), "hpart-c", name, cfg.parts, local);
  const hpart::Partition eval = hpart::evaluate_partition(comm, std::move(local), cfg.parts, in.pts.weights, 1);
  Record r = base_record(comm, cfg, in, c, "hpart-c", name, stats);
  r.imbalance = eval.metrics.imbalance.at(0);
  progress.done(imbalance_note(r));
  sink.add(r);
}

void run_floor(const hpart::Comm& comm, const PointsSuiteConfig& cfg, const CaseInput& in, PointCase c,
               bool reset_works, RecordSink& sink) {
  Progress progress(comm, "points", to_string(c), "floor morton keys");
  const FloorBox box = floor_box(comm.get(), in.pts);  // untimed setup, like the output array
  std::vector<std::uint64_t> keys(in.pts.size());
  const CallStats stats = measure_calls(
      comm.get(), cfg.reps, reset_works, [] {}, [&] { floor_morton_keys(in.pts, box, keys); });
  Record r = base_record(comm, cfg, in, c, "floor", "morton", stats);
  progress.done();
  sink.add(r);
}

#if HPART_HAVE_ZOLTAN
void run_zoltan(const hpart::Comm& comm, const PointsSuiteConfig& cfg, const CaseInput& in, PointCase c,
                const char* method, bool reset_works, RecordSink& sink) {
  Progress progress(comm, "points", to_string(c), std::string("zoltan ") + method);
  ZoltanPartitioner z(comm.get(), method, cfg.parts, in.pts);
  CallStats stats;
  std::vector<hpart::part_t> parts = partition_measured(comm, z, cfg.reps, reset_works, stats);
  const hpart::Partition eval = hpart::evaluate_partition(comm, std::move(parts), cfg.parts, in.pts.weights, 1);
  Record r = base_record(comm, cfg, in, c, "zoltan", method, stats);
  r.imbalance = eval.metrics.imbalance.at(0);
  progress.done(imbalance_note(r));
  sink.add(r);
}
#endif

}  // namespace

void run_points_suite(const hpart::Comm& comm, const PointsSuiteConfig& cfg, RecordSink& sink) {
  const bool reset_works = peak_reset_works(comm.get());
  if (comm.rank() == 0) {
    std::printf("[points] n %lld, parts %d, reps %d, ranks %d, threads %d, seed %llu\n", cfg.n, cfg.parts, cfg.reps,
                comm.size(), omp_get_max_threads(), static_cast<unsigned long long>(cfg.seed));
    if (!reset_works)
      std::printf("[points] warning: cannot reset VmHWM (/proc/self/clear_refs); rss_growth_mb is written only "
                  "where the call raised the process peak\n");
#if !HPART_HAVE_ZOLTAN
    if (cfg.run_zoltan) std::printf("[points] Zoltan baselines not built in (HPART_HAVE_ZOLTAN off)\n");
#endif
    std::fflush(stdout);
  }
  for (PointCase c : cfg.cases) {
    Progress gen(comm, "points", to_string(c), "generating " + std::to_string(cfg.n) + " points");
    const CaseInput in = make_input(comm, c, cfg);
    gen.done();
    for (hpart::Curve curve : {hpart::Curve::hilbert, hpart::Curve::morton}) {
      if (cfg.run_hpart) run_hpart(comm, cfg, in, c, curve, reset_works, sink);
      if (cfg.run_hpart_c) run_hpart_c(comm, cfg, in, c, curve, reset_works, sink);
    }
    if (cfg.run_floor) run_floor(comm, cfg, in, c, reset_works, sink);
#if HPART_HAVE_ZOLTAN
    if (cfg.run_zoltan)
      for (const char* m : {"hsfc", "rcb", "rib"}) run_zoltan(comm, cfg, in, c, m, reset_works, sink);
#endif
  }
}

}  // namespace hpart_bench
