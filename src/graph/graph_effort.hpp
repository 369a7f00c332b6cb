#pragma once
// GraphEffort's fields in one table: their ranges (graph.hpp) and their names in the agreement,
// for the two option structs that carry an effort (GraphOptions, HierGraphOptions).
#include <string>

#include "core/agreement.hpp"
#include "hpart/graph.hpp"

namespace hpart::graph {

enum class EffortOwner { graph_options, hier_graph_options };

// The first field out of its range, as a message naming owner::effort.field; empty when all hold.
std::string check_effort(const GraphEffort& e, EffortOwner owner);

// Adds every field to an agreement (each must be the same on every rank).
void replicate_effort(detail::Replicated& args, const GraphEffort& e, EffortOwner owner);

}  // namespace hpart::graph
