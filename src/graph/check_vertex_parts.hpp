#pragma once
// The check every graph call that takes a part per vertex makes (repartition_graph,
// migrate_graph): one part per local vertex, each in [0, K). Collective: the same hpart::Error
// on every rank, naming the lowest bad vertex's global id.
#include <span>
#include <string>

#include "hpart/comm.hpp"
#include "hpart/graph.hpp"
#include "hpart/types.hpp"

namespace hpart::graph {

void check_vertex_parts(const Comm& comm, const Graph& g, std::span<const part_t> parts, int num_parts,
                        const std::string& who);

}  // namespace hpart::graph
