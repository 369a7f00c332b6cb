#pragma once
// The check every graph call that takes a part per vertex makes (graph_metrics,
// repartition_graph, migrate_graph): one part per local vertex, each in [0, K). Collective: the
// same hpart::Error on every rank, naming the lowest bad vertex's global id.
#include <span>
#include <string>

#include "core/agreement.hpp"
#include "hpart/comm.hpp"
#include "hpart/graph_arrays.hpp"
#include "hpart/types.hpp"

namespace hpart::graph {

// One agreement: the caller's replicated arguments (`args`: K among them, so that every rank
// checks against the same K) and its own verdict on them (`problem`, invalid_argument; the parts
// are checked only when it is empty), then the parts' length (size_mismatch) and range
// (invalid_input). `g` must be valid (validate_graph).
void check_vertex_parts(const Comm& comm, const Graph& g, std::span<const part_t> parts, int num_parts,
                        const std::string& who, const detail::Replicated& args = {}, const std::string& problem = {});

}  // namespace hpart::graph
