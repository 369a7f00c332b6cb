#include "core/ghost_exchange.hpp"

#include <string>
#include <utility>

namespace hpart::graph {

GhostIds ghost_ids_of(const Graph& g, gid_t lo, gid_t hi) {
  GhostIds out;
  for (std::size_t e = 0; e < g.entries(); ++e)
    if (const gid_t v = g.neighbour(e); v < lo || v >= hi) out.ids.push_back(v);
  out.entries = out.ids.size();
  std::sort(out.ids.begin(), out.ids.end());
  out.ids.erase(std::unique(out.ids.begin(), out.ids.end()), out.ids.end());
  return out;
}

void number_locally(const Graph& g, gid_t lo, gid_t hi, std::span<const gid_t> ghosts, std::span<std::int32_t> out) {
  const auto n = static_cast<std::int32_t>(hi - lo);
#pragma omp parallel for schedule(static, 16384)
  for (std::size_t e = 0; e < g.entries(); ++e) {
    const gid_t v = g.neighbour(e);
    out[e] = (v >= lo && v < hi)
                 ? static_cast<std::int32_t>(v - lo)
                 : n + static_cast<std::int32_t>(std::lower_bound(ghosts.begin(), ghosts.end(), v) - ghosts.begin());
  }
}

GhostExchange::GhostExchange(const Comm& comm, const Graph& g) : comm_(comm) {
  const int me = comm.rank();
  const gid_t lo = g.vtxdist[static_cast<std::size_t>(me)], hi = g.vtxdist[static_cast<std::size_t>(me) + 1];
  ghost_ids_ = ghost_ids_of(g, lo, hi).ids;
  local_adjncy_.resize(g.entries());
  number_locally(g, lo, hi, ghost_ids_, local_adjncy_);
  plan(g.vtxdist);
}

GhostExchange::GhostExchange(const Comm& comm, std::span<const gid_t> vtxdist, std::vector<gid_t> ghost_ids)
    : comm_(comm), ghost_ids_(std::move(ghost_ids)) {
  plan(vtxdist);
}

void GhostExchange::plan(std::span<const gid_t> vtxdist) {
  const int R = comm_.size(), me = comm_.rank();
  const gid_t lo = vtxdist[static_cast<std::size_t>(me)];
  // Ghosts per owner (sorted ids fall into the owners' blocks in rank order).
  std::vector<std::int64_t> need(static_cast<std::size_t>(R), 0);
  int owner = 0;
  for (gid_t v : ghost_ids_) {
    while (v >= vtxdist[static_cast<std::size_t>(owner) + 1]) ++owner;
    ++need[static_cast<std::size_t>(owner)];
  }
  // Served vertices are local indices and ghosts are numbered after them, both in int32
  // (local_adjncy): the int counts fit.
  counts_ = detail::exchange_counts(comm_, need);
  std::vector<gid_t> asked(static_cast<std::size_t>(counts_.received));
  detail::alltoallv(comm_, counts_, ghost_ids_.data(), asked.data());
  serve_.resize(asked.size());
  for (std::size_t i = 0; i < asked.size(); ++i) serve_[i] = static_cast<std::int32_t>(asked[i] - lo);
}

}  // namespace hpart::graph
