#pragma once
// Values of the non-local neighbours ("ghosts") of a distributed graph's local vertices: the
// plan is built once (which ghost ids each rank needs from each owner, one Alltoallv), then any
// per-vertex value (parts, cluster ids, weights) is fetched with one Alltoallv per call.
#include <mpi.h>

#include <algorithm>
#include <span>
#include <vector>

#include "core/exchange.hpp"
#include "core/huge_pages.hpp"
#include "hpart/comm.hpp"
#include "hpart/graph_arrays.hpp"

namespace hpart::graph {

// The ghosts of this rank's block [lo, hi) of g: their global ids (sorted, unique) and how many
// adjacency entries point to one.
struct GhostIds {
  std::vector<gid_t> ids;
  std::size_t entries = 0;
};
GhostIds ghost_ids_of(const Graph& g, gid_t lo, gid_t hi);
// out[e] = the local index of g.adjncy[e] (0..n-1), or n + its index in `ghosts` (ghost_ids_of).
void number_locally(const Graph& g, gid_t lo, gid_t hi, std::span<const gid_t> ghosts, std::span<std::int32_t> out);

class GhostExchange {
 public:
  // Collective. g must be valid (validate_graph).
  GhostExchange(const Comm& comm, const Graph& g);
  // Collective: the plan alone for given ghosts (sorted global ids, none on this rank) of a graph
  // distributed by vtxdist; local_adjncy() stays empty.
  GhostExchange(const Comm& comm, std::span<const gid_t> vtxdist, std::vector<gid_t> ghost_ids);

  // Local index (0..n-1) of a local vertex, or n + ghost index of a ghost: the numbering of
  // every adjacency entry, so that kernels index one array of local-then-ghost values.
  [[nodiscard]] const graphk::HugeVector<std::int32_t>& local_adjncy() const { return local_adjncy_; }
  [[nodiscard]] std::size_t ghosts() const { return ghost_ids_.size(); }
  [[nodiscard]] const std::vector<gid_t>& ghost_ids() const { return ghost_ids_; }  // sorted

  // Collective: out[k] = the owner's value of ghost k, from every rank's `local` values.
  template <class T>
  std::vector<T> fetch(std::span<const T> local) const {
    std::vector<T> send(serve_.size());
    for (std::size_t i = 0; i < serve_.size(); ++i) send[i] = local[static_cast<std::size_t>(serve_[i])];
    std::vector<T> out(ghost_ids_.size());
    detail::alltoallv(comm_, counts_, send.data(), out.data(), /*reverse=*/true);  // answers to the requests
    return out;
  }

 private:
  void plan(std::span<const gid_t> vtxdist);  // need/serve lists from ghost_ids_

  Comm comm_;
  graphk::HugeVector<std::int32_t> local_adjncy_;  // one per adjacency entry: huge pages
  std::vector<gid_t> ghost_ids_;           // sorted: owners' blocks in rank order
  detail::ExchangeCounts counts_;          // send: ghosts asked of each owner; recv: vertices served to each rank
  std::vector<std::int32_t> serve_;        // local vertices other ranks need, grouped by rank
};

}  // namespace hpart::graph
