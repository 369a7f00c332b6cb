// hpart: the command-line front end. Every rank parses the same argv, so every rank reaches the
// same verdict on the options without talking; rank 0 alone prints.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "commands.hpp"
#include "convert_command.hpp"
#include "file_workflows.hpp"
#include "hpart/hpart.hpp"

namespace {

constexpr const char* kSubcommands = "partition, evaluate, repartition, grid, generate, convert";

constexpr const char* kFooter = R"(
Examples (under mpirun; as root add --allow-run-as-root --oversubscribe):
  mpirun -np 2 hpart partition mesh.graph 64                 # like gpmetis: writes mesh.graph.part.64
  mpirun -np 2 hpart partition mesh.graph 64 -e 1.05 --seed 7 -o mesh.part   # 5 % (0.05 means the same)
  mpirun -np 2 hpart partition mesh.graph 64 --method metis  # METIS itself, for comparison
  mpirun -np 2 hpart partition mesh.graph 64 -P strong       # less cut for more time (or -P fast)
  mpirun -np 2 hpart partition mesh.graph 64 --coords mesh.xyz --method geometric+refine --png mesh.png
  mpirun -np 2 hpart partition mesh.graph 64 --drift 40      # then rebalance a drifting load
  mpirun -np 2 hpart evaluate mesh.graph mesh.graph.part.64  # metrics of any partition file (gpmetis's too)
  mpirun -np 2 hpart repartition mesh.graph --from old.part -o new.part   # move little; METIS vsize = cost
  mpirun -np 2 hpart evaluate --grid grid.h5                 # a grid partition written by hpart grid --out
  mpirun -np 2 hpart convert mesh.graph mesh.hgraph          # binary: reads at disk speed, for repeated runs
  mpirun -np 2 hpart partition mesh.hgraph 64                # the same partition as from mesh.graph
  mpirun -np 2 hpart generate --graph grid3d --side 128 --out grid.hgraph   # or --graph rgg2d --cells 512
  mpirun -np 4 hpart generate --shape clusters2d --n 200000 --out pts.txt
  mpirun -np 4 hpart partition pts.txt 16 --png pts.png      # writes pts.txt.part.16 and a picture
  mpirun -np 2 hpart partition big.txt -k 64 --method morton -e 0.01 -t 1 --json runs.jsonl
  mpirun -np 4 hpart generate --shape clusters3d --n 1000000 --out pts.h5
  mpirun -np 4 hpart partition pts.h5 64 -o parts.h5         # then: paraview parts.xmf
  mpirun -np 4 hpart grid --extent 2048,2048 -k 16 --method blocks --png grid.png
  mpirun -np 6 hpart grid --extent 128,128,128 -k 24 --method hier --topology 3x2 --out grid.h5
  mpirun -np 4 hpart grid --h5 grid.h5 --dataset /cost -k 32 --method sfc   # a cost field from a file

Point files are text, one point per line: `x y [z] [w]` (blanks or commas between numbers;
'#' and '%' lines are comments). A first line `# x y w` (or `# x y z`, ...) declares the columns;
without it 2 columns are x y and 4 are x y z w, and 3 columns need it (or --dim): x y z or x y w? Each rank reads its own byte range of the file. The part file
has one part id per point, in file order (the METIS .part convention).
HDF5 point files (--h5, parallel HDF5 over MPI-IO) hold /points (N x 2 or N x 3), optionally
/weights (N, or N x ncon: the first column is balanced) and /ids (N); each rank reads its own
block of rows. --out FILE.h5 (or .hdf5) writes /parts (N, file order), /points, /weights, /ids,
/part_weights, /part_sizes and the metrics as attributes, plus FILE.xmf (XDMF) for ParaView/VisIt.
Graph files (--graph) are METIS .graph (`n m [fmt [ncon]]` header, 1-based adjacency lines; Chaco
is the same layout) or MatrixMarket coordinate files (the pattern, symmetrised); each rank parses
its byte range, errors name the line (asymmetric edges, ids out of range, weights, truncation).
hpart's binary graphs (.hgraph, written by `hpart convert` or `generate --graph`) are read by each
rank as its block of vertices, at the speed of the disk (docs/graphs_io.md).

Related programs (same build): hpart-bench (benchmark suites: points, grid, hier, graph, repart,
tensor), hpart-heat (grid heat diffusion, rebalanced afresh or, with --planes, by moving the
cut planes of its blocks partition), hpart-particles (drifting particles with
the feedback Rebalancer: --mode static|always|feedback), hpart-train (domain-parallel CNN
training on sharded Kokkos tensors), hpart-scaling (the scaling regression suite: every method at
1-16+ ranks, messages, bytes and memory per rank, a verdict against a stored baseline, growth
models to 1e5 ranks: docs/scaling.md). Each has its own --help; docs/ explains the library calls.

Linking the library from your code: C++ (#include <hpart/hpart.hpp>), C (<hpart/hpart.h>, docs/c_api.md),
Fortran (use hpart, docs/fortran.md), or unchanged ParMETIS 4 callers (libhpart_parmetis,
docs/from_parmetis_zoltan.md; HPART_PARMETIS_PRESET=fast|default|strong sets PartKway's effort,
which otherwise sits between default and strong); `pkg-config --cflags --libs hpart` (or hpart-fortran,
hpart-parmetis) or CMake find_package(hpart) give the link line (docs/install.md). Point and box
assign (which part owns a coordinate, with no communication): docs/assign.md. From Python
(numpy, mpi4py): `import hpart` (docs/python.md); domain-parallel torch models on hpart's layouts:
`import hpart.torch` (docs/torch.md, examples/python/train_heat.py).

Exit codes: 0 success, 1 bad command line (an unknown subcommand or option, a missing K, an
option that does not apply to the input, e.g. --dim for a graph), 2 bad input, failed I/O (the
message says which line or value; outputs are checked for writability before any work) or a
feature this build lacks (METIS, HDF5, PNG: the message says which), 3 internal error, 4 a
partition that missed its tolerance under --strict. Bad input on any rank is the same error on
every rank, never a hang: arguments that must agree across ranks are compared first, and memory
a run would need (from the parts, the points per rank, a file's declared size) is checked before
it is allocated against what each rank may use: the node's available memory shared by its ranks,
or HPART_MEMORY_LIMIT (e.g. HPART_MEMORY_LIMIT=4G). A partition that misses its tolerance is
kept, with a warning on stderr saying why (e.g. one object heavier than a part's share) and how
close it got; --strict makes that exit 4.
Threads: each rank runs as many OpenMP threads as it has cores (its binding, or the node's cores
shared by the ranks on it); OMP_NUM_THREADS or -t override; the header line says which.
gpmetis spellings work too: -ufactor=30 (tolerance 0.030), -seed=7.
Set HPART_VERBOSE=1 (or 2) for phase timings on rank 0.)";

void add_partition(CLI::App& app, hpart_cli::PartitionArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "partition", "partition a point file (text or HDF5) or a graph file (METIS, Chaco, MatrixMarket) into K parts");
  a.cmd = cmd;
  cmd->add_option("FILE", a.file,
                  "the input: its kind comes from its content (HDF5, MatrixMarket, hpart binary graph) or extension "
                  "(.graph .metis .chaco .mtx .hgraph: graphs; .txt .xyz .pts .csv .dat: points; .h5: HDF5 points); --kind overrides");
  cmd->add_option("K", a.parts_arg, "number of parts (or -k K); any K >= 1, independent of the number of ranks")
      ->check(CLI::Range(1, 1 << 30));
  cmd->add_option("-k,--parts", a.parts, "number of parts K (the same as the second positional argument)")
      ->check(CLI::Range(1, 1 << 30));
  cmd->add_option("--points", a.points, "the older form of FILE with --kind points");
  cmd->add_option("--h5", a.h5, "the older form of FILE with --kind h5 (/points N x 2 or N x 3, optional /weights, /ids)");
  cmd->add_option("--graph", a.graph, "the older form of FILE with --kind graph");
  hpart_cli::add_input_options(*cmd, a.kind, a.format, a.dim);
  cmd->add_option("-m,--method", a.method,
                  "points: hilbert (default; best locality) or morton (cheaper keys); graphs: graph (default; hpart's "
                  "multilevel partitioner), metis (METIS kway on the graph gathered to rank 0), geometric+refine "
                  "(a Hilbert partition of the vertex coordinates, refined on the graph; needs --coords)")
      ->check(CLI::IsMember({"hilbert", "morton", "graph", "metis", "geometric+refine"}));
  hpart_cli::add_balance_options(*cmd, a.balance, "default 0.001 for points, 0.03 for graphs");
  cmd->add_option("--coords", a.coords,
                  "graphs: a point file with one point per vertex in vertex order (METIS .xyz style): enables "
                  "geometric+refine and --png");
  cmd->add_option("-o,--out", a.out,
                  "the part file: one part id per point or vertex, in file order (METIS .part; default FILE.part.K "
                  "next to FILE, as gpmetis); FILE.h5 (or .hdf5): HDF5 (/parts, /ids, the points or coordinates, "
                  "metrics) and FILE.xmf for ParaView");
  cmd->add_flag("--no-out", a.no_out, "write no part file")->excludes("--out");
  cmd->add_option("--png", a.png, "draw the partition (points; graphs with --coords), with a title and a legend");
  cmd->add_option("--png-size", a.png_size, "pixels on the picture's longer side")->check(CLI::Range(16, 8192))
      ->capture_default_str();
  cmd->add_option("--seed", a.seed, "graphs: random seed of the graph method (the same seed gives the same partition)")
      ->check(CLI::Range(0LL, 2147483647LL));
  cmd->add_option("-P,--preset", a.preset,
                  "graphs, method graph, as KaMinPar's -P: fast (a smaller coarsest graph, fewer and shorter FM "
                  "passes: a little cheaper, a few % more cut), default (coarsened by label-propagation clustering), or "
                  "strong (a second run coarsened by heavy-edge matching, more METIS tries, longer FM, V-cycles: "
                  "less cut for several times the time)")
      ->check(CLI::IsMember({"fast", "default", "standard", "strong"}));
  cmd->add_option("--drift", a.drift,
                  "graphs: then STEPS steps of a load that drifts along the vertex ids (1 + 4 x a Gaussian of width 0.1 "
                  "of the ids, moving 0.004 of them per step; a step modelled as 1 s per part), the Rebalancer deciding "
                  "when to rebalance (observe/decide/rebalance, incremental with a cut watch); one row per rebalance")
      ->check(CLI::Range(1, 100000));
  hpart_cli::add_run_options(*cmd, a.run);
}

void add_generate(CLI::App& app, hpart_cli::GenerateArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "generate", "write a generated point set, or with --graph a generated graph (the same file for any rank count)");
  cmd->add_option("--shape", a.shape,
                  "uniform2d, uniform3d: uniform in the unit square/cube; clusters2d, clusters3d: 20 Gaussian "
                  "clusters with heavy-tailed weights (written as a last column); plane: 3D points on z = 0.5")
      ->capture_default_str();
  cmd->add_option("--n", a.n, "number of points")->check(CLI::Range(1LL, 1LL << 40))->capture_default_str();
  cmd->add_option("--seed", a.seed, "random seed")->capture_default_str();
  cmd->add_option("--out", a.out, "output point file: text, or HDF5 when it ends in .h5 or .hdf5 (/points, /weights)")
      ->required();
  cmd->add_flag("-q,--quiet", a.quiet, "print nothing on success");
}

void add_grid(CLI::App& app, hpart_cli::GridArgs& a) {
  CLI::App* cmd = app.add_subcommand("grid", "partition a structured grid (generated or from HDF5) and report its halo traffic");
  cmd->add_option("--extent", a.extent, "cells per dimension: 2 values (2D) or 3 (3D), e.g. --extent 256,256,256")
      ->delimiter(',')->expected(2, 3)->check(CLI::Range(1LL, 1LL << 31))->capture_default_str();
  cmd->add_option("--cost", a.cost, "generated cost: hotspot (1, plus --peak inside a disk/ball covering 5%) or unit")
      ->check(CLI::IsMember({"hotspot", "unit"}))->capture_default_str();
  cmd->add_option("--peak", a.peak, "extra cost inside the hotspot")->check(CLI::Range(0.0, 1e12))->capture_default_str();
  cmd->add_option("--h5", a.h5, "read the grid and its cost from HDF5 instead (a 2D ny x nx or 3D nz x ny x nx dataset)")
      ->check(CLI::ExistingFile)->excludes("--extent")->excludes("--cost")->excludes("--peak");
  cmd->add_option("--dataset", a.dataset, "the cost dataset in --h5")->capture_default_str();
  a.cmd = cmd;
  cmd->add_option("-k,--parts", a.parts, "number of parts K")->required()->check(CLI::Range(1, 1 << 30));
  cmd->add_option("-m,--method", a.method,
                  "sfc: Hilbert cell ranges, exact balance; blocks: recursive-bisection boxes; tensor: Px x Py (x Pz) "
                  "boxes; uniform: equal boxes (naive); hier: nodes (graph cut) then ranks (Hilbert)")
      ->check(CLI::IsMember({"sfc", "blocks", "tensor", "uniform", "hier"}))->capture_default_str();
  cmd->add_option("--topology", a.topology, "hier: NxM emulates N nodes of M ranks (default: HPART_TOPOLOGY, else shared memory)");
  hpart_cli::add_balance_options(*cmd, a.balance, "sfc/hier splitter tolerance, default 0.001");
  cmd->add_option("--halo", a.halo, "halo width for the neighbour lists")->check(CLI::Range(1, 1 << 20))->capture_default_str();
  cmd->add_option("--out", a.out, "write an HDF5 grid partition (/parts per cell, /boxes, /cost, metrics) and its .xmf");
  cmd->add_option("--png", a.png, "draw the parts with a title and a legend (hier: node boundaries drawn thick; 3D: slices)");
  cmd->add_option("--png-size", a.png_size, "pixels on the picture's longer side")->check(CLI::Range(16, 8192))
      ->capture_default_str();
  hpart_cli::add_run_options(*cmd, a.run);
}

int run(int argc, char** argv, const hpart::Comm& comm) {
  CLI::App app{"hpart " HPART_VERSION_STRING ": dynamic partitioning for MPI+OpenMP codes.\n"
               "Partitions point sets across the ranks of an mpirun job with Hilbert or Morton curves and\n"
               "exact weighted splitters, and structured grids into curve ranges, boxes or node-then-rank\n"
               "hierarchies; reads and writes text and parallel HDF5 files."};
  app.footer(kFooter);
  // The library's version (the one the program runs with) and the optional dependencies it was
  // built with, e.g. "hpart 0.1.0 (+METIS +HDF5 +PNG +hwloc -Kokkos)"; rank 0 prints, exit 0.
  app.set_version_flag("--version", std::string("hpart ") + hpart::version() + " (" + hpart::features_string() + ")",
                       "print the version and the optional dependencies this build has, then exit");
  app.require_subcommand(1);
  hpart_cli::PartitionArgs partition;
  hpart_cli::GenerateArgs generate;
  hpart_cli::GridArgs grid;
  hpart_cli::EvaluateArgs evaluate;
  hpart_cli::RepartitionArgs repartition;
  hpart_cli::ConvertArgs convert;
  hpart_cli::GraphGenerateArgs graph_generate;
  add_partition(app, partition);
  hpart_cli::add_evaluate(app, evaluate);
  hpart_cli::add_repartition(app, repartition);
  add_generate(app, generate);
  hpart_cli::add_graph_generate_options(*app.get_subcommand("generate"), graph_generate);
  hpart_cli::add_convert(app, convert);
  add_grid(app, grid);
  std::vector<std::string> args = hpart_cli::conventional_argv(argc, argv);
  std::vector<char*> cargs;
  for (std::string& a : args) cargs.push_back(a.data());
  try {
    // CLI11 would call an unknown subcommand "an argument that was not expected"; name it as what it is.
    const auto known = [&](const std::string& name) {
      for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
        if (sub->get_name() == name) return true;
      return false;
    };
    if (cargs.size() > 1 && cargs[1][0] != '-' && !known(cargs[1]))
      throw CLI::ValidationError("unknown subcommand '" + std::string(cargs[1]) + "' (available: " + kSubcommands +
                                 "; hpart --help explains each)");
    if (cargs.size() == 1)
      throw CLI::ValidationError(std::string("a subcommand is required: ") + kSubcommands + " (hpart --help explains each)");
    app.parse(static_cast<int>(cargs.size()), cargs.data());
  } catch (const CLI::ParseError& e) {
    if (comm.rank() != 0) return e.get_exit_code() == 0 ? hpart_cli::exit_ok : hpart_cli::exit_usage;
    const int code = app.exit(e);
    return code == 0 ? hpart_cli::exit_ok : hpart_cli::exit_usage;
  }
  if (app.got_subcommand("partition")) return hpart_cli::run_partition(comm, partition);
  if (app.got_subcommand("evaluate")) return hpart_cli::run_evaluate(comm, evaluate);
  if (app.got_subcommand("repartition")) return hpart_cli::run_repartition(comm, repartition);
  if (app.got_subcommand("grid")) return hpart_cli::run_grid(comm, grid);
  if (app.got_subcommand("convert")) return hpart_cli::run_convert(comm, convert);
  if (!graph_generate.graph.empty())
    return hpart_cli::run_generate_graph(comm, graph_generate, generate.out, generate.seed, generate.quiet);
  return hpart_cli::run_generate(comm, generate);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    const hpart::Comm comm(MPI_COMM_WORLD);
    try {
      status = run(argc, argv, comm);
    } catch (const hpart_cli::UsageError& e) {
      if (comm.rank() == 0) std::fprintf(stderr, "hpart: error: %s\n", e.what());
      status = hpart_cli::exit_usage;
    } catch (const hpart::Error& e) {
      if (comm.rank() == 0) std::fprintf(stderr, "hpart: error: %s\n", e.what());
      // unsupported (a dependency this build lacks) is bad input for this build: 2, with the rest.
      status = e.code() == hpart::ErrorCode::internal ? hpart_cli::exit_internal : hpart_cli::exit_input;
    }
  }
  MPI_Finalize();
  return status;
}
