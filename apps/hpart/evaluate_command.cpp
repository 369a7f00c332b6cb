// `hpart evaluate`: the metrics of an existing partition file, computed by the library calls that
// `hpart partition` and `hpart grid` report with (evaluate_partition, graph_metrics,
// grid_neighbours), printed in the same columns, so the numbers of a partition written by either
// come back identical.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "balance_warning.hpp"
#include "file_workflows.hpp"
#include "hpart/graph.hpp"
#include "hpart/hdf5.hpp"
#include "hpart/hpart.hpp"
#include "json_record.hpp"

namespace hpart_cli {
namespace {

// Part weights of the first constraint and part sizes: smallest, largest, mean.
void print_part_summary(const hpart::Partition& p) {
  const auto K = static_cast<std::size_t>(p.num_parts), ncon = static_cast<std::size_t>(p.ncon);
  double wmin = 0, wmax = 0, wsum = 0;
  long long smin = 0, smax = 0;
  for (std::size_t q = 0; q < K; ++q) {
    const double w = p.part_weights[q * ncon];
    const long long s = p.part_sizes[q];
    wmin = q == 0 ? w : std::min(wmin, w), wmax = q == 0 ? w : std::max(wmax, w), wsum += w;
    smin = q == 0 ? s : std::min(smin, s), smax = q == 0 ? s : std::max(smax, s);
  }
  std::printf("part weights: min %.6g, max %.6g, mean %.6g; part sizes: min %lld, max %lld\n", wmin, wmax,
              K > 0 ? wsum / static_cast<double>(K) : 0.0, smin, smax);
  if (p.ncon > 1) {
    std::printf("imbalance per constraint:");
    for (const double x : p.metrics.imbalance) std::printf(" %.6f", x);
    std::printf("\n");
  }
}

int evaluate_input(const hpart::Comm& comm, const EvaluateArgs& a) {
  if (a.files.size() != 2)
    throw UsageError("hpart evaluate FILE PARTFILE: " + std::string(a.files.size() < 2 ? "the part file is missing"
                                                                                        : "more than two files given") +
                     " (grids: hpart evaluate --grid GRID.h5 [PARTS.h5])");
  InputSpec spec = a.input;
  spec.path = a.files[0];
  const InputKind kind = detect_kind(comm, spec);
  reject_for_kind(*a.cmd, kind, spec.path);
  check_writable(comm, {{a.run.json, "the --json records"}});
  const Input in = read_input(comm, spec);
  const double t0 = MPI_Wtime();
  InputParts ip = read_input_parts(comm, in, a.files[1], a.parts);
  const std::vector<double> weights = in.weights();
  // The same measurement as the partitioners' results: evaluate_partition (and graph_metrics).
  const hpart::Partition p = hpart::evaluate_partition(comm, std::move(ip.parts), ip.num_parts, weights, in.ncon());
  hpart::GraphMetrics cut;
  if (in.is_graph()) cut = hpart::graph_metrics(comm, in.graph.view(), p.parts, p.num_parts);
  {
    // time_s: reading the part file and measuring it (there is no partition call to time).
    hpart_bench::Record r = base_record(comm, in.path, "evaluate", in.global_count(), p);
    r.time_s = comm.max(MPI_Wtime() - t0);
    if (in.is_graph()) r.edge_cut = static_cast<long long>(cut.edge_cut), r.comm_volume = static_cast<long long>(cut.comm_volume);
    append_record(comm, a.run, r);
  }
  if (comm.rank() != 0 || a.run.quiet) return exit_ok;
  std::printf("hpart evaluate: %s: %s; parts from %s\n", in.path.c_str(), in.describe().c_str(), a.files[1].c_str());
  if (in.is_graph()) {
    std::printf("%6s %10s %12s %10s %6s %10s\n", "parts", "edge_cut", "comm_volume", "imbalance", "empty", "boundary");
    std::printf("%6d %10lld %12lld %10.6f %6lld %10lld\n", p.num_parts, static_cast<long long>(cut.edge_cut),
                static_cast<long long>(cut.comm_volume), worst_imbalance(p), p.metrics.empty_parts,
                static_cast<long long>(cut.boundary_vertices));
    std::printf("edge_cut = weight of edges between parts; comm_volume = sum over vertices of the other parts among its\n"
                "neighbours; imbalance = max over constraints of max part weight / target - 1\n");
  } else {
    std::printf("%6s %12s %10s %6s\n", "parts", "objects", "imbalance", "empty");
    std::printf("%6d %12lld %10.6f %6lld\n", p.num_parts, p.metrics.objects, worst_imbalance(p), p.metrics.empty_parts);
    std::printf("imbalance = max part weight / target - 1\n");
  }
  print_part_summary(p);
  return exit_ok;
}

int evaluate_grid(const hpart::Comm& comm, const EvaluateArgs& a) {
  if (a.files.size() > 1)
    throw UsageError("hpart evaluate --grid GRID.h5 [PARTS.h5]: one part file at most (PARTS.h5 defaults to GRID.h5)");
  for (const char* option : {"--kind", "--format", "--dim"})
    reject_option(*a.cmd, option, "grid", a.grid, "point and graph files");
  const std::string parts_path = a.files.empty() ? a.grid : a.files[0];
  check_writable(comm, {{a.run.json, "the --json records"}});
  std::string cost;
  const hpart::GridField field = read_grid_field(comm, a.grid, a.dataset, a.cmd->count("--dataset") > 0, cost);
  const double t0 = MPI_Wtime();
  // A hierarchical partition (hpart grid --method hier) brings its node_of_part: the internode halo.
  const hpart::HierGridPartition p = hpart::read_hier_grid_partition_h5(comm, parts_path, field.grid, a.parts);
  const bool hier = !p.node_of_part.empty();
  if (comm.rank() == 0 && !a.run.quiet) {
    const std::string nodes = hier ? ", hierarchical: " + std::to_string(p.node_boxes.size()) + " nodes" : "";
    std::printf("hpart evaluate: %s: %s cells, %s; parts from %s (%s%s)\n", a.grid.c_str(), extent_text(field.grid).c_str(),
                cost.c_str(), parts_path.c_str(), p.box_shaped ? "box-shaped parts" : "parts are not boxes", nodes.c_str());
  }
  // Halo traffic as `hpart grid` reports it: from the boxes of box-shaped parts, else from the cells.
  const hpart::GridNeighbours n = hpart::grid_neighbours(comm, field.grid, p, a.halo);
  const hpart::LevelVolumes levels = hier ? hpart::level_volumes(n, p.node_of_part) : hpart::LevelVolumes{};
  {
    hpart_bench::Record r = base_record(comm, parts_path, "evaluate", p.metrics.objects, p);
    r.time_s = comm.max(MPI_Wtime() - t0);
    r.comm_volume = static_cast<long long>(n.halo_volume);
    if (hier) r.internode_volume = static_cast<long long>(levels.internode);
    append_record(comm, a.run, r);
  }
  if (comm.rank() != 0 || a.run.quiet) return exit_ok;
  std::size_t most = 0;
  for (const auto& of : n.of_part) most = std::max(most, of.size());
  std::printf("%6s %14s %10s %6s %12s %10s%s\n", "parts", "cells", "imbalance", "empty", "halo_cells", "max_nbrs",
              hier ? "    internode" : "");
  std::printf("%6d %14lld %10.6f %6lld %12lld %10zu", p.num_parts, p.metrics.objects, worst_imbalance(p), p.metrics.empty_parts,
              static_cast<long long>(n.halo_volume), most);
  if (hier) std::printf(" %12lld", static_cast<long long>(levels.internode));
  std::printf("\nimbalance = max part cost / mean - 1; halo_cells = cells all parts receive for a width-%d halo;\n"
              "max_nbrs = most neighbour parts of one part%s\n", a.halo,
              hier ? "; internode = the halo between parts on different nodes" : "");
  print_part_summary(p);
  return exit_ok;
}

}  // namespace

CLI::App* add_evaluate(CLI::App& app, EvaluateArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "evaluate", "the metrics of an existing partition file (points, graphs, or grids with --grid), as partition reports them");
  a.cmd = cmd;
  cmd->add_option("FILES", a.files,
                  "FILE PARTFILE: the input (points or a graph, as for partition) and its part file: one part id per "
                  "line in file order (METIS .part), or an HDF5 file's /parts (HDF5 points, graphs); with --grid: "
                  "[PARTS.h5], a grid partition written by `hpart grid --out` (default: GRID.h5 itself)")
      ->expected(0, 2);
  cmd->add_option("-k,--parts", a.parts, "number of parts K (default: the largest part id + 1); a larger id is an error")
      ->check(CLI::Range(1, 1 << 30));
  add_input_options(*cmd, a.input.kind, a.input.format, a.input.dim);
  cmd->add_option("--grid", a.grid, "a grid: the HDF5 file with its cost field (an `hpart grid --out` file holds /cost)");
  cmd->add_option("--dataset", a.dataset, "the cost dataset of --grid")->capture_default_str();
  cmd->add_option("--halo", a.halo, "grids: halo width of the neighbour counts")->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  cmd->add_option("--json", a.run.json, "append one record (BENCH.md fields; method evaluate) to FILE");
  cmd->add_flag("-q,--quiet", a.run.quiet, "print nothing on success");
  return cmd;
}

int run_evaluate(const hpart::Comm& comm, const EvaluateArgs& a) {
  if (!a.grid.empty()) return evaluate_grid(comm, a);
  for (const char* option : {"--dataset", "--halo"})
    reject_option(*a.cmd, option, "the input", a.files.empty() ? std::string() : a.files[0], "grids (--grid)");
  return evaluate_input(comm, a);
}

}  // namespace hpart_cli
