#include "graph/coarsening/block_level.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/log.hpp"
#include "graph/coarsening/ml_coarsen.hpp"
#include "graph/multilevel.hpp"
#include "hpart/error.hpp"

namespace hpart::graph {
namespace {

// Appends the ghosts' rows to a graph whose first n rows (the locals) are complete: each ghost
// lists the locals that list it, with the same weights, so that the block graph is symmetric.
void append_ghost_rows(graphk::CsrGraph& c, std::int32_t n, std::int32_t ghosts) {
  const auto m = static_cast<std::size_t>(c.xadj[static_cast<std::size_t>(n)]);
  const bool weighted = !c.adjwgt.empty(), narrow = !c.adjwgt32.empty();
  std::vector<std::int64_t> start(static_cast<std::size_t>(ghosts) + 1, 0);
  for (std::size_t e = 0; e < m; ++e)
    if (c.adjncy[e] >= n) ++start[static_cast<std::size_t>(c.adjncy[e] - n) + 1];
  for (std::size_t i = 0; i < static_cast<std::size_t>(ghosts); ++i) start[i + 1] += start[i];
  const auto extra = static_cast<std::size_t>(start.back());
  c.adjncy.resize(m + extra);
  if (weighted) c.adjwgt.resize(m + extra);
  if (narrow) c.adjwgt32.resize(m + extra);
  std::vector<std::int64_t> fill(start.begin(), start.end() - 1);
  for (std::int32_t v = 0; v < n; ++v)
    for (auto e = c.xadj[static_cast<std::size_t>(v)]; e < c.xadj[static_cast<std::size_t>(v) + 1]; ++e) {
      const std::int32_t u = c.adjncy[static_cast<std::size_t>(e)];
      if (u < n) continue;
      const auto at = m + static_cast<std::size_t>(fill[static_cast<std::size_t>(u - n)]++);
      c.adjncy[at] = v;
      if (weighted) c.adjwgt[at] = c.adjwgt[static_cast<std::size_t>(e)];
      if (narrow) c.adjwgt32[at] = c.adjwgt32[static_cast<std::size_t>(e)];
    }
  c.xadj.resize(static_cast<std::size_t>(n) + 1);
  for (std::size_t i = 0; i < static_cast<std::size_t>(ghosts); ++i)
    c.xadj.push_back(static_cast<std::int64_t>(m) + start[i + 1]);
}

std::vector<gid_t> gathered_vtxdist(const Comm& comm, std::int64_t mine) {
  std::vector<long long> counts(static_cast<std::size_t>(comm.size()));
  const long long m = mine;
  MPI_Allgather(&m, 1, MPI_LONG_LONG, counts.data(), 1, MPI_LONG_LONG, comm.get());
  std::vector<gid_t> vtxdist(counts.size() + 1, 0);
  for (std::size_t r = 0; r < counts.size(); ++r) vtxdist[r + 1] = vtxdist[r] + counts[r];
  return vtxdist;
}

}  // namespace

GraphFile BlockLevel::global_arrays(int rank) const {
  GraphFile a;
  a.vtxdist = vtxdist;
  a.ncon = graph.ncon;
  a.global_vertices = vtxdist.back();
  const auto nc = static_cast<std::size_t>(graph.ncon);
  const gid_t lo = vtxdist[static_cast<std::size_t>(rank)];
  a.xadj.assign(1, 0);
  // Parallel entries to one ghost (see coarsen_block) merge here: the gathered graph is simple.
  std::vector<std::int64_t> at(ghost_ids.size(), -1);
  for (std::int32_t v = 0; v < n; ++v) {
    const auto row = static_cast<std::int64_t>(a.adjncy.size());
    for (auto e = graph.xadj[static_cast<std::size_t>(v)]; e < graph.xadj[static_cast<std::size_t>(v) + 1]; ++e) {
      const std::int32_t u = graph.adjncy[static_cast<std::size_t>(e)];
      const std::int64_t w = graph.ewgt(static_cast<std::size_t>(e));
      if (u >= n) {
        std::int64_t& pos = at[static_cast<std::size_t>(u - n)];
        if (pos >= row) {
          a.adjwgt[static_cast<std::size_t>(pos)] += w;
          continue;
        }
        pos = static_cast<std::int64_t>(a.adjncy.size());
      }
      a.adjncy.push_back(u < n ? lo + u : ghost_ids[static_cast<std::size_t>(u - n)]);
      a.adjwgt.push_back(w);
    }
    a.xadj.push_back(static_cast<std::int64_t>(a.adjncy.size()));
  }
  a.vwgt.assign(graph.vwgt.begin(), graph.vwgt.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(n) * nc));
  return a;
}

BlockLevel finest_block(const Comm& comm, const Graph& g) {
  BlockLevel L;
  L.vtxdist.assign(g.vtxdist.begin(), g.vtxdist.end());
  const auto me = static_cast<std::size_t>(comm.rank());
  const gid_t lo = g.vtxdist[me], hi = g.vtxdist[me + 1];
  L.n = static_cast<std::int32_t>(g.local_vertices());
  GhostIds ghosts = ghost_ids_of(g, lo, hi);
  graphk::CsrGraph& c = L.graph;
  c.ncon = g.ncon;
  // Room for the ghost rows' offsets too: appending them would otherwise reallocate (a copy at
  // twice the size: 17 MB per rank on a 128^3 grid at np 2).
  c.xadj.reserve(g.xadj.size() + ghosts.ids.size() + 1);
  g.xadj.visit([&](auto s) { c.xadj.assign(s.begin(), s.end()); });
  if (c.xadj.empty()) c.xadj.assign(1, 0);  // a rank without vertices may pass no offsets at all
  // The block's adjacency numbered straight into the kernel's array, with room for the ghost
  // rows (one entry per local entry to a ghost) so that appending them copies nothing: the
  // plan is built without a numbering of its own (partition_graph's metrics read this one).
  const std::size_t m = g.entries();
  c.adjncy.reserve(m + ghosts.entries);
  c.adjncy.resize(m);
  number_locally(g, lo, hi, ghosts.ids, c.adjncy);
  if (!g.adjwgt.empty()) c.adjwgt.reserve(m + ghosts.entries);
  g.adjwgt.visit([&](auto s) { c.adjwgt.assign(s.begin(), s.end()); });  // none: unit weights (the kernel's reading)
  L.ghost_ids = ghosts.ids;
  L.plan = std::make_shared<const GhostExchange>(comm, L.vtxdist, std::move(ghosts.ids));
  const auto nc = static_cast<std::size_t>(g.ncon);
  const std::size_t locals = static_cast<std::size_t>(L.n) * nc;
  c.vwgt.assign(locals + static_cast<std::size_t>(L.ghosts()) * nc, 0);
  for (std::size_t i = 0; i < locals; ++i) c.vwgt[i] = g.vwgt.empty() ? 1 : g.vwgt[i];
  append_ghost_rows(c, L.n, L.ghosts());
  return L;
}

bool coarsen_block(const Comm& comm, BlockLevel& fine, std::int64_t max_weight, std::uint64_t seed, BlockLevel& coarse,
                   bool narrow, int cluster_rounds) {
  const detail::Stopwatch clock;
  const std::int32_t n = fine.n, gh = fine.ghosts();
  const auto nc = static_cast<std::size_t>(fine.graph.ncon);
  // Ghosts too heavy for any cluster: the kernel leaves each a coarse vertex of its own,
  // numbered after all local clusters (coarse ids follow the lowest member).
  graphk::HugeVector<std::int64_t> weights(fine.graph.vwgt);
  for (std::size_t i = static_cast<std::size_t>(n) * nc; i < weights.size(); ++i) weights[i] = max_weight + 1;
  graphk::GraphView view = graphk::view_of(fine.graph);
  view.vwgt = weights;
  const std::vector<std::int64_t> cap(nc, max_weight);
  graphk::CoarseLevel C;  // a rank without vertices (and so without ghosts) has an empty level
  C.xadj.assign(1, 0);
  // The coarse ghost rows (appended below) have at most as many entries as the fine ones.
  const auto spare = static_cast<std::size_t>(fine.graph.xadj.back() - fine.graph.xadj[static_cast<std::size_t>(n)]);
  if (n + gh > 0) C = graphk::coarsen_once(view, cap, seed, spare, narrow, {}, cluster_rounds);
  const std::int32_t cn = C.n - gh;
  const double match_s = clock.seconds();
  std::string problem;
  for (std::int32_t i = 0; i < gh && problem.empty(); ++i)
    if (C.cmap[static_cast<std::size_t>(n + i)] != cn + i) problem = "coarsen_block: a ghost was matched";
  comm.agree(problem.empty() ? ErrorCode::ok : ErrorCode::internal, problem);
  long long sizes[2] = {n, cn};
  MPI_Allreduce(MPI_IN_PLACE, sizes, 2, MPI_LONG_LONG, MPI_SUM, comm.get());
  if (static_cast<double>(sizes[1]) > 0.9 * static_cast<double>(sizes[0])) return false;

  coarse.vtxdist = gathered_vtxdist(comm, cn);
  const gid_t clo = coarse.vtxdist[static_cast<std::size_t>(comm.rank())];
  fine.coarse_of.assign(C.cmap.begin(), C.cmap.begin() + n);
  std::vector<gid_t> global_coarse(static_cast<std::size_t>(n));
  for (std::size_t v = 0; v < global_coarse.size(); ++v) global_coarse[v] = clo + fine.coarse_of[v];
  const std::vector<gid_t> ghost_coarse = fine.plan->fetch(std::span<const gid_t>(global_coarse));
  coarse.ghost_ids = ghost_coarse;
  std::sort(coarse.ghost_ids.begin(), coarse.ghost_ids.end());
  coarse.ghost_ids.erase(std::unique(coarse.ghost_ids.begin(), coarse.ghost_ids.end()), coarse.ghost_ids.end());
  std::vector<std::int32_t> slot(static_cast<std::size_t>(gh));  // fine ghost -> coarse ghost vertex
  for (std::size_t i = 0; i < slot.size(); ++i)
    slot[i] = cn + static_cast<std::int32_t>(std::lower_bound(coarse.ghost_ids.begin(), coarse.ghost_ids.end(), ghost_coarse[i]) -
                                             coarse.ghost_ids.begin());

  // The kernel's rows of the local clusters, taken over as they are (no copy: the kernel left
  // room for the ghost rows appended below), ghost columns renamed. Fine ghosts that fall into
  // one coarse ghost leave parallel entries in a row: the kernel's refinement and contraction
  // sum them, and global_arrays merges them for the gathered graph.
  coarse.n = cn;
  graphk::CsrGraph& c = coarse.graph;
  c.ncon = fine.graph.ncon;
  const auto m = static_cast<std::size_t>(C.xadj[static_cast<std::size_t>(cn)]);
  c.xadj = std::move(C.xadj);
  c.xadj.resize(static_cast<std::size_t>(cn) + 1);
  c.adjncy = std::move(C.adjncy);
  c.adjncy.resize(m);
  if (narrow) {
    c.adjwgt32 = std::move(C.adjwgt32);
    c.adjwgt32.resize(m);
  } else {
    c.adjwgt = std::move(C.adjwgt);
    c.adjwgt.resize(m);
  }
  for (std::int32_t& u : c.adjncy)
    if (u >= cn) u = slot[static_cast<std::size_t>(u - cn)];
  c.vwgt = std::move(C.vwgt);
  c.vwgt.resize(static_cast<std::size_t>(cn) * nc);
  c.vwgt.resize(static_cast<std::size_t>(cn + coarse.ghosts()) * nc, 0);
  append_ghost_rows(c, cn, coarse.ghosts());
  coarse.plan = std::make_shared<const GhostExchange>(comm, coarse.vtxdist, coarse.ghost_ids);
  detail::log(comm, 2, "coarsen_block: " + std::to_string(n) + " -> " + std::to_string(cn) + " local vertices (" +
                           std::to_string(gh) + " ghosts), kernel " + std::to_string(match_s) + " s, total " +
                           std::to_string(clock.seconds()) + " s");
  return true;
}

}  // namespace hpart::graph
