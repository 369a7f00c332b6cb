// Hierarchical partitioning of point sets: a curve split into the nodes' shares, then a curve
// split of each node's points into its parts. Each level is the distributed SFC partitioner on
// the full communicator (ranks with no points of a node take part with none).
#include <mpi.h>

#include <numeric>
#include <string>

#include "core/log.hpp"
#include "metrics/partition_metrics.hpp"
#include "core/validate.hpp"
#include "hierarchy/grid_levels.hpp"
#include "hpart/points.hpp"

namespace hpart {

HierPointOptions HierPointOptions::preset(Preset p, int parts) {
  const PointOptions level = PointOptions::preset(p, parts);
  HierPointOptions o;
  o.parts = parts;
  o.node_curve = o.rank_curve = level.curve;
  o.imbalance = level.imbalance;
  return o;
}

HierPartition partition_points_hierarchical(const Comm& comm, const PointSet& points, const Topology& topology,
                                            const HierPointOptions& opts) {
  const detail::Stopwatch clock;
  const int K = opts.parts == 0 ? comm.size() : opts.parts;
  const std::string problem = opts.parts < 0 ? "parts must be >= 0 (0: one per rank)" : hier::check_levels(comm, topology, K);
  detail::Replicated args;
  hier::replicate_levels(args, topology, K);
  args.value("node_curve", static_cast<long long>(opts.node_curve))
      .value("rank_curve", static_cast<long long>(opts.rank_curve))
      .value("imbalance", opts.imbalance);
  detail::replicate_point_shape(args, points);
  detail::agree(comm, args, problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);
  const std::vector<int> per_node = hier::parts_per_node(topology, K);

  // Node level (validates the points on every rank as partition() does).
  const std::vector<double> node_share(per_node.begin(), per_node.end());
  PointOptions node_opts;
  node_opts.parts = topology.nodes;
  node_opts.curve = opts.node_curve;
  node_opts.imbalance = opts.imbalance;
  node_opts.target_sizes = node_share;
  const Partition nodes = partition_points(comm, points, node_opts);

  // Global ids for the subsets: the caller's, or the rank-order numbering partition() uses, so
  // ties between equal keys break the same way at both levels.
  const std::size_t n = points.size();
  std::vector<gid_t> ids = points.ids.to_vector();
  // Ranks without points pass no ids either way: whether ids are given is the others' call.
  const int given = comm.max(ids.empty() ? 0 : 1);
  if (!given) {
    const long long before = comm.exscan_sum(static_cast<long long>(n));
    ids.resize(n);
    std::iota(ids.begin(), ids.end(), static_cast<gid_t>(before));
  }
  const auto d = static_cast<std::size_t>(points.dim), nc = static_cast<std::size_t>(points.ncon);
  std::vector<part_t> parts(n, 0);
  part_t first = 0;
  for (int i = 0; i < topology.nodes; ++i) {
    std::vector<std::size_t> mine;
    for (std::size_t k = 0; k < n; ++k)
      if (nodes.parts[k] == i) mine.push_back(k);
    std::vector<double> coords(mine.size() * d), weights(points.weights.empty() ? 0 : mine.size() * nc);
    std::vector<gid_t> sub_ids(mine.size());
    for (std::size_t j = 0; j < mine.size(); ++j) {
      for (std::size_t a = 0; a < d; ++a) coords[j * d + a] = points.coords[mine[j] * d + a];
      if (!weights.empty())
        for (std::size_t c = 0; c < nc; ++c) weights[j * nc + c] = points.weights[mine[j] * nc + c];
      sub_ids[j] = ids[mine[j]];
    }
    PointSet sub{coords, points.dim, weights, points.ncon, sub_ids};
    PointOptions rank_opts;
    rank_opts.parts = per_node[static_cast<std::size_t>(i)];
    rank_opts.curve = opts.rank_curve;
    rank_opts.imbalance = opts.imbalance;
    const Partition inner = partition_points(comm, sub, rank_opts);
    for (std::size_t j = 0; j < mine.size(); ++j) parts[mine[j]] = first + inner.parts[j];
    first += rank_opts.parts;
  }
  HierPartition out = hier::levels_result(comm, topology, per_node, std::move(parts), K, points.weights, points.ncon, clock);
  const double seconds = out.metrics.seconds;
  detail::log(comm, 1,
              "partition_points_hierarchical: " + std::to_string(topology.nodes) + " nodes, " + std::to_string(K) +
                  " parts, " + std::to_string(seconds) + " s");
  return out;
}

}  // namespace hpart
