// graph_metrics, the public entry: validates the graph, K and the parts, then measures them
// with the metrics module's cut count.
#include <string>

#include "core/validate.hpp"
#include "hpart/graph.hpp"
#include "metrics/check_vertex_parts.hpp"
#include "metrics/graph_cut.hpp"

namespace hpart {

GraphMetrics graph_metrics(const Comm& comm, const Graph& g, std::span<const part_t> parts, int num_parts) {
  // The cut sums edge weights: validation bounds their total below 2^62, so it cannot wrap.
  validate_graph(comm, g);
  detail::Replicated args;
  args.value("graph_metrics: num_parts", static_cast<long long>(num_parts));
  const std::string problem = detail::check_parts(num_parts);
  graph::check_vertex_parts(comm, g, parts, num_parts, "graph_metrics", args, problem);
  return graph::graph_metrics_of_valid(comm, g, parts);
}

}  // namespace hpart
