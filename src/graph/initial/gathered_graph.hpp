#pragma once
// A distributed graph gathered whole onto one rank (or all): what the METIS backend partitions
// and what the distributed driver does with its coarsest graph. O(global vertices + edges) on
// the receiving rank, so only for graphs that fit it.
#include <vector>

#include "graph/csr_graph.hpp"
#include "hpart/comm.hpp"
#include "hpart/graph.hpp"

namespace hpart::graph {

// Collective. root >= 0: the graph arrives on root only (others get an empty graph); root < 0:
// on every rank. Unit weights become explicit ones.
graphk::CsrGraph gather_graph(const Comm& comm, const Graph& g, int root);

// Collective: each rank's parts of its own vertices, from the parts of all vertices on root.
std::vector<part_t> scatter_parts(const Comm& comm, const Graph& g, const std::vector<part_t>& all, int root);

}  // namespace hpart::graph
