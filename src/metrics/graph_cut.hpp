#pragma once
// Edge cut, communication volume and boundary vertices of a graph partition, for graphs and parts
// already validated: one ghost exchange of the parts, then one count over the local edges.
#include <cstdint>
#include <span>

#include "core/ghost_exchange.hpp"
#include "hpart/comm.hpp"
#include "hpart/graph_arrays.hpp"
#include "hpart/partition.hpp"

namespace hpart::graph {

// Collective: graph_metrics with the graph's ghost plan already built (graph_metrics.cpp).
GraphMetrics graph_metrics_with(const Comm& comm, const Graph& g, std::span<const part_t> parts,
                                const GhostExchange& ghosts);
// The same with the local numbering of g's adjacency given (see number_locally; only the
// first adjncy.size() entries are read), for a plan built without one.
GraphMetrics graph_metrics_with(const Comm& comm, const Graph& g, std::span<const part_t> parts,
                                const GhostExchange& ghosts, std::span<const std::int32_t> local_adjncy);

// Collective: graph_metrics of a graph and parts already validated (the partitioners' own
// results), without validating them again (a symmetry exchange over every edge).
GraphMetrics graph_metrics_of_valid(const Comm& comm, const Graph& g, std::span<const part_t> parts);

}  // namespace hpart::graph
