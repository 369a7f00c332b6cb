#include "grid_suite.hpp"

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "call_measurement.hpp"
#include "dump_parts.hpp"
#include "grid_generators.hpp"
#include "hpart/hpart.hpp"
#include "graph_hier_case.hpp"
#include "patch_case.hpp"
#include "progress.hpp"
#if HPART_HAVE_ZOLTAN
#include "zoltan_baseline.hpp"
#endif

namespace hpart_bench {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kPeak = 50.0;

std::int64_t side_of(const GridSuiteConfig& cfg, const std::string& name) {
  return name == "hotspot2d" ? cfg.side2d : cfg.side3d;
}

hpart::Cell cell_of(const hpart::Box& b, std::size_t i) {
  const auto k = static_cast<std::int64_t>(i);
  const std::int64_t nx = b.size(0), ny = b.dim > 1 ? b.size(1) : 1;
  return {b.lo[0] + k % nx, b.lo[1] + (k / nx) % ny, b.dim == 3 ? b.lo[2] + k / (nx * ny) : 0, 0};
}

}  // namespace

const char* grid_case_names() { return "hotspot2d, hotspot3d, amr2d"; }
bool is_grid_case(const std::string& name) {
  return name == "hotspot2d" || name == "hotspot3d" || name == "amr2d";
}

void make_grid_case(const hpart::Comm& comm, const GridSuiteConfig& cfg, const std::string& name, GridCase& out) {
  const int dim = name == "hotspot2d" ? 2 : 3;
  const std::int64_t side = side_of(cfg, name);
  out.name = name;
  hpart::Grid& g = out.grid;
  g.dim = dim;
  g.extent = {side, side, dim == 3 ? side : 1};
  const auto last = static_cast<std::size_t>(dim - 1);
  const std::int64_t r = comm.rank(), R = comm.size();
  hpart::Box box = g.domain();
  box.lo[last] = side * r / R;
  box.hi[last] = side * (r + 1) / R - 1;
  g.local = box;
  out.cost = hpart_apps::hotspot_cost(g, kPeak);
  g.cost = out.cost;
}

SlabVolumes slab_comm_volume(const hpart::Comm& comm, const hpart::Grid& g, const std::vector<hpart::part_t>& parts,
                             const std::vector<int>& node_of_part) {
  const int dim = g.dim, last = dim - 1;
  const hpart::Box& box = g.local;
  const std::int64_t layer = dim == 2 ? g.extent[0] : g.extent[0] * g.extent[1];
  const bool has = !box.empty();
  const std::int64_t lo = has ? box.lo[static_cast<std::size_t>(last)] : 0, hi = has ? box.hi[static_cast<std::size_t>(last)] : -1;
  // Every rank's slab range and its first and last layer of labels.
  std::int64_t range[2] = {lo, hi};
  std::vector<std::int64_t> ranges(static_cast<std::size_t>(2 * comm.size()));
  MPI_Allgather(range, 2, MPI_INT64_T, ranges.data(), 2, MPI_INT64_T, comm.get());
  std::vector<hpart::part_t> ends;
  if (has) {
    ends.insert(ends.end(), parts.begin(), parts.begin() + layer);
    ends.insert(ends.end(), parts.end() - layer, parts.end());
  }
  const int count = static_cast<int>(ends.size());
  std::vector<int> counts(static_cast<std::size_t>(comm.size())), displs(static_cast<std::size_t>(comm.size()), 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm.get());
  for (std::size_t k = 1; k < counts.size(); ++k) displs[k] = displs[k - 1] + counts[k - 1];
  std::vector<hpart::part_t> all(static_cast<std::size_t>(displs.back() + counts.back()));
  MPI_Allgatherv(ends.data(), count, MPI_INT32_T, all.data(), counts.data(), displs.data(), MPI_INT32_T, comm.get());
  SlabVolumes v;
  if (!has) {
    MPI_Allreduce(MPI_IN_PLACE, &v.total, 2, MPI_LONG_LONG, MPI_SUM, comm.get());
    return v;
  }
  // Labels of the local slab framed by the neighbouring layers (-1 outside the grid).
  const std::int64_t nl = hi - lo + 1;
  std::vector<hpart::part_t> label(static_cast<std::size_t>((nl + 2) * layer), -1);
  std::copy(parts.begin(), parts.end(), label.begin() + layer);
  for (int q = 0; q < comm.size(); ++q) {
    const std::int64_t qlo = ranges[static_cast<std::size_t>(2 * q)], qhi = ranges[static_cast<std::size_t>(2 * q + 1)];
    if (qhi < qlo) continue;
    const auto base = all.begin() + displs[static_cast<std::size_t>(q)];
    if (qhi == lo - 1) std::copy(base + layer, base + 2 * layer, label.begin());                 // its last layer
    if (qlo == hi + 1) std::copy(base, base + layer, label.begin() + (nl + 1) * layer);          // its first layer
  }
  const std::int64_t nx = g.extent[0], ny = dim == 3 ? g.extent[1] : 1;
  long long volume = 0, internode = 0;
  const bool nodes = !node_of_part.empty();
#pragma omp parallel for schedule(static) reduction(+ : volume, internode)
  for (std::int64_t t = 1; t <= nl; ++t)
    for (std::int64_t y = 0; y < ny; ++y)
      for (std::int64_t x = 0; x < nx; ++x) {
        // (x, y) within the layer, t the framed layer index (2D: y is unused and the layer is x).
        const std::int64_t at = t * layer + y * nx + x;
        const hpart::part_t mine = label[static_cast<std::size_t>(at)];
        hpart::part_t seen[26];
        int k = 0;
        for (std::int64_t dt = -1; dt <= 1; ++dt)
          for (std::int64_t dy = (dim == 3 ? -1 : 0); dy <= (dim == 3 ? 1 : 0); ++dy)
            for (std::int64_t dx = -1; dx <= 1; ++dx) {
              const std::int64_t xx = x + dx, yy = y + dy;
              if (xx < 0 || xx >= nx || yy < 0 || yy >= ny) continue;
              const hpart::part_t q = label[static_cast<std::size_t>((t + dt) * layer + yy * nx + xx)];
              if (q < 0 || q == mine || std::find(seen, seen + k, q) != seen + k) continue;
              seen[k++] = q;
            }
        volume += k;
        if (nodes)
          for (int j = 0; j < k; ++j)
            internode += node_of_part[static_cast<std::size_t>(seen[j])] != node_of_part[static_cast<std::size_t>(mine)] ? 1 : 0;
      }
  v.total = volume;
  v.internode = internode;
  MPI_Allreduce(MPI_IN_PLACE, &v.total, 2, MPI_LONG_LONG, MPI_SUM, comm.get());
  return v;
}

namespace {

Record base_record(const hpart::Comm& comm, const GridSuiteConfig& cfg, const GridCase& gc, const char* library,
                   const char* method, const CallStats& stats) {
  Record r = measured_record(comm.get(), "grid", gc.name, library, method, gc.grid.domain().volume(), cfg.parts, cfg.reps,
                             stats);
  double mb = static_cast<double>(gc.cost.size() * sizeof(double)) / kMiB;
  MPI_Allreduce(MPI_IN_PLACE, &mb, 1, MPI_DOUBLE, MPI_MAX, comm.get());
  r.input_mb = mb;
  return r;
}

// Imbalance and halo volume by the same code for every library.
void finish(const hpart::Comm& comm, const GridCase& gc, std::vector<hpart::part_t> parts, Record& r,
            Progress& progress, RecordSink& sink) {
  r.comm_volume = slab_comm_volume(comm, gc.grid, parts).total;
  const hpart::Partition eval = hpart::evaluate_partition(comm, std::move(parts), r.parts, gc.cost, 1);
  r.imbalance = eval.metrics.imbalance.at(0);
  char note[96];
  std::snprintf(note, sizeof note, " (imbalance %.2e, halo %lld)", *r.imbalance, *r.comm_volume);
  progress.done(note);
  sink.add(r);
}

// What box-shaped parts can promise: a box moves by whole cell layers, so its cost can be off by
// up to one layer. Per part, the lightest of its heaviest layers over the dimensions (the finest
// step it could take), over the mean part cost; the largest over parts.
double layer_bound(const hpart::Comm& comm, const GridCase& gc, const hpart::GridPartition& p) {
  const int dim = gc.grid.dim;
  std::vector<std::size_t> offset(p.boxes.size() * 3 + 1, 0);
  for (std::size_t q = 0; q < p.boxes.size(); ++q)
    for (int d = 0; d < 3; ++d)
      offset[q * 3 + static_cast<std::size_t>(d) + 1] =
          offset[q * 3 + static_cast<std::size_t>(d)] +
          static_cast<std::size_t>(d < dim && !p.boxes[q].empty() ? p.boxes[q].size(d) : 0);
  std::vector<double> layers(offset.back(), 0.0);
  const std::vector<hpart::part_t>& parts = p.parts;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const hpart::Cell c = cell_of(gc.grid.local, i);
    const auto q = static_cast<std::size_t>(parts[i]);
    for (int d = 0; d < dim; ++d)
      layers[offset[q * 3 + static_cast<std::size_t>(d)] +
             static_cast<std::size_t>(c[static_cast<std::size_t>(d)] - p.boxes[q].lo[static_cast<std::size_t>(d)])] += gc.cost[i];
  }
  MPI_Allreduce(MPI_IN_PLACE, layers.data(), static_cast<int>(layers.size()), MPI_DOUBLE, MPI_SUM, comm.get());
  double total = 0.0;
  for (double w : p.part_weights) total += w;
  const double mean = total / static_cast<double>(p.boxes.size());
  double worst = 0.0;
  for (std::size_t q = 0; q < p.boxes.size(); ++q) {
    double finest = INFINITY;
    for (int d = 0; d < dim; ++d) {
      const auto b = layers.begin() + static_cast<std::ptrdiff_t>(offset[q * 3 + static_cast<std::size_t>(d)]);
      const auto e = layers.begin() + static_cast<std::ptrdiff_t>(offset[q * 3 + static_cast<std::size_t>(d) + 1]);
      if (b != e) finest = std::min(finest, *std::max_element(b, e));
    }
    if (std::isfinite(finest)) worst = std::max(worst, finest / mean);
  }
  return worst;
}

void run_hpart(const hpart::Comm& comm, const GridSuiteConfig& cfg, const GridCase& gc, hpart::GridMethod m,
               const char* library, const char* method, bool reset_works, RecordSink& sink) {
  Progress progress(comm, "grid", gc.name, std::string(library) + " " + method);
  hpart::GridOptions opts;
  opts.parts = cfg.parts;
  opts.method = m;
  std::optional<hpart::GridPartition> result;
  const CallStats stats = measure_calls(
      comm.get(), cfg.reps, reset_works, [&] { result.reset(); },
      [&] { result.emplace(hpart::partition_grid(comm, gc.grid, opts)); });
  Record r = base_record(comm, cfg, gc, library, method, stats);
  if (m == hpart::GridMethod::blocks) r.layer_bound = layer_bound(comm, gc, *result);
  dump_parts(comm, "grid", gc.name, library, method, cfg.parts, result->parts);
  finish(comm, gc, std::move(result->parts), r, progress, sink);
}

#if HPART_HAVE_ZOLTAN
void run_zoltan(const hpart::Comm& comm, const GridSuiteConfig& cfg, const GridCase& gc, bool reset_works,
                RecordSink& sink) {
  Progress progress(comm, "grid", gc.name, "zoltan rcb (cells as weighted points)");
  LocalPoints pts;  // the cell centres, built untimed
  pts.dim = gc.grid.dim;
  const std::size_t n = gc.cost.size();
  pts.coords.resize(n * static_cast<std::size_t>(pts.dim));
  pts.weights = gc.cost;
  pts.ids.resize(n);
  const std::int64_t nx = gc.grid.extent[0], ny = gc.grid.extent[1];
  for (std::size_t i = 0; i < n; ++i) {
    const hpart::Cell c = cell_of(gc.grid.local, i);
    for (int d = 0; d < pts.dim; ++d)
      pts.coords[i * static_cast<std::size_t>(pts.dim) + static_cast<std::size_t>(d)] =
          static_cast<double>(c[static_cast<std::size_t>(d)]) + 0.5;
    pts.ids[i] = c[0] + nx * (c[1] + ny * c[2]);
  }
  pts.global_n = gc.grid.domain().volume();
  ZoltanPartitioner z(comm.get(), "rcb", cfg.parts, pts);
  CallStats stats;
  std::vector<hpart::part_t> parts = partition_measured(comm, z, cfg.reps, reset_works, stats);
  Record r = base_record(comm, cfg, gc, "zoltan", "rcb", stats);
  finish(comm, gc, std::move(parts), r, progress, sink);
}
#endif

}  // namespace

void run_grid_suite(const hpart::Comm& comm, const GridSuiteConfig& cfg, RecordSink& sink) {
  const bool reset_works = peak_reset_works(comm.get());
  if (comm.rank() == 0) {
    std::printf("[grid] parts %d, reps %d, ranks %d, threads %d; halo width 1\n", cfg.parts, cfg.reps, comm.size(),
                omp_get_max_threads());
    std::fflush(stdout);
  }
  for (const std::string& name : cfg.cases) {
    if (name == "amr2d") {
      run_amr2d_case(comm, cfg, reset_works, sink);
      continue;
    }
    Progress gen(comm, "grid", name, "generating the cost field");
    GridCase gc;
    make_grid_case(comm, cfg, name, gc);
    gen.done();
    if (cfg.run_hpart) {
      run_hpart(comm, cfg, gc, hpart::GridMethod::sfc, "hpart", "sfc", reset_works, sink);
      run_hpart(comm, cfg, gc, hpart::GridMethod::blocks, "hpart", "blocks", reset_works, sink);
      run_hpart(comm, cfg, gc, hpart::GridMethod::tensor, "hpart", "tensor", reset_works, sink);
    }
    if (cfg.run_naive) run_hpart(comm, cfg, gc, hpart::GridMethod::uniform, "naive", "uniform-blocks", reset_works, sink);
#if HPART_HAVE_ZOLTAN
    if (cfg.run_zoltan) run_zoltan(comm, cfg, gc, reset_works, sink);
#endif
  }
}

void run_hier_suite(const hpart::Comm& comm, const HierSuiteConfig& cfg, RecordSink& sink) {
  const bool reset_works = peak_reset_works(comm.get());
  const hpart::Topology topo = hpart::detect_topology(comm, cfg.topology);
  const int K = cfg.grid.parts;
  if (comm.rank() == 0) {
    std::printf("[hier] topology %s (%d nodes), parts %d, reps %d, ranks %d; halo width 1\n", cfg.topology.c_str(),
                topo.nodes, K, cfg.grid.reps, comm.size());
    std::fflush(stdout);
  }
  for (const std::string& name : cfg.grid.cases) {
    if (name == "graph") {
      run_hier_graph_case(comm, cfg.graph_file, topo, K, cfg.grid.reps, reset_works, sink);
      continue;
    }
    Progress gen(comm, "hier", name, "generating the cost field");
    GridCase gc;
    make_grid_case(comm, cfg.grid, name, gc);
    gen.done();
    auto record = [&](const char* method, const CallStats& stats, std::vector<hpart::part_t> parts,
                      const std::vector<int>& node_of_part, Progress& progress) {
      Record r = base_record(comm, cfg.grid, gc, "hpart", method, stats);
      r.suite = "hier";
      dump_parts(comm, r.suite, gc.name, r.library, r.method, K, parts);
      const SlabVolumes v = slab_comm_volume(comm, gc.grid, parts, node_of_part);
      r.comm_volume = v.total;
      r.internode_volume = v.internode;
      const hpart::Partition eval = hpart::evaluate_partition(comm, std::move(parts), K, gc.cost, 1);
      r.imbalance = eval.metrics.imbalance.at(0);
      char note[128];
      std::snprintf(note, sizeof note, " (imbalance %.2e, halo %lld, internode %lld)", *r.imbalance, v.total, v.internode);
      progress.done(note);
      sink.add(r);
    };
    {
      // flat: one curve over all ranks, part p on rank p * R / K, so on that rank's node.
      Progress progress(comm, "hier", name, "hpart flat (sfc)");
      hpart::GridOptions opts;
      opts.parts = K;
      opts.method = hpart::GridMethod::sfc;
      std::optional<hpart::GridPartition> result;
      const CallStats stats = measure_calls(
          comm.get(), cfg.grid.reps, reset_works, [&] { result.reset(); },
          [&] { result.emplace(hpart::partition_grid(comm, gc.grid, opts)); });
      std::vector<int> node_of_part;
      const hpart::PartOwners owners{K, comm.size()};
      for (int p = 0; p < K; ++p) node_of_part.push_back(topo.node_of_rank[static_cast<std::size_t>(owners.owner(p))]);
      record("flat", stats, std::move(result->parts), node_of_part, progress);
    }
    for (const hpart::NodeCut cut : {hpart::NodeCut::graph, hpart::NodeCut::staircase, hpart::NodeCut::boxes}) {
      const char* method = cut == hpart::NodeCut::graph ? "hier" : cut == hpart::NodeCut::staircase ? "hier-staircase" : "hier-boxes";
      const char* what = cut == hpart::NodeCut::graph       ? " (graph nodes, sfc ranks)"
                         : cut == hpart::NodeCut::staircase ? " (staircase nodes, sfc ranks)"
                                                            : " (block nodes, sfc ranks)";
      Progress progress(comm, "hier", name, std::string("hpart ") + method + what);
      hpart::HierGridOptions opts;
      opts.parts = K;
      opts.node_cut = cut;
      std::optional<hpart::HierGridPartition> result;
      const CallStats stats = measure_calls(
          comm.get(), cfg.grid.reps, reset_works, [&] { result.reset(); },
          [&] { result.emplace(hpart::partition_grid_hierarchical(comm, gc.grid, topo, opts)); });
      const std::vector<int> node_of_part = result->node_of_part;
      record(method, stats, std::move(result->parts), node_of_part, progress);
    }
  }
}

}  // namespace hpart_bench
