// hpart-bench: runs a benchmark suite under mpirun and writes BENCH.md records (JSON Lines to
// --json, an aligned table to rank 0's stdout).
//   mpirun -np 2 --bind-to none hpart-bench --suite points --n 4000000 --parts 64 --json out.jsonl
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <cstdio>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "bench_record.hpp"
#include "dump_parts.hpp"
#include "hpart/comm.hpp"
#include "hpart/error.hpp"
#include "hpart/version.hpp"
#include "assign_suite.hpp"
#include "graph_suite.hpp"
#include "grid_suite.hpp"
#include "points_suite.hpp"
#include "thread_default.hpp"
#include "repart_suite.hpp"
#if HPART_HAVE_TENSOR
#include "tensor_suite.hpp"
#endif
#if HPART_HAVE_ZOLTAN
#include "zoltan_baseline.hpp"
#endif

// --dump-parts (declared in bench_record.hpp): the directory, and the names written so far.
namespace hpart_bench {
namespace {
std::string g_dump_dir;
std::vector<std::string> g_dumped;

std::string dump_field(const std::string& s) {
  std::string out = s.empty() ? "_" : s;
  for (char& ch : out) {
    const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
                      ch == '+' || ch == '-';
    if (!keep) ch = '_';
  }
  return out;
}
}  // namespace

void set_dump_dir(const std::string& dir) { g_dump_dir = dir; }
bool dumping_parts() { return !g_dump_dir.empty(); }

void dump_parts(const hpart::Comm& comm, const std::string& suite, const std::string& case_name,
                const std::string& library, const std::string& method, int parts, const std::vector<std::int32_t>& local,
                int event) {
  if (g_dump_dir.empty()) return;
  const int R = comm.size(), root = 0;
  const int count = static_cast<int>(local.size());
  std::vector<int> counts(static_cast<std::size_t>(R), 0), displs(static_cast<std::size_t>(R), 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, root, comm.get());
  std::vector<std::int32_t> all;
  if (comm.rank() == root) {
    long long total = 0;
    for (int r = 0; r < R; ++r) {
      displs[static_cast<std::size_t>(r)] = static_cast<int>(total);
      total += counts[static_cast<std::size_t>(r)];
    }
    all.resize(static_cast<std::size_t>(total));
  }
  MPI_Gatherv(local.data(), count, MPI_INT32_T, all.data(), counts.data(), displs.data(), MPI_INT32_T, root,
              comm.get());
  std::string name = dump_field(suite) + "." + dump_field(case_name) + "." + dump_field(library) + "-" +
                     dump_field(method) + ".k" + std::to_string(parts) + ".np" + std::to_string(R);
  if (event >= 0) {
    char e[16];
    std::snprintf(e, sizeof e, ".e%03d", event);
    name += e;
  }
  name += ".parts";
  std::string problem;
  if (comm.rank() == root) {
    if (std::find(g_dumped.begin(), g_dumped.end(), name) != g_dumped.end()) {
      problem = "--dump-parts: record name '" + name + "' written twice in one run";
    } else {
      g_dumped.push_back(name);
      const std::string path = (std::filesystem::path(g_dump_dir) / name).string();
      std::FILE* f = std::fopen(path.c_str(), "wb");
      const bool ok = f != nullptr && std::fwrite(all.data(), sizeof(std::int32_t), all.size(), f) == all.size();
      if (f != nullptr && std::fclose(f) != 0 && ok) problem = "--dump-parts: cannot close " + path;
      if (!ok) problem = "--dump-parts: cannot write " + path;
    }
  }
  comm.agree(problem.empty() ? hpart::ErrorCode::ok : hpart::ErrorCode::io, problem);
}

}  // namespace hpart_bench

namespace {

// Every suite, with what it runs: the --help footer and the unknown-suite message both come from
// here, so a suite cannot be runnable and unlisted.
struct Suite {
  const char* name;
  const char* runs;
};
constexpr Suite kSuiteList[] = {
    {"points", "partition_points (hilbert, morton) of 3-D point sets, C++ and C API, against a Morton-key floor "
               "and Zoltan HSFC/RCB/RIB (--n, --cases uniform3d,clusters3d,plane)"},
    {"grid", "partition_grid (sfc, blocks, tensor) of cost hotspots and an AMR patch level, against uniform blocks "
             "and Zoltan RCB (--side2d, --side3d, --cases hotspot2d,hotspot3d,amr2d)"},
    {"hier", "hierarchical against flat partitions on an emulated topology (--topology NxM = np): grid hotspots "
             "and a graph (delaunay_n15 or --graph FILE)"},
    {"graph", "partition_graph against METIS kway, Scotch and Zoltan PHG: every shared graph plus the generated "
              "grid3d and rgg2d, or only the --graph FILEs given (--parts, default 16 and 64)"},
    {"repart", "repartitioning along a drifting load, migrated weight against the lower bound: drift3d points, "
               "graphdrift, griddrift (--side, --steps)"},
    {"assign", "PartitionMap assign of --n random points per rank and 10^4 boxes on a partition of 10^6 points"},
#if HPART_HAVE_TENSOR
    {"tensor", "domain-parallel tensors: halo2d exchanges (1024^2 x 16 floats) and conv2d forward + backward "
               "(256^2 x 16), --side2d for larger fields"},
#else
    {"tensor", "domain-parallel tensors: halo2d, conv2d (not built in: needs Kokkos, see docs/install.md)"},
#endif
};

std::string suite_names() {
  std::string out;
  for (const Suite& s : kSuiteList) out += (out.empty() ? "" : ", ") + std::string(s.name);
  return out;
}

std::string suites_footer() {
  std::string out = "Suites:\n";
  for (const Suite& s : kSuiteList) {
    char line[32];
    std::snprintf(line, sizeof line, "  %-8s", s.name);
    out += line + std::string(s.runs) + "\n";
  }
  return out;
}

struct Cli {
  std::string suite;
  long long n = 4000000;
  int parts = 64;
  int reps = 1;
  std::uint64_t seed = hpart_bench::PointsSuiteConfig{}.seed;
  std::vector<std::string> cases;      // default: every case of the suite
  long long side2d = 4096, side3d = 256;
  long long side = 100;  // repart suite: cells per side of drift3d
  int steps = 50;        // repart suite: steps of the drift
  std::string topology = "3x2";
  std::vector<std::string> graphs;     // graph suite: --graph FILE (instead of the shared graphs)
  bool parts_given = false;
  bool side_given = false;  // repart suite: --side also sets graphdrift's side (default 512)
  std::vector<std::string> libraries;  // default: every library of the suite
  std::vector<std::string> presets;    // graph suite: --preset (default: standard)
  std::string json;
  std::string dump_parts;  // --dump-parts DIR
  int threads = 0;         // -t/--threads; 0: OMP_NUM_THREADS, else this rank's cores (thread_default.hpp)
};

// Every rank parses the same argv, so every rank reaches the same verdict without talking.
// Returns "" when the options are valid, else the message for the user.
std::string validate_common(const Cli& cli) {
#if !HPART_HAVE_TENSOR
  if (cli.suite == "tensor") return "suite tensor is not built in (needs Kokkos, see docs/install.md)";
#endif
  if (cli.suite != "points" && cli.suite != "grid" && cli.suite != "hier" && cli.suite != "graph" &&
      cli.suite != "repart")
    return "unknown suite '" + cli.suite + "' (available: " + suite_names() + ")";
  if (!cli.presets.empty() && cli.suite != "graph") return "--preset applies to suite graph only";
  if (cli.n < 1) return "--n must be >= 1 (got " + std::to_string(cli.n) + ")";
  if (cli.parts < 1) return "--parts must be >= 1 (got " + std::to_string(cli.parts) + ")";
  if (cli.reps < 1) return "--reps must be >= 1 (got " + std::to_string(cli.reps) + ")";
  return {};
}

std::string validate(const Cli& cli, hpart_bench::PointsSuiteConfig& cfg) {
  cfg.n = cli.n;
  cfg.parts = cli.parts;
  cfg.reps = cli.reps;
  cfg.seed = cli.seed;
  if (!cli.cases.empty()) cfg.cases.clear();
  for (const std::string& name : cli.cases) {
    hpart_apps::PointCase c{};
    // The suite's baselines (floor keys) are 3D; the 2D generators serve `hpart generate`.
    if (!hpart_apps::point_case_from_string(name, c) || hpart_apps::case_dim(c) != 3)
      return "unknown case '" + name + "' for suite points (available: uniform3d, clusters3d, plane)";
    cfg.cases.push_back(c);
  }
  if (!cli.libraries.empty()) cfg.run_hpart = cfg.run_hpart_c = cfg.run_floor = cfg.run_zoltan = false;
  for (const std::string& lib : cli.libraries) {
    if (lib == "hpart")
      cfg.run_hpart = true;
    else if (lib == "hpart-c")
      cfg.run_hpart_c = true;
    else if (lib == "floor")
      cfg.run_floor = true;
    else if (lib == "zoltan")
      cfg.run_zoltan = true;
    else
      return "unknown library '" + lib + "' (available: hpart, hpart-c, floor, zoltan)";
  }
  return {};
}

std::string validate(const Cli& cli, hpart_bench::GridSuiteConfig& cfg) {
  cfg.parts = cli.parts;
  cfg.reps = cli.reps;
  if (cli.side2d < 2 || cli.side3d < 2) return "--side2d and --side3d must be >= 2";
  cfg.side2d = cli.side2d;
  cfg.side3d = cli.side3d;
  if (!cli.cases.empty()) cfg.cases = cli.cases;
  for (const std::string& name : cfg.cases)
    if (!hpart_bench::is_grid_case(name))
      return "unknown case '" + name + "' for suite grid (available: " + hpart_bench::grid_case_names() + ")";
  if (!cli.libraries.empty()) cfg.run_hpart = cfg.run_naive = cfg.run_zoltan = false;
  for (const std::string& lib : cli.libraries) {
    if (lib == "hpart")
      cfg.run_hpart = true;
    else if (lib == "naive")
      cfg.run_naive = true;
    else if (lib == "zoltan")
      cfg.run_zoltan = true;
    else
      return "unknown library '" + lib + "' (available: hpart, naive, zoltan)";
  }
  return {};
}

std::string validate(const Cli& cli, hpart_bench::GraphSuiteConfig& cfg) {
  if (cli.parts_given) cfg.parts = {cli.parts};
  cfg.reps = cli.reps;
  cfg.files = cli.graphs;
  cfg.data_dir = HPART_SHARED_GRAPHS;
  if (!cli.libraries.empty()) cfg.run_hpart = cfg.run_metis = cfg.run_scotch = cfg.run_zoltan = false;
  for (const std::string& lib : cli.libraries) {
    if (lib == "hpart")
      cfg.run_hpart = true;
    else if (lib == "metis")
      cfg.run_metis = true;
    else if (lib == "scotch")
      cfg.run_scotch = true;
    else if (lib == "zoltan")
      cfg.run_zoltan = true;
    else
      return "unknown library '" + lib + "' for suite graph (available: hpart, metis, scotch, zoltan)";
  }
  const std::vector<std::string> known = hpart_bench::graph_case_names(cfg);
  for (const std::string& name : cli.cases) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      return "unknown case '" + name + "' for suite graph (available: " + list + ")";
    }
    cfg.cases.push_back(name);
  }
  if (cli.side3d != 256) cfg.grid_side = cli.side3d;  // grid3d's side, when given
  if (!cli.presets.empty()) cfg.presets.clear();
  for (const std::string& name : cli.presets) {
    if (name != "fast" && name != "standard" && name != "default" && name != "strong")
      return "unknown preset '" + name + "' (available: fast, default (or standard), strong)";
    const hpart::Preset p = hpart::preset_from_string(name.c_str());
    if (std::find(cfg.presets.begin(), cfg.presets.end(), p) == cfg.presets.end()) cfg.presets.push_back(p);
  }
  return {};
}

std::string validate(const Cli& cli, hpart_bench::RepartSuiteConfig& cfg) {
  cfg.parts = cli.parts;
  cfg.side = cli.side;
  cfg.steps = cli.steps;
  if (cli.side < 2 || cli.side > 2000) return "--side must lie in [2, 2000] (got " + std::to_string(cli.side) + ")";
  if (cli.steps < 1) return "--steps must be >= 1 (got " + std::to_string(cli.steps) + ")";
  for (const std::string& name : cli.cases)
    if (!hpart_bench::is_repart_case(name))
      return "unknown case '" + name + "' for suite repart (available: drift3d, graphdrift, griddrift)";
  if (!cli.cases.empty()) cfg.cases = cli.cases;
  if (cli.side_given) cfg.graph_side = cfg.grid_side = cli.side;
  if (!cli.libraries.empty()) cfg.run_hpart = cfg.run_zoltan = false;
  for (const std::string& lib : cli.libraries) {
    if (lib == "hpart") cfg.run_hpart = true;
    else if (lib == "zoltan") cfg.run_zoltan = true;
    else return "unknown library '" + lib + "' for suite repart (available: hpart, zoltan)";
  }
  return {};
}

int run(int argc, char** argv, int rank) {
  Cli cli;
  CLI::App app{"hpart-bench: benchmark suites writing BENCH.md records (run under mpirun)"};
  app.add_option("--suite", cli.suite, "suite to run: " + suite_names() + " (below)")->required();
  app.footer(suites_footer());
  app.add_option("--n", cli.n, "number of points (global; points suite)")->capture_default_str();
  app.add_option("--parts", cli.parts, "number of parts K (graph suite: default 16 and 64)")->capture_default_str();
  app.add_option("--reps", cli.reps,
                 "repetitions per method. time_s is their median; cold_s the first (heap trimmed before it: in a "
                 "fresh process, what a one-shot call pays), warm_s the median of the others (heap kept)")
      ->capture_default_str();
  app.add_option("--cases", cli.cases,
                 "comma-separated cases (default: all). points: uniform3d, clusters3d, plane; grid: hotspot2d, hotspot3d, amr2d; "
                 "hier: hotspot3d, graph (delaunay_n15, or --graph FILE), hotspot2d; graph: the shared graphs, grid3d, rgg2d; "
                 "repart: drift3d (default), graphdrift, griddrift; tensor: halo2d, conv2d")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--libraries", cli.libraries, "comma-separated (default: all). points: hpart, hpart-c, floor, zoltan; grid: hpart, naive, zoltan; graph: hpart, metis, scotch, zoltan; repart: hpart, zoltan; tensor: hpart, mpi")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--preset", cli.presets,
                 "graph suite: comma-separated presets of hpart's graph method: fast, default (or standard), strong; "
                 "records named graph-fast, graph, graph-strong (default: default only)")
      ->delimiter(',');
  app.add_option("--side2d", cli.side2d,
                 "cells per side: grid suite, of hotspot2d and amr2d (default 4096); tensor suite, of halo2d and "
                 "conv2d (default 1024 and 256)");
  app.add_option("--side3d", cli.side3d, "grid suite: cells per side of hotspot3d")->capture_default_str();
  app.add_option("--side", cli.side, "repart suite: cells per side of drift3d; when given, also vertices per side of graphdrift's grid graph (else 512) and cells per side of griddrift (else 1024)")->capture_default_str();
  app.add_option("--steps", cli.steps, "repart suite: steps of the drift")->capture_default_str();
  app.add_option("--topology", cli.topology, "hier suite: emulated topology NxM (N nodes of M ranks; N*M = np)")
      ->capture_default_str();
  app.add_option("--seed", cli.seed, "seed of the generated inputs")->capture_default_str();
  app.add_option("--graph", cli.graphs,
                 "graph suite: METIS .graph files to run, and nothing else (no shared or generated graphs); hier "
                 "suite: the file of its graph case")
      ->check(CLI::ExistingFile);
  app.add_option("-t,--threads", cli.threads,
                 "OpenMP threads per rank (default: OMP_NUM_THREADS if set, else the cores of this rank: its "
                 "affinity mask, or the node's cores shared among the job's ranks on the node)")
      ->check(CLI::PositiveNumber);
  app.add_option("--json", cli.json, "write JSON Lines records to this file (rank 0)");
  app.add_option("--dump-parts", cli.dump_parts,
                 "write the part vector of every run of hpart's own methods to DIR (created if missing): one file "
                 "of raw int32 part ids (native byte order) per record, gathered to rank 0 in rank order, named "
                 "<suite>.<case>.<library>-<method>.k<parts>.np<ranks>[.e<event>].parts. Not written for the "
                 "baselines that are not hpart code (zoltan, the graph suite's metis and scotch, floor, round-robin); "
                 "written for naive uniform-blocks (hpart's uniform grid method) and hier's metis kway-flat (hpart's "
                 "METIS path). repart: one file per event (e000 the initial partition, then each rebalance). With "
                 "--reps > 1 still one file per record: the result its metrics describe. For comparing two builds "
                 "bit for bit: scripts/compare_parts.py")
      ->type_name("DIR");
  app.set_version_flag("--version", std::string("hpart-bench ") + hpart::version() + " (" + hpart::features_string() + ")",
                       "print the version of hpart and the optional dependencies it was built with, then exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Same verdict on every rank; only rank 0 talks.
    if (rank == 0) return app.exit(e);
    return e.get_exit_code();
  }

  // Before any suite (and before Kokkos starts, which sizes its pool from OpenMP's setting).
  const hpart_apps::ThreadChoice threads = hpart_apps::choose_threads(hpart::Comm(MPI_COMM_WORLD), cli.threads);
  if (rank == 0) {
    int ranks = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    std::printf("hpart-bench %s: suite %s, %d %s, %s\n", hpart::version(), cli.suite.c_str(), ranks,
                ranks == 1 ? "rank" : "ranks", threads.why.c_str());
    std::fflush(stdout);
  }

  hpart_bench::PointsSuiteConfig points;
  hpart_bench::GridSuiteConfig grid;
  hpart_bench::HierSuiteConfig hier;
  hpart_bench::GraphSuiteConfig graph;
  cli.parts_given = app.count("--parts") > 0;
  cli.side_given = app.count("--side") > 0;
#if HPART_HAVE_TENSOR
  if (cli.suite == "tensor")  // validated and run on its own (tensor_suite.cpp)
    return hpart_bench::run_tensor_command(rank, cli.reps, cli.cases, cli.libraries,
                                           app.count("--side2d") > 0 ? cli.side2d : 0, cli.json);
#endif
  if (cli.suite == "assign")  // validated and run on its own (assign_suite.cpp)
    return hpart_bench::run_assign_command(cli.n, cli.parts, cli.reps, cli.seed, cli.json);
  // The hier suite's graph case is not a grid: set it aside while the grid cases are checked.
  Cli grid_cli = cli;
  bool hier_graph = cli.suite == "hier" && cli.cases.empty();
  if (cli.suite == "hier") {
    std::erase_if(grid_cli.cases, [&](const std::string& c) { return c == "graph" && (hier_graph = true); });
    if (cli.cases.empty()) grid.cases = {"hotspot3d"};
    if (!cli.cases.empty() && grid_cli.cases.empty()) grid.cases.clear();
  }
  std::string problem = validate_common(cli);
  hpart_bench::RepartSuiteConfig repart;
  if (problem.empty() && cli.suite == "repart") problem = validate(cli, repart);
  if (problem.empty() && cli.suite != "repart")
    problem = cli.suite == "points" ? validate(cli, points) : cli.suite == "graph" ? validate(cli, graph) : validate(grid_cli, grid);
  if (problem.empty() && cli.suite == "hier")
    for (const std::string& name : grid.cases)
      if (name == "amr2d") problem = "case amr2d belongs to suite grid (hier: hotspot3d, hotspot2d)";
  hier.grid = grid;
  hier.topology = cli.topology;
  if (hier_graph) {
    hier.graph_file = cli.graphs.empty() ? std::string(HPART_SHARED_GRAPHS) + "/delaunay_n15.graph" : cli.graphs.front();
    // By default only where the shared graphs are (asked for by name, a missing file is an error).
    const bool asked = std::find(cli.cases.begin(), cli.cases.end(), "graph") != cli.cases.end();
    if (asked || std::filesystem::exists(hier.graph_file))
      hier.grid.cases.push_back("graph");
    else if (rank == 0)
      std::printf("[hier] case graph skipped: %s not found\n", hier.graph_file.c_str());
  }
  if (!problem.empty()) {
    if (rank == 0) std::fprintf(stderr, "hpart-bench: %s\n", problem.c_str());
    return 2;
  }

  const hpart::Comm comm(MPI_COMM_WORLD);
  hpart_bench::RecordSink sink(rank, cli.json);
  comm.agree(sink.open_error().empty() ? hpart::ErrorCode::ok : hpart::ErrorCode::io, sink.open_error());
  if (!cli.dump_parts.empty()) {
    std::string dump_problem;
    if (rank == 0) {
      std::error_code ec;
      std::filesystem::create_directories(cli.dump_parts, ec);
      if (ec || !std::filesystem::is_directory(cli.dump_parts))
        dump_problem = "--dump-parts: cannot create directory '" + cli.dump_parts + "'" + (ec ? ": " + ec.message() : "");
    }
    comm.agree(dump_problem.empty() ? hpart::ErrorCode::ok : hpart::ErrorCode::io, dump_problem);
    hpart_bench::set_dump_dir(cli.dump_parts);
  }
#if HPART_HAVE_ZOLTAN
  if ((cli.suite == "points" && points.run_zoltan) || (cli.suite == "grid" && grid.run_zoltan) ||
      (cli.suite == "graph" && graph.run_zoltan) ||
      (cli.suite == "repart" && repart.run_zoltan))
    hpart_bench::zoltan_initialize(argc, argv);
#endif
  if (cli.suite == "points")
    hpart_bench::run_points_suite(comm, points, sink);
  else if (cli.suite == "grid")
    hpart_bench::run_grid_suite(comm, grid, sink);
  else if (cli.suite == "graph")
    hpart_bench::run_graph_suite(comm, graph, sink);
  else if (cli.suite == "repart")
    hpart_bench::run_repart_suite(comm, repart, sink);
  else
    hpart_bench::run_hier_suite(comm, hier, sink);
  if (rank == 0) std::printf("\n");
  sink.print_table(stdout);
  if (rank == 0 && !cli.json.empty()) std::printf("records written to %s\n", cli.json.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int rc = 0;
  try {
    rc = run(argc, argv, rank);
  } catch (const hpart::Error& e) {
    // hpart errors are agreed across ranks: every rank is here with the same message.
    if (rank == 0) std::fprintf(stderr, "hpart-bench: %s\n", e.what());
    rc = 1;
  } catch (const std::exception& e) {
    // Anything else may have hit one rank only: abort rather than leave the others waiting.
    std::fprintf(stderr, "hpart-bench (rank %d): %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  // Rank 0's message must be out before any rank exits: mpirun kills the job at the first
  // nonzero exit.
  std::fflush(stdout);
  std::fflush(stderr);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return rc;
}
