// `hpart partition --graph`: read a graph in parallel, partition it, report the cut, write the
// METIS .part file (one part per vertex, file order).
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "balance_warning.hpp"
#include "commands.hpp"
#include "hpart/graph.hpp"
#include "hpart/hpart.hpp"
#include "json_record.hpp"

namespace hpart_cli {

int run_graph_partition(const hpart::Comm& comm, const PartitionArgs& args, Input& in) {
  // The preset's effort (standard without -P); the options below are the command line's.
  hpart::GraphOptions opts =
      hpart::GraphOptions::preset(hpart::preset_from_string(args.preset.empty() ? "default" : args.preset.c_str()),
                                  args.parts);
  opts.method = hpart::graph_method_from_string(args.method.c_str());
  opts.imbalance = args.tol;
  if (args.seed >= 0) opts.seed = static_cast<int>(args.seed);
  // The method as the bench names it: graph-fast and graph-strong for those presets.
  const std::string label =
      args.method + (args.preset == "fast" || args.preset == "strong" ? "-" + args.preset : std::string());
  hpart::GraphFile& file = in.graph;
  file.narrow_ids();  // 32-bit ids where they fit: half the largest array, lent to the kernel as they are
  const hpart::GraphPartition p = hpart::partition_graph(comm, file.view(), opts);
  if (comm.rank() == 0 && !args.run.quiet) {
    std::printf("hpart partition: %s: %s, on %d ranks x %s; read %.3f s\n", in.path.c_str(),
                in.describe().c_str(), comm.size(), threads_phrase(args.run).c_str(), in.read_s);
    std::printf("balance: %s\n", describe_tolerance(args.tol).c_str());
    std::printf("%-16s %6s %6s %10s %12s %10s %6s %9s %10s\n", "method", "parts", "ranks", "edge_cut", "comm_volume",
                "imbalance", "empty", "time_s", "boundary");
    std::printf("%-16s %6d %6d %10lld %12lld %10.6f %6lld %9.4f %10lld\n", label.c_str(), p.num_parts,
                comm.size(), static_cast<long long>(p.cut.edge_cut), static_cast<long long>(p.cut.comm_volume),
                worst_imbalance(p), p.metrics.empty_parts, p.metrics.seconds,
                static_cast<long long>(p.cut.boundary_vertices));
    std::printf("edge_cut = weight of edges between parts; comm_volume = sum over vertices of the other parts among its\n"
                "neighbours; imbalance = max over constraints of max part weight / target - 1\n");
  }
  const auto [heaviest, total] = in.heaviest_and_total();
  const bool balanced = warn_if_unbalanced(comm, p, heaviest, total, "hpart partition");
  {
    hpart_bench::Record r = base_record(comm, in.path, label, in.global_count(), p);
    r.edge_cut = static_cast<long long>(p.cut.edge_cut);
    r.comm_volume = static_cast<long long>(p.cut.comm_volume);
    append_record(comm, args.run, r);
  }
  if (!args.out.empty() && is_hdf5_path(args.out)) {
    // The vertex ids (file order) and, with --coords, the coordinates: the .xmf shows the
    // vertices coloured by part.
    std::vector<hpart::gid_t> ids(in.local_count());
    for (std::size_t v = 0; v < ids.size(); ++v) ids[v] = static_cast<hpart::gid_t>(in.first_index()) + v;
    const hpart::PointSet at = in.coords();
    hpart::write_partition_h5(comm, args.out, p, ids, in.has_coords() ? &at : nullptr);
    if (comm.rank() == 0 && !args.run.quiet)
      std::printf("wrote %s (/parts in vertex order, /ids%s) and %s\n", args.out.c_str(),
                  in.has_coords() ? ", /points" : "", hpart::xdmf_path(args.out).c_str());
  } else if (!args.out.empty()) {
    hpart::write_parts_text(comm, args.out, p.parts);
    if (comm.rank() == 0 && !args.run.quiet)
      std::printf("wrote %s (one part id per vertex, in file order)\n", args.out.c_str());
  }
  if (!args.png.empty()) {
    // reject_inapplicable made sure --png comes with --coords.
    hpart::PictureOptions picture;
    picture.max_side = args.png_size;
    picture.title = base_name(in.path) + ": " + std::to_string(file.global_vertices) + " vertices, " +
                    std::to_string(p.num_parts) + " parts (" + label + ")";
    picture.legend = {"edge cut " + std::to_string(p.cut.edge_cut) + ", comm volume " + std::to_string(p.cut.comm_volume) +
                      ", imbalance " + number(worst_imbalance(p)) + " (tolerance " + number(args.tol) + ")",
                      "edges inside a part in its colour, cut edges dark grey"};
    hpart::write_graph_partition_png(comm, args.png, file.view(), in.coords(), p.parts, p.num_parts, picture);
    if (comm.rank() == 0 && !args.run.quiet) std::printf("wrote %s\n", args.png.c_str());
  }
  if (args.drift > 0) run_graph_drift(comm, args, file);
  return balanced || !args.run.strict ? exit_ok : exit_unbalanced;
}

}  // namespace hpart_cli
