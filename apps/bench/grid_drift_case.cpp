#include "grid_drift_case.hpp"

#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

#include "drift_events.hpp"
#include "hpart/grid.hpp"
#include "point_generators.hpp"

namespace hpart_bench {
namespace {

// This rank's rows of the grid: the cells as a Grid (costs in pts.weights) and as points at
// their centres (Zoltan's objects), in the same row-major order.
struct CellRows {
  long long side = 0, y0 = 0, y1 = 0;
  hpart::Grid grid;
  hpart_apps::LocalPoints pts;
};

CellRows make_rows(const hpart::Comm& comm, long long side) {
  CellRows c;
  c.side = side;
  c.y0 = side * comm.rank() / comm.size();
  c.y1 = side * (comm.rank() + 1) / comm.size();
  const long long n = (c.y1 - c.y0) * side;
  c.pts.dim = 2;
  c.pts.global_n = side * side;
  c.pts.first_index = c.y0 * side;
  for (long long i = 0; i < n; ++i) {
    const long long g = c.y0 * side + i;
    c.pts.ids.push_back(g);
    c.pts.coords.insert(c.pts.coords.end(), {(static_cast<double>(g % side) + 0.5) / static_cast<double>(side),
                                             (static_cast<double>(g / side) + 0.5) / static_cast<double>(side)});
  }
  c.pts.weights.resize(static_cast<std::size_t>(n));
  c.grid.dim = 2;
  c.grid.extent = {side, side, 1};
  c.grid.local = hpart::Box::from_extent(2, {side, side, 1, 1});
  c.grid.local.lo[1] = c.y0;
  c.grid.local.hi[1] = c.y1 - 1;
  c.grid.cost = c.pts.weights;
  return c;
}

// Cost at step s of `steps`: 1 + 4 exp(-r^2 / 2 sigma^2) around a centre on the diagonal.
void set_costs(CellRows& c, int s, int steps) {
  const double t = static_cast<double>(s) / steps, centre = 0.1 + 0.8 * t, sigma = 0.12;
  const double inv = 1.0 / (2 * sigma * sigma);
  for (std::size_t i = 0; i < c.pts.weights.size(); ++i) {
    const double dx = c.pts.coords[2 * i] - centre, dy = c.pts.coords[2 * i + 1] - centre;
    c.pts.weights[i] = 1.0 + 4.0 * std::exp(-(dx * dx + dy * dy) * inv);
  }
}

// Faces between cells of different parts; those between row blocks are counted by the lower
// rank with the next rank's first row.
long long face_cut(const hpart::Comm& comm, const CellRows& c, const std::vector<hpart::part_t>& parts) {
  const long long s = c.side, rows = c.y1 - c.y0;
  long long cut = 0;
  for (long long y = 0; y < rows; ++y)
    for (long long x = 0; x < s; ++x) {
      const hpart::part_t p = parts[static_cast<std::size_t>(x + s * y)];
      if (x + 1 < s) cut += p != parts[static_cast<std::size_t>(x + 1 + s * y)];
      if (y + 1 < rows) cut += p != parts[static_cast<std::size_t>(x + s * (y + 1))];
    }
  return slab_faces(comm, cut, parts, s);
}

void run_method(const hpart::Comm& comm, const RepartSuiteConfig& cfg, CellRows& c, RepartMethod& m, RecordSink& sink,
                const std::string& extra = {}) {
  const int K = cfg.parts;
  DriftTotals t = run_drift_events(
      comm, cfg, "griddrift", m, [&](int s) { set_costs(c, s, cfg.steps); },
      [&](const std::vector<hpart::part_t>& p) { return weights_per_part(comm, c.pts.weights, p, K); },
      [&](std::size_t i) { return c.pts.weights[i]; });
  Record r = drift_record(comm, cfg, "griddrift", m, t, c.side * c.side);
  r.comm_volume = face_cut(comm, c, t.parts);
  double total = std::accumulate(c.pts.weights.begin(), c.pts.weights.end(), 0.0);
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_DOUBLE, MPI_SUM, comm.get());
  if (comm.rank() == 0)
    std::printf("[repart] griddrift %-6s %-12s events %3lld  time/event %.4f s  worst %.4f  migrated %.4gx total  "
                "bound %.4gx total  faces %lld%s\n",
                m.library.c_str(), m.name.c_str(), t.events, r.time_s, t.worst, t.moved / total, t.bound / total,
                *r.comm_volume, extra.c_str());
  std::fflush(stdout);
  sink.add(r);
}

}  // namespace

void run_grid_drift(const hpart::Comm& comm, const RepartSuiteConfig& cfg, RecordSink& sink) {
  CellRows c = make_rows(comm, cfg.grid_side);
  const int K = cfg.parts;
  if (cfg.run_hpart) {
    hpart::GridOptions blocks;
    blocks.parts = K;
    blocks.method = hpart::GridMethod::blocks;
    hpart::GridPartition current;
    auto fresh = [&] {
      current = hpart::partition_grid(comm, c.grid, blocks);
      return current.parts;
    };
    long long planes = 0, moved = 0, from_scratch = 0;
    RepartMethod shift{"hpart", "incremental", fresh, [&](const std::vector<hpart::part_t>&) {
                         // Planes may leave half the threshold, so a rebalance ends below it.
                         const hpart::GridRepartition r =
                             hpart::repartition_grid(comm, c.grid, current, {.parts = K, .imbalance = cfg.threshold / 2});
                         planes += K - 1, moved += r.steps, from_scratch += r.from_scratch ? 1 : 0;
                         current = r;
                         return current.parts;
                       }};
    run_method(comm, cfg, c, shift, sink);
    if (comm.rank() == 0)
      std::printf("[repart] griddrift hpart  incremental: %lld of %lld planes moved over the events, %lld fresh fallbacks\n",
                  moved, planes, from_scratch);
    RepartMethod scratch{"hpart", "scratch", fresh, [&](const std::vector<hpart::part_t>&) { return fresh(); }};
    run_method(comm, cfg, c, scratch, sink);
  }
#if HPART_HAVE_ZOLTAN
  if (cfg.run_zoltan)
    run_zoltan_geometric(comm, K, c.pts, {"rcb", "rcb-reuse"}, [&](RepartMethod& m) { run_method(comm, cfg, c, m, sink); });
#endif
}

}  // namespace hpart_bench
