// `hpart partition FILE K`: resolve the input's kind and the options that apply to it (every
// other one is an error naming both), check the outputs before any work, then partition points
// here or a graph in graph_command.cpp.
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "balance_warning.hpp"
#include "commands.hpp"
#include "thread_default.hpp"
#include "hpart/hdf5.hpp"
#include "hpart/hpart.hpp"
#include "json_record.hpp"

namespace hpart_cli {
namespace {

// The file and its kind from FILE or the older --points/--h5/--graph; K from the second
// positional argument or -k.
void resolve_input_and_parts(PartitionArgs& a) {
  const int given = (a.points.empty() ? 0 : 1) + (a.h5.empty() ? 0 : 1) + (a.graph.empty() ? 0 : 1) +
                    (a.cmd->count("FILE") > 0 ? 1 : 0);
  if (given != 1)
    throw UsageError(given == 0 ? "no input file: hpart partition FILE K (hpart partition --help)"
                                : "give one input file (FILE or one of --points, --h5, --graph)");
  for (const auto& [path, kind] : {std::pair{&a.points, "points"}, std::pair{&a.h5, "h5"}, std::pair{&a.graph, "graph"}})
    if (!path->empty()) {
      if (!a.kind.empty() && a.kind != kind) throw UsageError("--" + std::string(kind) + " contradicts --kind " + a.kind);
      a.file = *path, a.kind = kind;
    }
  if (a.parts_arg > 0 && a.parts > 0 && a.parts_arg != a.parts)
    throw UsageError("K is given twice with different values: " + std::to_string(a.parts_arg) + " and -k " +
                     std::to_string(a.parts));
  if (a.parts == 0) a.parts = a.parts_arg;
  if (a.parts == 0) throw UsageError("the number of parts is missing: hpart partition " + a.file + " K (or -k K)");
}

// Options that only make sense for another kind of input are errors, not silently ignored.
void reject_inapplicable(const PartitionArgs& a, InputKind kind) {
  const CLI::App& cmd = *a.cmd;
  reject_for_kind(cmd, kind, a.file);  // --dim, --format: as evaluate and repartition
  if (kind == InputKind::graph) {
    if (a.method == "hilbert" || a.method == "morton")
      throw UsageError("--method " + a.method + " is for point sets; graphs take graph, metis or geometric+refine");
    if (a.method == "geometric+refine" && a.coords.empty())
      throw UsageError("--method geometric+refine needs vertex coordinates: pass --coords FILE (one point per vertex)");
    if (!a.png.empty() && a.coords.empty())
      throw UsageError("--png draws a graph at its vertex coordinates: pass --coords FILE (one point per vertex)");
    if (a.method == "metis" && a.cmd->count("--seed") > 0)
      throw UsageError("--seed applies to the graph and geometric+refine methods (METIS is run with its own default seed)");
    if (!a.preset.empty() && !a.method.empty() && a.method != "graph")
      throw UsageError("--preset sets the effort of the graph method; --method " + a.method + " has none");
    return;
  }
  const std::string what = kind == InputKind::h5 ? "HDF5 point file" : "point file";
  reject_option(cmd, "--coords", what, a.file, "graphs: a point file is its own coordinates");
  reject_option(cmd, "--drift", what, a.file, "graphs; point sets are rebalanced by hpart-particles and the library's Rebalancer");
  reject_option(cmd, "--seed", what, a.file, "graphs: point partitions are deterministic");
  reject_option(cmd, "--preset", what, a.file, "graphs: the effort of the graph method");
  if (!a.method.empty() && a.method != "hilbert" && a.method != "morton")
    throw UsageError("--method " + a.method + " is for graphs; point sets take hilbert or morton");
}

void print_summary(const hpart::Comm& comm, const PartitionArgs& args, const Input& in, const hpart::Partition& p,
                   long long migrated) {
  if (comm.rank() != 0 || args.run.quiet) return;
  std::printf("hpart partition: %s: %s, on %d ranks x %s; read %.3f s\n", in.path.c_str(), in.describe().c_str(),
              comm.size(), threads_phrase(args.run).c_str(), in.read_s);
  std::printf("balance: %s\n", describe_tolerance(args.tol).c_str());
  std::printf("%-8s %6s %6s %12s %10s %6s %9s %12s\n", "method", "parts", "ranks", "objects", "imbalance", "empty",
              "time_s", "migrated");
  std::printf("%-8s %6d %6d %12lld %10.6f %6lld %9.4f %12lld\n", args.method.c_str(), p.num_parts, comm.size(),
              p.metrics.objects, p.metrics.imbalance[0], p.metrics.empty_parts, p.metrics.seconds, migrated);
  std::printf("imbalance = max part weight / target - 1; migrated = points whose part lives on another rank\n"
              "(parts go to ranks in contiguous blocks) and would move there with hpart::Migration\n");
}

}  // namespace

int run_partition(const hpart::Comm& comm, PartitionArgs args) {
  resolve_input_and_parts(args);
  InputSpec spec{.path = args.file, .kind = args.kind, .format = args.format, .dim = args.dim, .coords = args.coords};
  const InputKind kind = detect_kind(comm, spec);
  reject_inapplicable(args, kind);
  const bool graph = kind == InputKind::graph;
  if (args.method.empty()) args.method = graph ? "graph" : "hilbert";
  args.tol = tolerance(args.balance, graph ? 0.03 : 0.001);
  const bool default_out = args.out.empty() && !args.no_out;
  if (default_out) args.out = default_part_path(args.file, args.parts);
  require_output_features(args.out, args.png);
  check_writable(comm, {{args.out, default_out ? "the part file (the default FILE.part.K; choose another with -o, or --no-out)"
                                               : "the part file"},
                        {args.png, "the picture"},
                        {args.run.json, "the --json records"}});
  args.run.threads_why = hpart_apps::choose_threads(comm, args.run.threads).why;
  Input in = read_input(comm, spec);
  return graph ? run_graph_partition(comm, args, in) : run_points_partition(comm, args, in);
}

int run_points_partition(const hpart::Comm& comm, const PartitionArgs& args, const Input& in) {
  hpart::PointOptions opts;
  opts.parts = args.parts;
  opts.curve = hpart::curve_from_string(args.method.c_str());
  opts.imbalance = args.tol;
  const hpart::PointFile& file = in.points;
  const hpart::Partition p = hpart::partition_points(comm, file.view(), opts);
  const hpart::Migration plan(comm, p);  // counts only: the CLI reports, it does not move
  print_summary(comm, args, in, p, plan.migrated().objects);
  const auto [heaviest, total] = in.heaviest_and_total();
  const bool balanced = warn_if_unbalanced(comm, p, heaviest, total, "hpart partition");
  append_record(comm, args.run, base_record(comm, in.path, args.method, in.global_count(), p));

  if (!args.out.empty() && is_hdf5_path(args.out)) {
    // With the points (and their ids), so the file reads back and opens in ParaView via its .xmf.
    const hpart::PointSet view = file.view();
    hpart::write_partition_h5(comm, args.out, p, file.ids, &view);
    if (comm.rank() == 0 && !args.run.quiet)
      std::printf("wrote %s (/parts in file order, /points%s, /ids) and %s\n", args.out.c_str(),
                  file.weighted ? ", /weights" : "", hpart::xdmf_path(args.out).c_str());
  } else if (!args.out.empty()) {
    hpart::write_parts_text(comm, args.out, p.parts);
    if (comm.rank() == 0 && !args.run.quiet)
      std::printf("wrote %s (one part id per point, in file order)\n", args.out.c_str());
  }
  if (!args.png.empty()) {
    hpart::PictureOptions picture;
    picture.max_side = args.png_size;
    picture.title = base_name(in.path) + ": " + in.describe() + ", " + std::to_string(p.num_parts) + " parts (" +
                    args.method + ")";
    picture.legend = {"imbalance " + number(p.metrics.imbalance[0]) + " (tolerance " + number(args.tol) + "), " +
                      std::to_string(p.metrics.empty_parts) + " empty parts" +
                      (file.dim == 3 ? "; 3D: four sections across the thinnest axis" : "")};
    hpart::write_partition_png(comm, args.png, file.view(), p.parts, p.num_parts, picture);
    if (comm.rank() == 0 && !args.run.quiet) std::printf("wrote %s\n", args.png.c_str());
  }
  return balanced || !args.run.strict ? exit_ok : exit_unbalanced;
}

}  // namespace hpart_cli
