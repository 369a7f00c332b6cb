#include "graph/initial/gathered_graph.hpp"

#include <mpi.h>

#include <limits>

namespace hpart::graph {
namespace {

// Out: the vector type to gather into (the kernel's huge-page arrays, or a plain vector).
template <class Out, class T>
Out gatherv(const Comm& comm, const std::vector<T>& mine, MPI_Datatype type, int root) {
  const int R = comm.size();
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(R)), displs(static_cast<std::size_t>(R), 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm.get());
  for (int r = 1; r < R; ++r) displs[static_cast<std::size_t>(r)] = displs[static_cast<std::size_t>(r) - 1] + counts[static_cast<std::size_t>(r) - 1];
  const auto total = static_cast<std::size_t>(displs.back() + counts.back());
  Out all(root < 0 || comm.rank() == root ? total : 0);
  if (root < 0)
    MPI_Allgatherv(mine.data(), count, type, all.data(), counts.data(), displs.data(), type, comm.get());
  else
    MPI_Gatherv(mine.data(), count, type, all.data(), counts.data(), displs.data(), type, root, comm.get());
  return all;
}

}  // namespace

graphk::CsrGraph gather_graph(const Comm& comm, const Graph& g, int root) {
  const std::size_t n = g.local_vertices();
  // Degrees, neighbours (32-bit: a gathered graph has < 2^31 vertices), weights.
  std::vector<std::int64_t> degree(n);
  for (std::size_t v = 0; v < n; ++v) degree[v] = g.xadj[v + 1] - g.xadj[v];
  std::vector<std::int32_t> adj(g.entries());
  for (std::size_t e = 0; e < adj.size(); ++e) adj[e] = static_cast<std::int32_t>(g.neighbour(e));
  std::vector<std::int64_t> vw = g.vwgt.empty() ? std::vector<std::int64_t>(n * static_cast<std::size_t>(g.ncon), 1)
                                                : g.vwgt.to_vector();
  std::vector<std::int64_t> ew = g.adjwgt.empty() ? std::vector<std::int64_t>(g.entries(), 1)
                                                  : g.adjwgt.to_vector();
  graphk::CsrGraph out;
  out.ncon = g.ncon;
  const std::vector<std::int64_t> degrees = gatherv<std::vector<std::int64_t>>(comm, degree, MPI_INT64_T, root);
  out.adjncy = gatherv<decltype(out.adjncy)>(comm, adj, MPI_INT32_T, root);
  out.vwgt = gatherv<decltype(out.vwgt)>(comm, vw, MPI_INT64_T, root);
  out.adjwgt = gatherv<decltype(out.adjwgt)>(comm, ew, MPI_INT64_T, root);
  if (root < 0 || comm.rank() == root) {
    out.xadj.assign(degrees.size() + 1, 0);
    for (std::size_t v = 0; v < degrees.size(); ++v) out.xadj[v + 1] = out.xadj[v] + degrees[v];
  }
  return out;
}

std::vector<part_t> scatter_parts(const Comm& comm, const Graph& g, const std::vector<part_t>& all, int root) {
  const int R = comm.size();
  std::vector<int> counts(static_cast<std::size_t>(R)), displs(static_cast<std::size_t>(R));
  for (int r = 0; r < R; ++r) {
    displs[static_cast<std::size_t>(r)] = static_cast<int>(g.vtxdist[static_cast<std::size_t>(r)]);
    counts[static_cast<std::size_t>(r)] =
        static_cast<int>(g.vtxdist[static_cast<std::size_t>(r) + 1] - g.vtxdist[static_cast<std::size_t>(r)]);
  }
  std::vector<part_t> mine(g.local_vertices());
  MPI_Scatterv(all.data(), counts.data(), displs.data(), MPI_INT32_T, mine.data(), static_cast<int>(mine.size()),
               MPI_INT32_T, root, comm.get());
  return mine;
}

}  // namespace hpart::graph
