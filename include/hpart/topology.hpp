#pragma once
// Where the ranks of a communicator run: which node each rank is on. Detected with
// MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), or given as "NxM" (N nodes of M ranks, ranks
// numbered node by node) through the spec or the HPART_TOPOLOGY environment variable, so tests
// and benchmarks can emulate several nodes on one machine.
#include <string>
#include <vector>

#include "hpart/comm.hpp"

namespace hpart {

struct Topology {
  int nodes = 1;
  std::vector<int> node_of_rank;  // one entry per rank of the communicator
  std::string source;             // "shared-memory" or the "NxM" spec used
  // Inside a node (hwloc, when hpart was built with it): the NUMA domain each rank's CPU binding
  // lies in, -1 where unknown (no hwloc, unbound, or spanning domains); and the most NUMA domains
  // any node has (0: unknown). Reported for the user's placement checks; the hierarchy's levels
  // are nodes, then ranks.
  std::vector<int> numa_of_rank;
  int numa_domains = 0;

  [[nodiscard]] int ranks_on(int node) const;
  [[nodiscard]] std::vector<int> ranks_of(int node) const;  // ascending
};

// Collective. spec "" means: HPART_TOPOLOGY if set, else detect. A spec that does not match the
// communicator's size (or is malformed) throws the same hpart::Error on every rank.
Topology detect_topology(const Comm& comm, const std::string& spec = "");

}  // namespace hpart
