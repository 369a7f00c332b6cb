#include "graph_suite.hpp"

#include <metis.h>
#include <mpi.h>
#include <omp.h>
#include <scotch.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "call_measurement.hpp"
#include "dump_parts.hpp"
#include "graph_generators.hpp"
#include "hpart/graph.hpp"
#include "progress.hpp"
#if HPART_HAVE_ZOLTAN
#include "zoltan_baseline.hpp"
#endif

namespace hpart_bench {
namespace {

namespace fs = std::filesystem;

struct GraphCase {
  std::string name;
  hpart::GraphFile file;
};

std::vector<fs::path> shared_files(const GraphSuiteConfig& cfg) {
  std::vector<fs::path> out;
  if (!cfg.files.empty()) {
    for (const std::string& f : cfg.files) out.emplace_back(f);
    return out;
  }
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(cfg.data_dir, ec))
    if (e.path().extension() == ".graph" || e.path().extension() == ".mgraph") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

void load(const hpart::Comm& comm, const GraphSuiteConfig& cfg, const std::string& name, GraphCase& gc) {
  gc.name = name;
  if (name == "grid3d") {
    gc.file = hpart_apps::grid_graph_3d(comm, cfg.grid_side);
    return;
  }
  if (name == "rgg2d") {
    gc.file = hpart_apps::random_geometric_2d(comm, cfg.rgg_cells, 4);
    return;
  }
  for (const fs::path& p : shared_files(cfg))
    if (p.stem().string() == name) {
      gc.file = hpart::read_graph_metis(comm, p.string());
      return;
    }
}

// The graph on rank 0 in METIS's arrays (untimed).
struct Gathered {
  std::vector<idx_t> xadj, adjncy, vwgt, adjwgt;
  idx_t n = 0, ncon = 1;
};

Gathered gather(const hpart::Comm& comm, const hpart::Graph& g) {
  const int R = comm.size();
  std::vector<std::int64_t> deg(g.local_vertices());
  for (std::size_t v = 0; v < deg.size(); ++v) deg[v] = g.xadj[v + 1] - g.xadj[v];
  auto gatherv = [&](const auto& mine, auto& all, MPI_Datatype t) {
    const int c = static_cast<int>(mine.size());
    std::vector<int> counts(static_cast<std::size_t>(R)), displs(static_cast<std::size_t>(R), 0);
    MPI_Gather(&c, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm.get());
    for (int r = 1; r < R; ++r) displs[static_cast<std::size_t>(r)] = displs[static_cast<std::size_t>(r) - 1] + counts[static_cast<std::size_t>(r) - 1];
    if (comm.rank() == 0) all.resize(static_cast<std::size_t>(displs.back() + counts.back()));
    MPI_Gatherv(mine.data(), c, t, all.data(), counts.data(), displs.data(), t, 0, comm.get());
  };
  std::vector<std::int64_t> all_deg, all_adj, all_vw, all_ew;
  gatherv(deg, all_deg, MPI_INT64_T);
  gatherv(std::vector<std::int64_t>(g.adjncy.begin(), g.adjncy.end()), all_adj, MPI_INT64_T);
  const std::size_t n = g.local_vertices();
  gatherv(g.vwgt.empty() ? std::vector<std::int64_t>(n * static_cast<std::size_t>(g.ncon), 1)
                         : g.vwgt.to_vector(),
          all_vw, MPI_INT64_T);
  gatherv(g.adjwgt.empty() ? std::vector<std::int64_t>(g.adjncy.size(), 1)
                           : g.adjwgt.to_vector(),
          all_ew, MPI_INT64_T);
  Gathered out;
  out.ncon = g.ncon;
  if (comm.rank() != 0) return out;
  out.n = static_cast<idx_t>(all_deg.size());
  out.xadj.assign(all_deg.size() + 1, 0);
  for (std::size_t v = 0; v < all_deg.size(); ++v) out.xadj[v + 1] = out.xadj[v] + static_cast<idx_t>(all_deg[v]);
  out.adjncy.assign(all_adj.begin(), all_adj.end());
  out.vwgt.assign(all_vw.begin(), all_vw.end());
  out.adjwgt.assign(all_ew.begin(), all_ew.end());
  return out;
}

std::vector<hpart::part_t> scatter(const hpart::Comm& comm, const hpart::Graph& g, const std::vector<idx_t>& all) {
  const int R = comm.size();
  std::vector<int> counts(static_cast<std::size_t>(R)), displs(static_cast<std::size_t>(R));
  for (int r = 0; r < R; ++r) {
    displs[static_cast<std::size_t>(r)] = static_cast<int>(g.vtxdist[static_cast<std::size_t>(r)]);
    counts[static_cast<std::size_t>(r)] = static_cast<int>(g.vtxdist[static_cast<std::size_t>(r) + 1] - g.vtxdist[static_cast<std::size_t>(r)]);
  }
  std::vector<idx_t> mine(g.local_vertices());
  MPI_Scatterv(all.data(), counts.data(), displs.data(), MPI_INT32_T, mine.data(), static_cast<int>(mine.size()),
               MPI_INT32_T, 0, comm.get());
  return std::vector<hpart::part_t>(mine.begin(), mine.end());
}

Record record(const hpart::Comm& comm, const GraphSuiteConfig& cfg, const GraphCase& gc, int K, const char* library,
              const char* method, const CallStats& stats, std::vector<hpart::part_t> parts, Progress& progress) {
  const hpart::Graph g = gc.file.view();
  Record r = measured_record(comm.get(), "graph", gc.name, library, method, gc.file.global_vertices, K, cfg.reps, stats);
  const hpart::GraphMetrics m = hpart::graph_metrics(comm, g, parts, K);
  const std::vector<double> w = g.vwgt.to_vector<double>();
  const hpart::Partition p = hpart::evaluate_partition(comm, std::move(parts), K, w, g.ncon);
  r.imbalance = p.metrics.imbalance.at(0);
  r.edge_cut = m.edge_cut;
  r.comm_volume = m.comm_volume;
  double worst = 0.0;
  for (double x : p.metrics.imbalance) worst = std::max(worst, x);
  char note[160];
  std::snprintf(note, sizeof note, " (cut %lld, imbalance %.4f%s, empty %lld)", static_cast<long long>(m.edge_cut),
                *r.imbalance, g.ncon > 1 ? (", worst constraint " + std::to_string(worst)).c_str() : "",
                p.metrics.empty_parts);
  progress.done(note);
  return r;
}

// method graph under `preset`; geometric+refine (which has no effort to set) under standard.
void run_hpart(const hpart::Comm& comm, const GraphSuiteConfig& cfg, const GraphCase& gc, int K, hpart::GraphMethod m,
               hpart::Preset preset, bool reset_works, RecordSink& sink) {
  const std::string method = m == hpart::GraphMethod::graph ? graph_preset_method(preset) : hpart::to_string(m);
  Progress progress(comm, "graph", gc.name + " k=" + std::to_string(K), "hpart " + method);
  hpart::GraphOptions opts = hpart::GraphOptions::preset(preset, K);
  opts.method = m;
  std::optional<hpart::GraphPartition> result;
  const CallStats stats = measure_calls(
      comm.get(), cfg.reps, reset_works, [&] { result.reset(); },
      [&] { result.emplace(hpart::partition_graph(comm, gc.file.view(), opts)); });
  dump_parts(comm, "graph", gc.name, "hpart", method, K, result->parts);
  sink.add(record(comm, cfg, gc, K, "hpart", method.c_str(), stats, std::move(result->parts), progress));
}

void run_metis(const hpart::Comm& comm, const GraphSuiteConfig& cfg, const GraphCase& gc, int K, bool reset_works,
               RecordSink& sink) {
  Progress progress(comm, "graph", gc.name + " k=" + std::to_string(K), "metis kway (on rank 0)");
  Gathered a = gather(comm, gc.file.view());
  std::vector<idx_t> part(static_cast<std::size_t>(a.n), 0);
  const CallStats stats = measure_calls(comm.get(), cfg.reps, reset_works, [] {}, [&] {
    if (comm.rank() != 0) return;
    idx_t nparts = K, objval = 0;
    std::vector<real_t> ub(static_cast<std::size_t>(a.ncon), 1.03f);
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    METIS_PartGraphKway(&a.n, &a.ncon, a.xadj.data(), a.adjncy.data(), a.vwgt.data(), nullptr, a.adjwgt.data(), &nparts,
                        nullptr, ub.data(), options, &objval, part.data());
  });
  sink.add(record(comm, cfg, gc, K, "metis", "kway", stats, scatter(comm, gc.file.view(), part), progress));
}

void run_scotch(const hpart::Comm& comm, const GraphSuiteConfig& cfg, const GraphCase& gc, int K, bool reset_works,
                RecordSink& sink) {
  if (gc.file.ncon > 1) return;  // Scotch's graph partitioner balances one weight
  Progress progress(comm, "graph", gc.name + " k=" + std::to_string(K), "scotch (default strategy, on rank 0)");
  Gathered a = gather(comm, gc.file.view());
  std::vector<idx_t> part(static_cast<std::size_t>(a.n), 0);
  std::string problem;
  const CallStats stats = measure_calls(comm.get(), cfg.reps, reset_works, [] {}, [&] {
    if (comm.rank() != 0) return;
    SCOTCH_Graph graph;
    SCOTCH_Strat strat;
    SCOTCH_graphInit(&graph);
    SCOTCH_stratInit(&strat);
    SCOTCH_stratGraphMapBuild(&strat, SCOTCH_STRATDEFAULT, K, 0.03);
    std::vector<SCOTCH_Num> xadj(a.xadj.begin(), a.xadj.end()), adj(a.adjncy.begin(), a.adjncy.end()),
        vw(a.vwgt.begin(), a.vwgt.end()), ew(a.adjwgt.begin(), a.adjwgt.end()), out(static_cast<std::size_t>(a.n));
    if (SCOTCH_graphBuild(&graph, 0, a.n, xadj.data(), nullptr, vw.data(), nullptr, xadj.back(), adj.data(), ew.data()) != 0 ||
        SCOTCH_graphPart(&graph, K, &strat, out.data()) != 0)
      problem = "Scotch failed";
    for (std::size_t v = 0; v < out.size(); ++v) part[v] = static_cast<idx_t>(out[v]);
    SCOTCH_stratExit(&strat);
    SCOTCH_graphExit(&graph);
  });
  comm.agree(problem.empty() ? hpart::ErrorCode::ok : hpart::ErrorCode::internal, problem);
  sink.add(record(comm, cfg, gc, K, "scotch", "default", stats, scatter(comm, gc.file.view(), part), progress));
}

#if HPART_HAVE_ZOLTAN
void run_zoltan(const hpart::Comm& comm, const GraphSuiteConfig& cfg, const GraphCase& gc, int K, bool reset_works,
                RecordSink& sink) {
  const hpart::Graph g = gc.file.view();
  Progress progress(comm, "graph", gc.name + " k=" + std::to_string(K), "zoltan phg (graph, 3%)");
  LocalPoints objects;  // the vertices: global ids and first weights (no coordinates needed)
  objects.dim = 0;
  const std::size_t n = g.local_vertices();
  for (std::size_t v = 0; v < n; ++v) {
    objects.ids.push_back(g.vtxdist[static_cast<std::size_t>(comm.rank())] + static_cast<hpart::gid_t>(v));
    if (!g.vwgt.empty()) objects.weights.push_back(static_cast<double>(g.vwgt[v * static_cast<std::size_t>(g.ncon)]));
  }
  objects.global_n = gc.file.global_vertices;
  ZoltanPartitioner z(comm.get(), K, objects, g, 0.03);
  CallStats stats;
  std::vector<hpart::part_t> parts = partition_measured(comm, z, cfg.reps, reset_works, stats);
  sink.add(record(comm, cfg, gc, K, "zoltan", "phg", stats, std::move(parts), progress));
}
#endif

}  // namespace

std::string graph_preset_method(hpart::Preset p) {
  return p == hpart::Preset::standard ? std::string("graph") : std::string("graph-") + hpart::to_string(p);
}

std::vector<std::string> graph_case_names(const GraphSuiteConfig& cfg) {
  std::vector<std::string> names;
  for (const fs::path& p : shared_files(cfg)) names.push_back(p.stem().string());
  if (!cfg.files.empty()) return names;  // --graph FILE: those files and nothing else
  names.push_back("grid3d");
  names.push_back("rgg2d");
  return names;
}

void run_graph_suite(const hpart::Comm& comm, const GraphSuiteConfig& cfg, RecordSink& sink) {
  const bool reset_works = peak_reset_works(comm.get());
  const std::vector<std::string> cases = cfg.cases.empty() ? graph_case_names(cfg) : cfg.cases;
  if (comm.rank() == 0) {
    std::printf("[graph] %zu cases, reps %d, ranks %d, threads %d; METIS and Scotch run on rank 0 (graph gathered, "
                "untimed)\n", cases.size(), cfg.reps, comm.size(), omp_get_max_threads());
    std::fflush(stdout);
  }
  for (const std::string& name : cases) {
    Progress loading(comm, "graph", name, "loading");
    GraphCase gc;
    load(comm, cfg, name, gc);
    char note[96];
    std::snprintf(note, sizeof note, " (%lld vertices, %lld edges)", static_cast<long long>(gc.file.global_vertices),
                  static_cast<long long>(gc.file.global_edges));
    loading.done(note);
    for (int K : cfg.parts) {
      if (cfg.run_hpart) {
        for (hpart::Preset preset : cfg.presets)
          run_hpart(comm, cfg, gc, K, hpart::GraphMethod::graph, preset, reset_works, sink);
        if (gc.file.dim > 0)
          run_hpart(comm, cfg, gc, K, hpart::GraphMethod::geometric_refine, hpart::Preset::standard, reset_works, sink);
      }
      if (cfg.run_metis) run_metis(comm, cfg, gc, K, reset_works, sink);
      if (cfg.run_scotch) run_scotch(comm, cfg, gc, K, reset_works, sink);
#if HPART_HAVE_ZOLTAN
      if (cfg.run_zoltan) run_zoltan(comm, cfg, gc, K, reset_works, sink);
#endif
    }
  }
}

}  // namespace hpart_bench
