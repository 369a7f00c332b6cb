#include "repart_suite.hpp"

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <numeric>

#include "graph_drift_case.hpp"
#include "grid_drift_case.hpp"
#include "drift_events.hpp"
#include "hpart/hpart.hpp"
#include "point_generators.hpp"

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
  return slab_faces(comm, cut, parts, layer);
}


void run_method(const hpart::Comm& comm, const RepartSuiteConfig& cfg, DriftCase& c, RepartMethod& m, RecordSink& sink) {
  const int K = cfg.parts;
  DriftTotals t = run_drift_events(
      comm, cfg, "drift3d", m, [&](int s) { set_weights(c, s, cfg.steps); },
      [&](const std::vector<hpart::part_t>& p) { return weights_per_part(comm, c.pts.weights, p, K); },
      [&](std::size_t i) { return c.pts.weights[i]; });
  const double moved = t.moved, bound = t.bound, worst = t.worst;
  const long long events = t.events;
  const std::vector<hpart::part_t>& parts = t.parts;
  Record r = drift_record(comm, cfg, "drift3d", m, t, c.pts.global_n);
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

bool is_repart_case(const std::string& name) {
  return name == "drift3d" || name == "graphdrift" || name == "griddrift";
}

void run_repart_suite(const hpart::Comm& comm, const RepartSuiteConfig& cfg, RecordSink& sink) {
  const auto has = [&](const char* name) { return std::find(cfg.cases.begin(), cfg.cases.end(), name) != cfg.cases.end(); };
  if (has("graphdrift")) run_graph_drift(comm, cfg, sink);
  if (has("griddrift")) run_grid_drift(comm, cfg, sink);
  if (!has("drift3d")) return;
  DriftCase c = make_drift(comm, cfg.side);
  const int K = cfg.parts;
  if (cfg.run_hpart) {
    for (const bool incremental : {true, false}) {
      hpart::RebalanceOptions o;
      o.parts = K;
      o.imbalance = cfg.threshold;
      o.incremental = incremental;
      hpart::Rebalancer rb(comm, o);
      RepartMethod m{"hpart", incremental ? "incremental" : "scratch",
               [&] { return rb.partition(c.view()).parts; },
               [&](const std::vector<hpart::part_t>& cur) { return rb.rebalance(c.view(), cur).parts; }};
      run_method(comm, cfg, c, m, sink);
    }
  }
#if HPART_HAVE_ZOLTAN
  if (cfg.run_zoltan)
    run_zoltan_geometric(comm, K, c.pts, {"hsfc", "rcb", "rcb-reuse"}, [&](RepartMethod& m) { run_method(comm, cfg, c, m, sink); });
#endif
}

}  // namespace hpart_bench
