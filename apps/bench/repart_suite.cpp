#include "repart_suite.hpp"

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <numeric>

#include "hpart/hpart.hpp"
#include "point_generators.hpp"
#if HPART_HAVE_ZOLTAN
#include "zoltan_baseline.hpp"
#endif

namespace hpart_bench {
namespace {

// This rank's z-slab of the side^3 cells, as points at the cell centres of the unit cube.
struct DriftCase {
  long long side = 0, z0 = 0, z1 = 0;
  hpart_apps::LocalPoints pts;
  [[nodiscard]] hpart::PointSet view() const {
    return {.coords = pts.coords, .dim = 3, .weights = pts.weights, .ids = pts.ids};
  }
};

DriftCase make_drift(const hpart::Comm& comm, long long side) {
  DriftCase c;
  c.side = side;
  c.z0 = side * comm.rank() / comm.size();
  c.z1 = side * (comm.rank() + 1) / comm.size();
  const long long layer = side * side, n = (c.z1 - c.z0) * layer;
  c.pts.dim = 3;
  c.pts.global_n = side * layer;
  c.pts.first_index = c.z0 * layer;
  c.pts.coords.resize(static_cast<std::size_t>(3 * n));
  c.pts.ids.resize(static_cast<std::size_t>(n));
  c.pts.weights.resize(static_cast<std::size_t>(n));
  const double h = 1.0 / static_cast<double>(side);
  for (long long i = 0; i < n; ++i) {
    const long long g = c.z0 * layer + i;
    const auto u = static_cast<std::size_t>(i);
    c.pts.ids[u] = g;
    c.pts.coords[3 * u] = (static_cast<double>(g % side) + 0.5) * h;
    c.pts.coords[3 * u + 1] = (static_cast<double>((g / side) % side) + 0.5) * h;
    c.pts.coords[3 * u + 2] = (static_cast<double>(g / layer) + 0.5) * h;
  }
  return c;
}

// Cost at step s of `steps`: 1 + 4 exp(-r^2 / 2 sigma^2) around a centre on the main diagonal.
void set_weights(DriftCase& c, int s, int steps) {
  const double t = static_cast<double>(s) / steps, centre = 0.1 + 0.8 * t, sigma = 0.12;
  const double inv = 1.0 / (2 * sigma * sigma);
  std::vector<double>& w = c.pts.weights;
  const std::vector<double>& x = c.pts.coords;
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < w.size(); ++i) {
    const double dx = x[3 * i] - centre, dy = x[3 * i + 1] - centre, dz = x[3 * i + 2] - centre;
    w[i] = 1.0 + 4.0 * std::exp(-(dx * dx + dy * dy + dz * dz) * inv);
  }
}

std::vector<double> part_weights(const hpart::Comm& comm, const DriftCase& c, const std::vector<hpart::part_t>& parts,
                                 int K) {
  std::vector<double> w(static_cast<std::size_t>(K), 0.0);
  for (std::size_t i = 0; i < parts.size(); ++i) w[static_cast<std::size_t>(parts[i])] += c.pts.weights[i];
  MPI_Allreduce(MPI_IN_PLACE, w.data(), K, MPI_DOUBLE, MPI_SUM, comm.get());
  return w;
}

double imbalance_of(const std::vector<double>& w) {
  const double avg = std::accumulate(w.begin(), w.end(), 0.0) / static_cast<double>(w.size());
  return avg > 0 ? *std::max_element(w.begin(), w.end()) / avg - 1.0 : 0.0;
}

// Cell faces between cells of different parts; the faces between slabs are counted by the lower
// rank with the next rank's first layer.
long long face_cut(const hpart::Comm& comm, const DriftCase& c, const std::vector<hpart::part_t>& parts) {
  const long long s = c.side, layer = s * s, nz = c.z1 - c.z0;
  long long cut = 0;
  auto at = [&](long long x, long long y, long long z) { return parts[static_cast<std::size_t>(x + s * y + layer * z)]; };
  for (long long z = 0; z < nz; ++z)
    for (long long y = 0; y < s; ++y)
      for (long long x = 0; x < s; ++x) {
        const hpart::part_t p = at(x, y, z);
        if (x + 1 < s) cut += p != at(x + 1, y, z);
        if (y + 1 < s) cut += p != at(x, y + 1, z);
        if (z + 1 < nz) cut += p != at(x, y, z + 1);
      }
  // Ranks with an empty slab pass layers through unchanged (they have no cells to compare).
  std::vector<hpart::part_t> mine(static_cast<std::size_t>(layer), -1), above(static_cast<std::size_t>(layer), -1);
  if (nz > 0) std::copy(parts.begin(), parts.begin() + layer, mine.begin());
  const int r = comm.rank(), R = comm.size();
  MPI_Sendrecv(mine.data(), static_cast<int>(layer), MPI_INT32_T, r > 0 ? r - 1 : MPI_PROC_NULL, 7, above.data(),
               static_cast<int>(layer), MPI_INT32_T, r + 1 < R ? r + 1 : MPI_PROC_NULL, 7, comm.get(),
               MPI_STATUS_IGNORE);
  if (nz > 0 && r + 1 < R && above[0] >= 0)
    for (long long i = 0; i < layer; ++i) cut += parts[static_cast<std::size_t>(layer * (nz - 1) + i)] != above[static_cast<std::size_t>(i)];
  MPI_Allreduce(MPI_IN_PLACE, &cut, 1, MPI_LONG_LONG, MPI_SUM, comm.get());
  return cut;
}

// A method under test: a fresh partition at step 0, then rebalance(current parts) at each event.
struct Method {
  std::string library, name;
  std::function<std::vector<hpart::part_t>()> initial;
  std::function<std::vector<hpart::part_t>(const std::vector<hpart::part_t>&)> rebalance;
};

void run_method(const hpart::Comm& comm, const RepartSuiteConfig& cfg, DriftCase& c, Method& m, RecordSink& sink) {
  const int K = cfg.parts;
  set_weights(c, 0, cfg.steps);
  std::vector<hpart::part_t> parts = m.initial();
  double time_sum = 0.0, moved = 0.0, bound = 0.0, worst = 0.0;
  long long events = 0;
  for (int s = 1; s <= cfg.steps; ++s) {
    set_weights(c, s, cfg.steps);
    const std::vector<double> before = part_weights(comm, c, parts, K);
    if (imbalance_of(before) <= cfg.threshold) continue;
    const double avg = std::accumulate(before.begin(), before.end(), 0.0) / K;
    for (double w : before) bound += std::max(0.0, w - (1.0 + cfg.threshold) * avg);
    MPI_Barrier(comm.get());
    const double t0 = MPI_Wtime();
    std::vector<hpart::part_t> next = m.rebalance(parts);
    double dt = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, comm.get());
    time_sum += dt;
    double mv = 0.0;
    for (std::size_t i = 0; i < parts.size(); ++i)
      if (parts[i] != next[i]) mv += c.pts.weights[i];
    MPI_Allreduce(MPI_IN_PLACE, &mv, 1, MPI_DOUBLE, MPI_SUM, comm.get());
    moved += mv;
    parts = std::move(next);
    worst = std::max(worst, imbalance_of(part_weights(comm, c, parts, K)));
    ++events;
  }
  Record r;
  r.suite = "repart";
  r.case_name = "drift3d";
  r.library = m.library;
  r.method = m.name;
  r.n = c.pts.global_n;
  r.parts = K;
  r.ranks = comm.size();
  r.threads = omp_get_max_threads();
  r.reps = 1;
  r.time_s = events > 0 ? time_sum / static_cast<double>(events) : 0.0;
  r.imbalance = worst;
  r.migrated = moved;
  r.migration_lower_bound = bound;
  r.events = events;
  r.comm_volume = face_cut(comm, c, parts);
  double total = std::accumulate(c.pts.weights.begin(), c.pts.weights.end(), 0.0);
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_DOUBLE, MPI_SUM, comm.get());
  if (comm.rank() == 0)
    std::printf("[repart] drift3d %-6s %-12s events %3lld  time/event %.4f s  worst %.4f  migrated %.4gx total  "
                "bound %.4gx total  faces %lld\n",
                m.library.c_str(), m.name.c_str(), events, r.time_s, worst, moved / total, bound / total,
                *r.comm_volume);
  std::fflush(stdout);
  sink.add(r);
}

}  // namespace

bool is_repart_case(const std::string& name) { return name == "drift3d"; }

void run_repart_suite(const hpart::Comm& comm, const RepartSuiteConfig& cfg, RecordSink& sink) {
  DriftCase c = make_drift(comm, cfg.side);
  const int K = cfg.parts;
  if (cfg.run_hpart) {
    for (const bool incremental : {true, false}) {
      hpart::RebalanceOptions o;
      o.parts = K;
      o.tolerance = cfg.threshold;
      o.incremental = incremental;
      hpart::Rebalancer rb(comm, o);
      Method m{"hpart", incremental ? "incremental" : "scratch",
               [&] { return rb.partition(c.view()).parts; },
               [&](const std::vector<hpart::part_t>& cur) { return rb.rebalance(c.view(), cur).parts; }};
      run_method(comm, cfg, c, m, sink);
    }
  }
#if HPART_HAVE_ZOLTAN
  if (cfg.run_zoltan) {
    for (const char* name : {"hsfc", "rcb", "rcb-reuse"}) {
      const bool reuse = std::string(name) == "rcb-reuse";
      ZoltanPartitioner z(comm.get(), reuse ? "rcb" : name, K, c.pts);
      if (reuse) z.set_param("RCB_REUSE", "1"), z.set_param("KEEP_CUTS", "1");
      CallStats stats;
      auto call = [&] { return partition_measured(comm, z, 1, false, stats); };
      Method m{"zoltan", name, call, [&](const std::vector<hpart::part_t>&) { return call(); }};
      run_method(comm, cfg, c, m, sink);
    }
  }
#endif
}

}  // namespace hpart_bench
