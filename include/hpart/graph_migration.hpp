#pragma once
// Moving a distributed graph to the ranks that own its vertices' parts, e.g. after
// Rebalancer::rebalance(graph) or partition_graph: every rank receives the vertices of its
// parts with their adjacency, weights and coordinates, renumbered so that the ranks again hold
// contiguous blocks of global ids (a new vtxdist). Vertices arrive as a Migration of the same
// parts moves any per-vertex array (grouped by source rank, each group in the sender's local
// order), so the caller's own data can follow with that Migration.
#include <span>
#include <vector>

#include "hpart/comm.hpp"
#include "hpart/graph.hpp"
#include "hpart/migration.hpp"
#include "hpart/types.hpp"

namespace hpart {

struct MigratedGraph {
  GraphFile graph;             // this rank's new block (global_vertices and global_edges set)
  std::vector<gid_t> old_ids;  // old global id of each new local vertex
  std::vector<part_t> parts;   // part of each new local vertex
  MigrationStats migrated;     // vertices that changed rank (all ranks) and their first weight
  std::size_t bytes_sent = 0;  // this rank's payload to other ranks
};

// Collective. Validates the graph (validate_graph), the owner map (the same on every rank) and
// `parts` (one per local vertex, in [0, owners.num_parts)), throwing the same hpart::Error on
// every rank. Memory O(local vertices
// + edges) per rank: the new numbering travels with the vertices and, for the ghosts, through
// one ghost exchange, never as a global array.
MigratedGraph migrate_graph(const Comm& comm, const Graph& g, std::span<const part_t> parts, PartOwners owners);
// Any part -> rank map (owners.size() = number of parts), e.g. a hierarchy's owner_of_part.
MigratedGraph migrate_graph(const Comm& comm, const Graph& g, std::span<const part_t> parts,
                            std::span<const int> owner_of_part);

}  // namespace hpart
