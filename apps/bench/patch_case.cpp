#include "patch_case.hpp"

#include <mpi.h>
#include <omp.h>

#include <cstdio>
#include <optional>

#include "call_measurement.hpp"
#include "dump_parts.hpp"
#include "hpart/hpart.hpp"
#include "patch_generators.hpp"
#include "progress.hpp"
#if HPART_HAVE_ZOLTAN
#include "zoltan_baseline.hpp"
#endif

namespace hpart_bench {
namespace {

// The generated level, this rank holding a contiguous block of the patch list.
struct LocalLevel {
  hpart_apps::PatchLevel level;
  std::size_t first = 0, count = 0;
  hpart::PatchList list;
};

void make_local(const hpart::Comm& comm, const GridSuiteConfig& cfg, LocalLevel& out) {
  out.level = hpart_apps::amr2d_level(cfg.side2d);
  const std::size_t P = out.level.boxes.size(), r = static_cast<std::size_t>(comm.rank()), R = static_cast<std::size_t>(comm.size());
  out.first = P * r / R;
  out.count = P * (r + 1) / R - out.first;
  out.list.dim = 2;
  out.list.extent = {out.level.side, out.level.side, 1};
  out.list.boxes = std::span<const hpart::Box>(out.level.boxes).subspan(out.first, out.count);
  out.list.cost = std::span<const double>(out.level.cost).subspan(out.first, out.count);
}

Record record_for(const hpart::Comm& comm, const GridSuiteConfig& cfg, const LocalLevel& L, const char* library,
                  const char* method, const CallStats& stats, std::vector<hpart::part_t> parts, Progress& progress) {
  Record r = measured_record(comm.get(), "grid", "amr2d", library, method, static_cast<long long>(L.level.boxes.size()),
                             cfg.parts, cfg.reps, stats);
  hpart::PatchPartition p;
  static_cast<hpart::Partition&>(p) = hpart::evaluate_partition(comm, std::move(parts), cfg.parts, L.list.cost, 1);
  r.imbalance = p.metrics.imbalance.at(0);
  r.comm_volume = hpart::patch_neighbours(comm, L.list, p, 1).halo_volume;
  char note[96];
  std::snprintf(note, sizeof note, " (imbalance %.2e, ghost cells %lld)", *r.imbalance, *r.comm_volume);
  progress.done(note);
  return r;
}

void run_hpart(const hpart::Comm& comm, const GridSuiteConfig& cfg, const LocalLevel& L, hpart::PatchMethod m,
               bool reset_works, RecordSink& sink) {
  const std::string method = std::string("patches-") + hpart::to_string(m);
  Progress progress(comm, "grid", "amr2d", "hpart " + method);
  hpart::PatchOptions opts;
  opts.parts = cfg.parts;
  opts.method = m;
  std::optional<hpart::PatchPartition> result;
  const CallStats stats = measure_calls(
      comm.get(), cfg.reps, reset_works, [&] { result.reset(); },
      [&] { result.emplace(hpart::partition_patches(comm, L.list, opts)); });
  dump_parts(comm, "grid", "amr2d", "hpart", method, cfg.parts, result->parts);
  sink.add(record_for(comm, cfg, L, "hpart", method.c_str(), stats, std::move(result->parts), progress));
}

void run_round_robin(const hpart::Comm& comm, const GridSuiteConfig& cfg, const LocalLevel& L, bool reset_works,
                     RecordSink& sink) {
  Progress progress(comm, "grid", "amr2d", "naive round-robin");
  std::vector<hpart::part_t> parts;
  const CallStats stats = measure_calls(
      comm.get(), cfg.reps, reset_works, [&] { parts.clear(); },
      [&] {
        parts.resize(L.count);
        for (std::size_t i = 0; i < L.count; ++i)
          parts[i] = static_cast<hpart::part_t>((L.first + i) % static_cast<std::size_t>(cfg.parts));
      });
  sink.add(record_for(comm, cfg, L, "naive", "round-robin", stats, std::move(parts), progress));
}

#if HPART_HAVE_ZOLTAN
void run_zoltan(const hpart::Comm& comm, const GridSuiteConfig& cfg, const LocalLevel& L, bool reset_works, RecordSink& sink) {
  Progress progress(comm, "grid", "amr2d", "zoltan rcb (patch centres weighted by cost)");
  LocalPoints pts;
  pts.dim = 2;
  for (std::size_t i = 0; i < L.count; ++i) {
    const hpart::Box& b = L.list.boxes[i];
    pts.coords.push_back(static_cast<double>(b.lo[0] + b.hi[0] + 1) / 2.0);
    pts.coords.push_back(static_cast<double>(b.lo[1] + b.hi[1] + 1) / 2.0);
    pts.weights.push_back(L.list.cost[i]);
    pts.ids.push_back(static_cast<long long>(L.first + i));
  }
  pts.global_n = static_cast<long long>(L.level.boxes.size());
  ZoltanPartitioner z(comm.get(), "rcb", cfg.parts, pts);
  CallStats stats;
  std::vector<hpart::part_t> parts = partition_measured(comm, z, cfg.reps, reset_works, stats);
  sink.add(record_for(comm, cfg, L, "zoltan", "rcb", stats, std::move(parts), progress));
}
#endif

}  // namespace

void run_amr2d_case(const hpart::Comm& comm, const GridSuiteConfig& cfg, bool reset_works, RecordSink& sink) {
  Progress gen(comm, "grid", "amr2d", "generating the patch level");
  LocalLevel L;
  make_local(comm, cfg, L);
  char note[64];
  std::snprintf(note, sizeof note, " (%zu patches)", L.level.boxes.size());
  gen.done(note);
  if (cfg.run_hpart)
    for (hpart::PatchMethod m : {hpart::PatchMethod::knapsack, hpart::PatchMethod::sfc, hpart::PatchMethod::sfc_swap})
      run_hpart(comm, cfg, L, m, reset_works, sink);
  if (cfg.run_naive) run_round_robin(comm, cfg, L, reset_works, sink);
#if HPART_HAVE_ZOLTAN
  if (cfg.run_zoltan) run_zoltan(comm, cfg, L, reset_works, sink);
#endif
}

}  // namespace hpart_bench
