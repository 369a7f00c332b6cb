// `hpart partition`: read a point file in parallel, partition it, report, write parts/picture.
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "balance_warning.hpp"
#include "commands.hpp"
#include "hpart/hdf5.hpp"
#include "hpart/hpart.hpp"

namespace hpart_cli {
namespace {

double now() { return MPI_Wtime(); }

const std::string& input_path(const PartitionArgs& args) { return args.h5.empty() ? args.points : args.h5; }

// Text (--points) or HDF5 (--h5): main's option group guarantees exactly one of them.
hpart::PointFile read_input(const hpart::Comm& comm, const PartitionArgs& args) {
  if (args.h5.empty()) return hpart::read_points_text(comm, args.points, args.dim);
  hpart::PointFile file = hpart::read_points_h5(comm, args.h5);
  // The dataset's shape fixes the dimension; a contradicting --dim is a mistake worth reporting.
  if (args.dim != 0 && args.dim != file.dim)
    throw hpart::Error(hpart::ErrorCode::invalid_argument, args.h5 + ": /points holds " + std::to_string(file.dim) +
                                                               "D points, but --dim " + std::to_string(args.dim) +
                                                               " was given");
  return file;
}

void print_summary(const hpart::Comm& comm, const PartitionArgs& args, const hpart::PointFile& file,
                   const hpart::Partition& p, long long migrated, double read_s) {
  if (comm.rank() != 0 || args.quiet) return;
  std::printf("hpart partition: %s: %lld points, %dD, %s, on %d ranks x %d threads (read %.3f s)\n",
              input_path(args).c_str(), static_cast<long long>(file.global_count), file.dim,
              file.weighted ? "weighted" : "unit weights", comm.size(), omp_get_max_threads(), read_s);
  std::printf("%-8s %6s %6s %12s %10s %6s %9s %12s\n", "method", "parts", "ranks", "objects", "imbalance", "empty",
              "time_s", "migrated");
  std::printf("%-8s %6d %6d %12lld %10.6f %6lld %9.4f %12lld\n", args.method.empty() ? "hilbert" : args.method.c_str(), p.num_parts, comm.size(),
              p.metrics.objects, p.metrics.imbalance[0], p.metrics.empty_parts, p.metrics.seconds, migrated);
  std::printf("imbalance = max part weight / target - 1; migrated = points whose part lives on another rank\n"
              "(parts go to ranks in contiguous blocks) and would move there with hpart::Migration\n");
}

}  // namespace

int run_partition(const hpart::Comm& comm, const PartitionArgs& args) {
  if (!args.graph.empty()) return run_graph_partition(comm, args);
  if (args.drift > 0)
    throw hpart::Error(hpart::ErrorCode::invalid_argument,
                       "--drift is for graphs (--graph); point sets are rebalanced by the points demo and hpart-particles");
  hpart::PointOptions opts;
  opts.parts = args.parts;
  const std::string method = args.method.empty() ? "hilbert" : args.method;
  if (method != "hilbert" && method != "morton")
    throw hpart::Error(hpart::ErrorCode::invalid_argument,
                       "--method " + method + " is for graphs; point sets take hilbert or morton");
  opts.curve = hpart::curve_from_string(method.c_str());
  opts.imbalance = args.imbalance < 0 ? 0.001 : args.imbalance;

  const double t0 = now();
  const hpart::PointFile file = read_input(comm, args);
  const double read_s = now() - t0;
  const hpart::Partition p = hpart::partition_points(comm, file.view(), opts);
  const hpart::Migration plan(comm, p);  // counts only: the CLI reports, it does not move
  print_summary(comm, args, file, p, plan.migrated().objects, read_s);
  double heaviest = file.weighted ? 0.0 : (file.size() > 0 ? 1.0 : 0.0), total = 0.0;
  for (const double w : file.weights) heaviest = std::max(heaviest, w), total += w;
  if (!file.weighted) total = static_cast<double>(file.size());
  warn_if_unbalanced(comm, p, heaviest, total, "hpart partition");

  if (!args.out.empty() && is_hdf5_path(args.out)) {
    // With the points (and their ids), so the file reads back and opens in ParaView via its .xmf.
    const hpart::PointSet view = file.view();
    hpart::write_partition_h5(comm, args.out, p, file.ids, &view);
    if (comm.rank() == 0 && !args.quiet)
      std::printf("wrote %s (/parts in file order, /points%s, /ids) and %s\n", args.out.c_str(),
                  file.weighted ? ", /weights" : "", hpart::xdmf_path(args.out).c_str());
  } else if (!args.out.empty()) {
    hpart::write_parts_text(comm, args.out, p.parts);
    if (comm.rank() == 0 && !args.quiet) std::printf("wrote %s (one part id per point, in file order)\n", args.out.c_str());
  }
  if (!args.png.empty()) {
    hpart::write_partition_png(comm, args.png, file.view(), p.parts, p.num_parts, args.png_size);
    if (comm.rank() == 0 && !args.quiet) std::printf("wrote %s\n", args.png.c_str());
  }
  return 0;
}

}  // namespace hpart_cli
