#pragma once
// validate_graph for the callers inside hpart: the same checks, returning the graph's global
// totals, which validation sums in its one pass over the edges anyway (partition_graph needs
// them to size its work and check its limits, so it takes them from here instead of summing
// again).
#include <cstdint>
#include <vector>

#include "core/log.hpp"
#include "hpart/comm.hpp"
#include "hpart/graph.hpp"

namespace hpart::graph {

// Every total is below 2^62 (validation rejects larger ones): sums of them, and the cut and
// communication volume (at most the edge total), fit 64-bit integers.
struct GraphTotals {
  std::vector<std::int64_t> vertex_weight;  // per constraint, over all vertices (unit weights: 1 each)
  std::int64_t edge_weight = 0;             // over all adjacency entries: each edge counts twice
  std::int64_t entries = 0;                 // adjacency entries: twice the edges
};

// Collective: validate_graph(comm, g), and the totals (the same on every rank).
GraphTotals validate(const Comm& comm, const Graph& g);

// Collective: partition_graph on a graph already validated, with validate's totals, so that a
// caller that validates anyway (repartition_graph, whose fallback is a fresh partition) does not
// validate twice. `clock` started when the call did (its seconds so far are the validation's).
GraphPartition partition_validated(const Comm& comm, const Graph& g, const GraphOptions& opts, GraphTotals totals,
                                   const detail::Stopwatch& clock);

}  // namespace hpart::graph
