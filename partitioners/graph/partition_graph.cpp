// partition_graph: validation, method dispatch, and the metrics every method reports alike.
#include <metis.h>
#include <mpi.h>

#include <climits>
#include <cstring>
#include <memory>
#include <string>

#include "core/log.hpp"
#include "core/partition_metrics.hpp"
#include "core/validate.hpp"
#include "graph/distributed_multilevel.hpp"
#include "graph/huge_pages.hpp"
#include "graph/gathered_graph.hpp"
#include "hpart/graph.hpp"

namespace hpart {
namespace {

// METIS_PartGraphKway on the graph gathered onto rank 0, parts scattered back.
std::vector<part_t> metis_backend(const Comm& comm, const Graph& g, const GraphOptions& opts) {
  const graphk::CsrGraph all = graph::gather_graph(comm, g, 0);
  std::vector<part_t> parts;
  std::string problem;
  if (comm.rank() == 0) {
    idx_t n = all.vertices(), ncon = all.ncon, nparts = opts.parts, objval = 0;
    std::vector<idx_t> xadj(all.xadj.begin(), all.xadj.end()), adjncy(all.adjncy.begin(), all.adjncy.end());
    std::vector<idx_t> vwgt(all.vwgt.begin(), all.vwgt.end()), adjwgt(all.adjwgt.begin(), all.adjwgt.end());
    std::vector<real_t> ubvec(static_cast<std::size_t>(ncon), static_cast<real_t>(1.0 + opts.imbalance));
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = opts.seed;
    std::vector<idx_t> part(static_cast<std::size_t>(n), 0);
    // Target fractions per part, repeated per constraint (METIS's tpwgts layout).
    std::vector<real_t> tpwgts;
    if (!opts.target_sizes.empty()) {
      const std::vector<double> t = detail::normalised_targets(opts.target_sizes, opts.parts);
      for (double x : t)
        for (idx_t c = 0; c < ncon; ++c) tpwgts.push_back(static_cast<real_t>(x));
    }
    if (nparts > 1 && n > 0) {
      const int rc = METIS_PartGraphKway(&n, &ncon, xadj.data(), adjncy.data(), vwgt.data(), nullptr, adjwgt.data(),
                                         &nparts, tpwgts.empty() ? nullptr : tpwgts.data(), ubvec.data(), options,
                                         &objval, part.data());
      if (rc != METIS_OK) problem = "METIS_PartGraphKway failed (code " + std::to_string(rc) + ")";
    }
    parts.assign(part.begin(), part.end());
  }
  comm.agree(problem.empty() ? ErrorCode::ok : ErrorCode::internal, problem);
  return graph::scatter_parts(comm, g, parts, 0);
}

std::string check_options(const Comm& comm, const Graph& g, const GraphOptions& opts) {
  if (std::string p = detail::check_parts(opts.parts); !p.empty()) return p;
  if (std::string p = detail::check_targets(opts.target_sizes, opts.parts); !p.empty()) return p;
  if (!(opts.imbalance >= 0.0 && opts.imbalance < 10.0))
    return "imbalance tolerance must be in [0, 10) (got " + std::to_string(opts.imbalance) + ")";
  if (opts.method == GraphMethod::geometric_refine && g.dim == 0)
    return "geometric+refine needs vertex coordinates (Graph::coords and dim)";
  const gid_t N = g.vtxdist.empty() ? 0 : g.vtxdist.back();
  long long edges = static_cast<long long>(g.adjncy.size());
  MPI_Allreduce(MPI_IN_PLACE, &edges, 1, MPI_LONG_LONG, MPI_SUM, comm.get());
  if (opts.method == GraphMethod::metis && (N > INT_MAX || edges > INT_MAX))
    return "the metis backend gathers the graph onto one rank and handles < 2^31 vertices and adjacency entries; use "
           "method graph";
  return {};
}

}  // namespace

const char* to_string(GraphMethod m) {
  switch (m) {
    case GraphMethod::graph: return "graph";
    case GraphMethod::metis: return "metis";
    case GraphMethod::geometric_refine: return "geometric+refine";
  }
  return "?";
}

GraphMethod graph_method_from_string(const char* name) {
  for (GraphMethod m : {GraphMethod::graph, GraphMethod::metis, GraphMethod::geometric_refine})
    if (std::strcmp(name, to_string(m)) == 0) return m;
  throw Error(ErrorCode::invalid_argument,
              std::string("unknown graph method '") + name + "' (available: graph, metis, geometric+refine)");
}

GraphPartition partition_graph(const Comm& comm, const Graph& g, const GraphOptions& opts) {
  const detail::Stopwatch clock;
  // Levels, ghost plans and refinement scratch reuse each other's freed arrays (huge_pages.hpp).
  const graphk::HugeArrayScope reuse;
  validate_graph(comm, g);
  const double validate_s = clock.seconds();
  const std::string problem = check_options(comm, g, opts);
  comm.agree(problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);
  std::vector<part_t> parts;
  graph::FinestNumbering finest;  // the graph method's ghost plan and numbering, for the metrics
  switch (opts.method) {
    case GraphMethod::metis: parts = metis_backend(comm, g, opts); break;
    case GraphMethod::graph:
      // The driver's finest level's ghost plan and numbering serve the metrics (a pass over
      // every edge, and the numbering's memory, saved).
      parts = graph::distributed_multilevel(comm, g, opts, &finest);
      break;
    case GraphMethod::geometric_refine: parts = graph::geometric_refine(comm, g, opts); break;
  }
  GraphPartition out;
  const std::vector<double> weights(g.vwgt.begin(), g.vwgt.end());
  out.partition = detail::summarise_partition(comm, std::move(parts), opts.parts, weights, g.ncon, opts.target_sizes);
  double seconds = clock.seconds();
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, comm.get());
  out.partition.metrics.seconds = seconds;
  out.metrics = finest.plan ? graph::graph_metrics_with(comm, g, out.partition.parts, *finest.plan, finest.adjncy)
                            : graph_metrics(comm, g, out.partition.parts, opts.parts);
  detail::log(comm, 1,
              std::string("partition_graph ") + to_string(opts.method) + ": " + std::to_string(opts.parts) + " parts, " +
                  std::to_string(seconds) + " s (validation " + std::to_string(validate_s) + " s), cut " +
                  std::to_string(out.metrics.edge_cut));
  return out;
}

}  // namespace hpart
