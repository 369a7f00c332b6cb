#include "graph_drift_case.hpp"

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "drift_events.hpp"
#include "hpart/graph.hpp"
#include "hpart/rebalance.hpp"
#include "migration/relabel_partition.hpp"
#if HPART_HAVE_ZOLTAN
#include "zoltan_baseline.hpp"
#endif

namespace hpart_bench {
namespace {

// This rank's block of rows of the grid graph, with the unit-square position of each vertex.
struct GridGraph {
  long long side = 0;
  hpart::GraphFile f;
  std::vector<double> x, y;
  hpart_apps::LocalPoints pts;  // the vertices as Zoltan's objects: ids, positions, weights
  [[nodiscard]] std::size_t size() const { return x.size(); }
};

GridGraph make_grid_graph(const hpart::Comm& comm, long long side) {
  GridGraph c;
  c.side = side;
  const int R = comm.size();
  c.f.vtxdist.resize(static_cast<std::size_t>(R) + 1);
  for (int r = 0; r <= R; ++r) c.f.vtxdist[static_cast<std::size_t>(r)] = side * (side * r / R);
  const hpart::gid_t lo = c.f.vtxdist[static_cast<std::size_t>(comm.rank())];
  const hpart::gid_t hi = c.f.vtxdist[static_cast<std::size_t>(comm.rank()) + 1];
  c.f.xadj.assign(1, 0);
  for (hpart::gid_t v = lo; v < hi; ++v) {
    const long long i = v % side, j = v / side;
    if (i > 0) c.f.adjncy.push_back(v - 1);
    if (i + 1 < side) c.f.adjncy.push_back(v + 1);
    if (j > 0) c.f.adjncy.push_back(v - side);
    if (j + 1 < side) c.f.adjncy.push_back(v + side);
    c.f.xadj.push_back(static_cast<std::int64_t>(c.f.adjncy.size()));
    c.x.push_back((static_cast<double>(i) + 0.5) / static_cast<double>(side));
    c.y.push_back((static_cast<double>(j) + 0.5) / static_cast<double>(side));
  }
  c.f.vwgt.resize(c.size());
  c.pts.dim = 2;
  c.pts.global_n = side * side;
  c.pts.first_index = lo;
  for (std::size_t v = 0; v < c.size(); ++v) {
    c.pts.ids.push_back(lo + static_cast<hpart::gid_t>(v));
    c.pts.coords.insert(c.pts.coords.end(), {c.x[v], c.y[v]});
  }
  c.pts.weights.resize(c.size());
  c.f.global_vertices = side * side;
  c.f.global_edges = 2 * side * (side - 1);
  return c;
}

// Weight at step s of `steps`: 10 + round(40 exp(-r^2 / 2 sigma^2)) around a centre on the diagonal.
void set_weights(GridGraph& c, int s, int steps) {
  const double t = static_cast<double>(s) / steps, centre = 0.1 + 0.8 * t, sigma = 0.12;
  const double inv = 1.0 / (2 * sigma * sigma);
  for (std::size_t v = 0; v < c.size(); ++v) {
    const double dx = c.x[v] - centre, dy = c.y[v] - centre;
    c.f.vwgt[v] = 10 + std::llround(40.0 * std::exp(-(dx * dx + dy * dy) * inv));
    c.pts.weights[v] = static_cast<double>(c.f.vwgt[v]);
  }
}

std::vector<double> part_weights(const hpart::Comm& comm, const GridGraph& c, const std::vector<hpart::part_t>& parts,
                                 int K) {
  std::vector<double> w(static_cast<std::size_t>(K), 0.0);
  for (std::size_t v = 0; v < parts.size(); ++v) w[static_cast<std::size_t>(parts[v])] += static_cast<double>(c.f.vwgt[v]);
  MPI_Allreduce(MPI_IN_PLACE, w.data(), K, MPI_DOUBLE, MPI_SUM, comm.get());
  return w;
}


void run_method(const hpart::Comm& comm, const RepartSuiteConfig& cfg, GridGraph& c, RepartMethod& m, RecordSink& sink) {
  const int K = cfg.parts;
  DriftTotals t = run_drift_events(
      comm, cfg, "graphdrift", m, [&](int s) { set_weights(c, s, cfg.steps); },
      [&](const std::vector<hpart::part_t>& p) { return part_weights(comm, c, p, K); },
      [&](std::size_t i) { return static_cast<double>(c.f.vwgt[i]); });
  const double moved = t.moved, bound = t.bound, worst = t.worst;
  const long long events = t.events;
  const std::vector<hpart::part_t>& parts = t.parts;
  const hpart::GraphMetrics gm = hpart::graph_metrics(comm, c.f.view(), parts, K);
  Record r = drift_record(comm, cfg, "graphdrift", m, t, c.side * c.side);
  r.edge_cut = gm.edge_cut;
  r.comm_volume = gm.edge_cut;  // as drift3d: the faces (here edges) between parts
  double total = 0.0;
  for (std::int64_t w : c.f.vwgt) total += static_cast<double>(w);
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_DOUBLE, MPI_SUM, comm.get());
  if (comm.rank() == 0)
    std::printf("[repart] graphdrift %-6s %-12s events %3lld  time/event %.4f s  worst %.4f  migrated %.4gx total  "
                "bound %.4gx total  cut %lld\n",
                m.library.c_str(), m.name.c_str(), events, r.time_s, worst, moved / total, bound / total,
                static_cast<long long>(gm.edge_cut));
  std::fflush(stdout);
  sink.add(r);
}

}  // namespace

void run_graph_drift(const hpart::Comm& comm, const RepartSuiteConfig& cfg, RecordSink& sink) {
  GridGraph c = make_grid_graph(comm, cfg.graph_side);
  const int K = cfg.parts;
#if HPART_HAVE_ZOLTAN
  if (cfg.run_zoltan) {
    // PHG graph partitioning; rebalances with LB_APPROACH REPARTITION from the current parts
    // (PHG_REPART_MULTIPLIER, Zoltan's itr, at its default 100).
    const hpart::Graph g = c.f.view();
    ZoltanPartitioner z(comm.get(), K, c.pts, g, cfg.threshold);
    CallStats stats;
    RepartMethod m{"zoltan", "phg-repart",
             [&] { return partition_measured(comm, z, 1, false, stats); },
             [&](const std::vector<hpart::part_t>& cur) {
               z.set_param("LB_APPROACH", "REPARTITION");
               z.set_input_parts(&cur);
               return partition_measured(comm, z, 1, false, stats);
             }};
    run_method(comm, cfg, c, m, sink);
  }
#endif
  if (!cfg.run_hpart) return;
  hpart::GraphOptions fresh;
  fresh.parts = K;
  fresh.imbalance = cfg.threshold;
  auto scratch = [&] { return hpart::partition_graph(comm, c.f.view(), fresh).parts; };
  // The incremental method is the Rebalancer's graph path: repartition_graph with the cut watched
  // against the last fresh partition's (max_surface_growth 1.3), a fresh relabelled partition
  // beyond it.
  hpart::RebalanceOptions ro;
  ro.parts = K;
  ro.imbalance = cfg.threshold;
  hpart::Rebalancer rb(comm, ro);
  int refreshed = 0;
  RepartMethod incremental{"hpart", "incremental", [&] { return rb.partition(c.f.view()).parts; },
                           [&](const std::vector<hpart::part_t>& cur) {
                             hpart::Partition p = rb.rebalance(c.f.view(), cur);
                             if (rb.stats().kind == hpart::RebalanceKind::scratch) ++refreshed;
                             return std::move(p.parts);
                           }};
  run_method(comm, cfg, c, incremental, sink);
  if (comm.rank() == 0) std::printf("[repart] graphdrift hpart  incremental: %d fresh partitions from the cut watch\n", refreshed);
  RepartMethod relabelled{"hpart", "scratch", scratch, [&](const std::vector<hpart::part_t>& cur) {
                      std::vector<hpart::part_t> next = scratch();
                      const std::vector<double> w(c.f.vwgt.begin(), c.f.vwgt.end());
                      hpart::repart::relabel_to_overlap(comm, cur, next, w, 1, K);
                      return next;
                    }};
  run_method(comm, cfg, c, relabelled, sink);
}

}  // namespace hpart_bench
