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

namespace hpart_cli {
namespace {

hpart::GraphFile read_graph(const hpart::Comm& comm, const PartitionArgs& args) {
  std::string format = args.format;
  if (format.empty()) format = args.graph.size() > 4 && args.graph.substr(args.graph.size() - 4) == ".mtx" ? "mm" : "metis";
  if (format == "mm") return hpart::read_graph_matrix_market(comm, args.graph);
  if (format == "chaco") return hpart::read_graph_chaco(comm, args.graph);
  return hpart::read_graph_metis(comm, args.graph);
}

}  // namespace

int run_graph_partition(const hpart::Comm& comm, const PartitionArgs& args) {
  hpart::GraphOptions opts;
  opts.parts = args.parts;
  const std::string method = args.method.empty() ? "graph" : args.method;
  if (method == "hilbert" || method == "morton")
    throw hpart::Error(hpart::ErrorCode::invalid_argument,
                       "--method " + method + " is for point sets; graphs take graph, metis or geometric+refine");
  opts.method = hpart::graph_method_from_string(method.c_str());
  opts.imbalance = args.imbalance < 0 ? 0.03 : args.imbalance;
  const double t0 = MPI_Wtime();
  hpart::GraphFile file = read_graph(comm, args);
  const double read_s = MPI_Wtime() - t0;
  const hpart::GraphPartition p = hpart::partition_graph(comm, file.view(), opts);
  if (comm.rank() == 0 && !args.quiet) {
    std::printf("hpart partition: %s: %lld vertices, %lld edges, %d constraint%s, on %d ranks x %d threads (read %.3f s)\n",
                args.graph.c_str(), static_cast<long long>(file.global_vertices), static_cast<long long>(file.global_edges),
                file.ncon, file.ncon > 1 ? "s" : "", comm.size(), omp_get_max_threads(), read_s);
    std::printf("%-16s %6s %6s %10s %12s %10s %6s %9s %10s\n", "method", "parts", "ranks", "edge_cut", "comm_volume",
                "imbalance", "empty", "time_s", "boundary");
    double worst = 0.0;
    for (double x : p.metrics.imbalance) worst = std::max(worst, x);
    std::printf("%-16s %6d %6d %10lld %12lld %10.6f %6lld %9.4f %10lld\n", method.c_str(), p.num_parts,
                comm.size(), static_cast<long long>(p.cut.edge_cut), static_cast<long long>(p.cut.comm_volume),
                worst, p.metrics.empty_parts, p.metrics.seconds,
                static_cast<long long>(p.cut.boundary_vertices));
    std::printf("edge_cut = weight of edges between parts; comm_volume = sum over vertices of the other parts among its\n"
                "neighbours; imbalance = max over constraints of max part weight / target - 1\n");
  }
  {
    const std::size_t n = file.xadj.empty() ? 0 : file.xadj.size() - 1;
    double heaviest = file.vwgt.empty() && n > 0 ? 1.0 : 0.0, total = file.vwgt.empty() ? static_cast<double>(n) : 0.0;
    for (std::size_t i = 0; i < n && !file.vwgt.empty(); ++i) {
      const auto w = static_cast<double>(file.vwgt[i * static_cast<std::size_t>(file.ncon)]);
      heaviest = std::max(heaviest, w), total += w;
    }
    warn_if_unbalanced(comm, p, heaviest, total, "hpart partition");
  }
  if (!args.out.empty()) {
    hpart::write_parts_text(comm, args.out, p.parts);
    if (comm.rank() == 0 && !args.quiet) std::printf("wrote %s (one part id per vertex, in file order)\n", args.out.c_str());
  }
  if (args.drift > 0) run_graph_drift(comm, args, file);
  return 0;
}

}  // namespace hpart_cli
