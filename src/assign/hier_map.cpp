// map_of for hierarchical point partitions: the node level is a curve partition of all points
// (labels: nodes) in their global box; each node's parts are a curve partition of that node's
// points in the box of those points, as partition_points_hierarchical cut them.
#include <string>
#include <vector>

#include "assign/map_build.hpp"

namespace hpart {

PartitionMap map_of(const Comm& comm, const PointSet& points, const HierPointOptions& opts,
                    const HierPartition& partition) {
  detail::Replicated args;
  args.value("node_curve", static_cast<long long>(opts.node_curve)).value("rank_curve", static_cast<long long>(opts.rank_curve));
  std::string problem = detail::check_point_partition(comm, points, partition, partition.owner_of_part, args);
  const auto K = static_cast<std::size_t>(std::max(partition.num_parts, 0));
  int nodes = 0;
  if (problem.empty() && partition.node_of_part.size() != K)
    problem = "node_of_part has " + std::to_string(partition.node_of_part.size()) + " values for " + std::to_string(K) + " parts";
  for (std::size_t p = 0; problem.empty() && p < K; ++p) {
    if (partition.node_of_part[p] < 0) problem = "node_of_part[" + std::to_string(p) + "] is negative";
    nodes = std::max(nodes, partition.node_of_part[p] + 1);
  }
  args.values("node_of_part", std::span<const int>(partition.node_of_part));
  auto data = detail::agreed_map(comm, args, problem, MapKind::hierarchical_points, points.dim, partition.num_parts,
                                 partition.owner_of_part);
  const std::vector<gid_t> ids = detail::global_ids(comm, points);
  const std::size_t n = points.size(), d = static_cast<std::size_t>(points.dim);
  std::vector<int> node_labels(n);
  for (std::size_t i = 0; i < n; ++i)
    node_labels[i] = partition.node_of_part[static_cast<std::size_t>(partition.parts[i])];
  data->top = detail::curve_level(comm, points, ids, opts.node_curve, node_labels, nodes, "nodes");

  for (int node = 0; node < nodes; ++node) {
    // The node's parts, numbered locally (parts are numbered node by node, but need not be).
    std::vector<int> local_of(K, -1), global_of;
    for (std::size_t p = 0; p < K; ++p)
      if (partition.node_of_part[p] == node) local_of[p] = static_cast<int>(global_of.size()), global_of.push_back(static_cast<int>(p));
    std::vector<double> coords;
    std::vector<gid_t> sub_ids;
    std::vector<int> labels;
    for (std::size_t i = 0; i < n; ++i) {
      if (node_labels[i] != node) continue;
      coords.insert(coords.end(), points.coords.begin() + static_cast<std::ptrdiff_t>(i * d),
                    points.coords.begin() + static_cast<std::ptrdiff_t>((i + 1) * d));
      sub_ids.push_back(ids[i]);
      labels.push_back(local_of[static_cast<std::size_t>(partition.parts[i])]);
    }
    const PointSet sub{coords, points.dim, {}, 1, sub_ids};
    detail::CurveLevel level = detail::curve_level(comm, sub, sub_ids, opts.rank_curve, labels,
                                                   std::max<int>(1, static_cast<int>(global_of.size())), "parts");
    for (int& l : level.labels) l = global_of.empty() ? 0 : global_of[static_cast<std::size_t>(l)];
    data->nodes.push_back(std::move(level));
  }
  return PartitionMap(std::move(data));
}

}  // namespace hpart
