// `hpart repartition FILE --from OLD.part`: rebalance an existing partition with the library's
// incremental repartitioners (repartition_graph: diffusion, with the METIS vsize column as the
// migration cost; repartition_points: diffusion along the curve), report what moved and what
// the cut and balance were before and after, and write the new part file. Grids: repartition_grid
// moves the cut planes of a blocks partition read back from its .h5.
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "balance_warning.hpp"
#include "file_workflows.hpp"
#include "hpart/graph.hpp"
#include "hpart/hdf5.hpp"
#include "hpart/hpart.hpp"
#include "json_record.hpp"
#include "thread_default.hpp"

namespace hpart_cli {
namespace {

// What every repartition prints: before -> after, what moved, how.
template <class Result>
void print_result(const hpart::Comm& comm, const RepartitionArgs& a, const Input& in, double tol,
                  const hpart::Partition& before, const Result& r, bool vsize) {
  if (comm.rank() != 0 || a.run.quiet) return;
  std::printf("hpart repartition: %s: %s, on %d ranks x %s; read %.3f s; from %s\n", in.path.c_str(),
              in.describe().c_str(), comm.size(), threads_phrase(a.run).c_str(), in.read_s, a.from.c_str());
  std::printf("balance: %s\n", describe_tolerance(tol).c_str());
  if (in.is_graph())
    std::printf("migration cost: %s\n", vsize ? "the file's vertex sizes (METIS vsize column)"
                                              : in.graph.vwgt.empty() ? "1 per vertex" : "the first vertex weight");
  std::printf("%6s %10s %10s %12s %14s %6s %9s %s\n", "parts", "imb_before", "imb_after", "migrated", "migrated_weight",
              "steps", "time_s", "fresh");
  std::printf("%6d %10.6f %10.6f %12lld %14.6g %6d %9.4f %s\n", r.num_parts, worst_imbalance(before), worst_imbalance(r),
              r.migrated.objects, r.migrated.weight, r.steps, r.metrics.seconds, r.from_scratch ? "yes" : "no");
  std::printf("imbalance = max part weight / target - 1; migrated = %s whose part changed (weight: their first weight);\n"
              "fresh = the incremental path gave up and a fresh partition, relabelled to keep the most weight in place, "
              "was taken\n", in.is_graph() ? "vertices" : "points");
}

// The new partition (its Partition part: parts and metrics) of each kind.
hpart::Partition repartition_graph_file(const hpart::Comm& comm, const RepartitionArgs& a, const Input& in,
                                        const InputParts& old, double tol) {
  const hpart::Graph g = in.graph.view();
  // Before: the measurement `hpart evaluate` prints.
  const hpart::Partition before = hpart::evaluate_partition(comm, old.parts, old.num_parts, in.weights(), in.ncon());
  const hpart::GraphMetrics cut_before = hpart::graph_metrics(comm, g, old.parts, old.num_parts);
  hpart::GraphRepartOptions o;
  o.parts = old.num_parts;
  o.imbalance = tol;
  o.itr = a.itr;
  // Every rank with vertices has the column when the file has it (fmt 1xx), or none does.
  const bool vsize = comm.max(in.graph.vsize.empty() ? 0 : 1) == 1;
  o.migration_sizes = in.graph.vsize;
  const hpart::GraphRepartition r = hpart::repartition_graph(comm, g, old.parts, o);
  print_result(comm, a, in, tol, before, r, vsize);
  {
    hpart_bench::Record rec = base_record(comm, in.path, "repartition", in.global_count(), r);
    rec.migrated = r.migrated.weight;
    rec.edge_cut = static_cast<long long>(r.cut.edge_cut), rec.comm_volume = static_cast<long long>(r.cut.comm_volume);
    append_record(comm, a.run, rec);
  }
  if (comm.rank() == 0 && !a.run.quiet)
    std::printf("edge_cut: %lld -> %lld; comm_volume: %lld -> %lld; boundary: %lld -> %lld\n",
                static_cast<long long>(cut_before.edge_cut), static_cast<long long>(r.cut.edge_cut),
                static_cast<long long>(cut_before.comm_volume), static_cast<long long>(r.cut.comm_volume),
                static_cast<long long>(cut_before.boundary_vertices), static_cast<long long>(r.cut.boundary_vertices));
  return r;
}

hpart::Partition repartition_point_file(const hpart::Comm& comm, const RepartitionArgs& a, const Input& in,
                                        const InputParts& old, double tol) {
  const hpart::PointSet view = in.points.view();
  const hpart::Partition before = hpart::evaluate_partition(comm, old.parts, old.num_parts, in.weights(), 1);
  hpart::PointRepartOptions o;
  o.parts = old.num_parts;
  o.imbalance = tol;
  const hpart::PointRepartition r = hpart::repartition_points(comm, view, old.parts, o);
  print_result(comm, a, in, tol, before, r, false);
  hpart_bench::Record rec = base_record(comm, in.path, "repartition", in.global_count(), r);
  rec.migrated = r.migrated.weight;
  append_record(comm, a.run, rec);
  return r;
}

// Grids: the blocks partition in --from (an `hpart grid --out` file) rebalanced on the cost of
// --grid by moving its cut planes (repartition_grid), written as a grid partition .h5.
int repartition_grid_file(const hpart::Comm& comm, RepartitionArgs a) {
  if (!a.input.path.empty())
    throw UsageError("hpart repartition --grid GRID.h5 --from PARTS.h5 takes no FILE ('" + a.input.path + "')");
  for (const char* option : {"--kind", "--format", "--dim", "--itr"})
    reject_option(*a.cmd, option, "grid", a.grid, "point and graph files");
  if (!a.out.empty() && !is_hdf5_path(a.out)) throw UsageError("-o " + a.out + ": a grid partition is written as HDF5 (.h5)");
  require_output_features(a.out, "");
  check_writable(comm, {{a.out, "the grid partition"}, {a.run.json, "the --json records"}});
  a.run.threads_why = hpart_apps::choose_threads(comm, a.run.threads).why;
  const double t0 = MPI_Wtime();
  std::string cost;
  const hpart::GridField field = read_grid_field(comm, a.grid, a.dataset, a.cmd->count("--dataset") > 0, cost);
  const hpart::HierGridPartition old = hpart::read_hier_grid_partition_h5(comm, a.from, field.grid, a.parts);
  const double read_s = comm.max(MPI_Wtime() - t0);
  // The library's incremental grid path moves the planes of a cut tree (repartition_grid). Curve
  // ranges (sfc) and a hierarchy's node cut (a coarse graph partition or a staircase) with its
  // per-node curve ranges have no such path, and a fresh partition would move most cells: say so,
  // and what to run instead.
  const bool hier = !old.node_of_part.empty();
  if (hier || !old.box_shaped) {
    const std::string method = hier ? "hier" : "sfc";
    throw UsageError("repartition of " + std::string(hier ? "a hierarchical" : "an sfc") + " grid partition is not "
                     "supported: " + a.from + " holds " + std::to_string(old.num_parts) + " parts" +
                     (hier ? " on " + std::to_string(old.node_boxes.size()) + " nodes" : " that are curve ranges, not boxes") +
                     " (hpart grid --method " + method + "), and the incremental grid repartitioner moves the cut "
                     "planes of blocks, tensor and uniform partitions only; partition again with `hpart grid --h5 " +
                     a.grid + " --method " + method + " -k " + std::to_string(old.num_parts) + "`, or measure this one "
                     "with `hpart evaluate --grid " + a.grid + " " + a.from + "`");
  }
  hpart::GridRepartOptions o;
  o.parts = old.num_parts;
  o.imbalance = tolerance(a.balance, 0.02);
  const hpart::GridRepartition r = hpart::repartition_grid(comm, field.grid, old, o);
  std::string out = a.out;
  if (out.empty() && !a.no_out) {
    const std::string stem = is_hdf5_path(a.grid) ? a.grid.substr(0, a.grid.rfind('.')) : a.grid;
    out = stem + ".part." + std::to_string(r.num_parts) + ".h5";
    check_writable(comm, {{out, "the grid partition (the default GRID.part.K.h5; choose another with -o, or --no-out)"}});
  }
  if (comm.rank() == 0 && !a.run.quiet) {
    std::printf("hpart repartition: %s (%s), on %d ranks x %s; read %.3f s; from %s\n", a.grid.c_str(),
                cost.c_str(), comm.size(), threads_phrase(a.run).c_str(), read_s, a.from.c_str());
    std::printf("balance: %s\n", describe_tolerance(o.imbalance).c_str());
    std::printf("%6s %10s %10s %12s %14s %6s %9s %s\n", "parts", "imb_before", "imb_after", "migrated", "migrated_cost",
                "planes", "time_s", "fresh");
    std::printf("%6d %10.6f %10.6f %12lld %14.6g %6d %9.4f %s\n", r.num_parts, worst_imbalance(old), worst_imbalance(r), r.migrated.objects,
                r.migrated.weight, r.steps, r.metrics.seconds, r.from_scratch ? "yes" : "no");
    std::printf("imbalance = max part cost / mean - 1; migrated = cells whose part changed (cost: theirs); planes = cut "
                "planes moved;\nfresh = the cut tree no longer fitted and a fresh blocks partition was taken\n");
  }
  {
    hpart_bench::Record rec = base_record(comm, a.grid, "repartition", r.metrics.objects, r);
    rec.migrated = r.migrated.weight;
    append_record(comm, a.run, rec);
  }
  const auto [heaviest, total] = heaviest_and_total<double>(field.cost, r.parts.size());
  const bool balanced = warn_if_unbalanced(comm, r, heaviest, total, "hpart repartition");
  if (!out.empty()) {
    hpart::write_grid_partition_h5(comm, out, field.grid, r);
    if (comm.rank() == 0 && !a.run.quiet)
      std::printf("wrote %s (/parts, /boxes%s, /locator, metrics) and %s\n", out.c_str(), field.cost.empty() ? "" : ", /cost",
                  hpart::xdmf_path(out).c_str());
  }
  return balanced || !a.run.strict ? exit_ok : exit_unbalanced;
}

}  // namespace

CLI::App* add_repartition(CLI::App& app, RepartitionArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "repartition", "rebalance an existing partition file incrementally (moving little), and write the new one");
  a.cmd = cmd;
  cmd->add_option("FILE", a.input.path, "the input: points or a graph, as for partition");
  cmd->add_option("--from", a.from,
                  "the current partition: one part id per line in file order (METIS .part), or an HDF5 file's /parts "
                  "(HDF5 points, graphs)")
      ->required();
  cmd->add_option("-k,--parts", a.parts, "number of parts K (default: the largest part id of --from + 1)")
      ->check(CLI::Range(1, 1 << 30));
  hpart_cli::add_balance_options(*cmd, a.balance, "default 0.03 for graphs, 0.02 for points");
  cmd->add_option("--itr", a.itr,
                  "graphs: ParMETIS's itr, the cost of cutting an edge against migrating a vertex of size 1 (large: the "
                  "cut matters most)")
      ->check(CLI::PositiveNumber)->capture_default_str();
  add_input_options(*cmd, a.input.kind, a.input.format, a.input.dim);
  cmd->add_option("--grid", a.grid,
                  "a grid instead of FILE: the HDF5 file with its (new) cost field; --from is then a blocks, tensor or "
                  "uniform partition written by `hpart grid --out`, rebalanced by moving its cut planes (sfc and "
                  "hierarchical grid partitions: partition again with hpart grid)");
  cmd->add_option("--dataset", a.dataset, "the cost dataset of --grid")->capture_default_str();
  cmd->add_option("-o,--out", a.out, "the new part file (default FILE.part.K next to FILE, as gpmetis names it)");
  cmd->add_flag("--no-out", a.no_out, "write no part file")->excludes("--out");
  hpart_cli::add_run_options(*cmd, a.run);
  return cmd;
}

int run_repartition(const hpart::Comm& comm, RepartitionArgs a) {
  if (!a.grid.empty()) return repartition_grid_file(comm, a);
  reject_option(*a.cmd, "--dataset", "the input", a.input.path, "grids (--grid)");
  if (a.input.path.empty()) throw UsageError("no input file: hpart repartition FILE --from OLD.part");
  InputSpec spec = a.input;
  const InputKind kind = detect_kind(comm, spec);
  reject_for_kind(*a.cmd, kind, spec.path);
  const bool graph = kind == InputKind::graph;
  const double tol = tolerance(a.balance, graph ? 0.03 : 0.02);
  if (!graph && !(tol > 0.0)) throw UsageError("points are repartitioned to a tolerance > 0 (-e 0 was given)");
  a.run.threads_why = hpart_apps::choose_threads(comm, a.run.threads).why;
  // The output is checked before any work, but named only once K is known: FILE.part.K.
  check_writable(comm, {{a.out, "the part file"}, {a.run.json, "the --json records"}});
  const Input in = read_input(comm, spec);
  const InputParts old = read_input_parts(comm, in, a.from, a.parts);
  const std::string out = a.no_out ? std::string() : a.out.empty() ? default_part_path(in.path, old.num_parts) : a.out;
  if (a.out.empty()) check_writable(comm, {{out, "the part file (the default FILE.part.K; choose another with -o, or --no-out)"}});

  const hpart::Partition result =
      graph ? repartition_graph_file(comm, a, in, old, tol) : repartition_point_file(comm, a, in, old, tol);
  const auto [heaviest, total] = in.heaviest_and_total();
  const bool balanced = warn_if_unbalanced(comm, result, heaviest, total, "hpart repartition");
  if (!out.empty()) {
    hpart::write_parts_text(comm, out, result.parts);
    if (comm.rank() == 0 && !a.run.quiet)
      std::printf("wrote %s (one part id per %s, in file order)%s\n", out.c_str(), graph ? "vertex" : "point",
                  out == a.from ? ", replacing the previous partition" : "");
  }
  return balanced || !a.run.strict ? exit_ok : exit_unbalanced;
}

}  // namespace hpart_cli
