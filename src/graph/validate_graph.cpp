// validate_graph: structure first (cheap, local, agreed), then symmetry (one exchange of the
// edges that cross ranks). Each stage is agreed before the next, so that no rank ever enters an
// exchange with arrays that another rank's checks would have rejected.
#include <mpi.h>

#include <cmath>
#include <string>
#include <vector>

#include "graph/graph_symmetry.hpp"
#include "hpart/graph.hpp"

namespace hpart {
namespace {

std::string str(long long v) { return std::to_string(v); }

// What every rank can check alone before the vtxdist copies are compared.
std::string check_parameters(const Comm& comm, const Graph& g) {
  const std::size_t R = static_cast<std::size_t>(comm.size());
  if (g.vtxdist.size() != R + 1)
    return "vtxdist has " + str(static_cast<long long>(g.vtxdist.size())) + " values; the communicator has " +
           str(static_cast<long long>(R)) + " ranks, so it needs " + str(static_cast<long long>(R + 1));
  if (g.vtxdist[0] != 0) return "vtxdist[0] = " + str(g.vtxdist[0]) + "; it must be 0";
  for (std::size_t r = 0; r < R; ++r)
    if (g.vtxdist[r + 1] < g.vtxdist[r])
      return "vtxdist decreases at entry " + str(static_cast<long long>(r + 1)) + " (" + str(g.vtxdist[r]) + " then " +
             str(g.vtxdist[r + 1]) + ")";
  if (g.ncon < 1) return "ncon (weights per vertex) must be >= 1 (got " + str(g.ncon) + ")";
  if (g.dim != 0 && g.dim != 2 && g.dim != 3) return "dim must be 0 (no coordinates), 2 or 3 (got " + str(g.dim) + ")";
  return {};
}

// Every rank must pass the same vtxdist: MIN and MAX of each entry agree (O(R), not O(N)).
std::string check_same_vtxdist(const Comm& comm, const Graph& g) {
  const std::size_t m = g.vtxdist.size();
  std::vector<gid_t> both(2 * m);
  for (std::size_t i = 0; i < m; ++i) both[i] = g.vtxdist[i], both[m + i] = -g.vtxdist[i];
  MPI_Allreduce(MPI_IN_PLACE, both.data(), static_cast<int>(2 * m), MPI_INT64_T, MPI_MIN, comm.get());
  for (std::size_t i = 0; i < m; ++i)
    if (both[i] != -both[m + i])
      return "vtxdist differs between ranks at entry " + str(static_cast<long long>(i)) + " (values from " + str(both[i]) +
             " to " + str(-both[m + i]) + "): pass the same vtxdist on every rank";
  return {};
}

// Array lengths and offsets: what must hold before any array is indexed.
std::string check_lengths(const Comm& comm, const Graph& g, std::size_t n) {
  const auto r = static_cast<std::size_t>(comm.rank());
  const auto owned = static_cast<std::size_t>(g.vtxdist[r + 1] - g.vtxdist[r]);
  if (n != owned)
    return "xadj has " + str(static_cast<long long>(g.xadj.size())) + " values, but vtxdist gives this rank " +
           str(static_cast<long long>(owned)) + " vertices, so it needs " + str(static_cast<long long>(owned + 1));
  if (g.xadj.empty()) return g.adjncy.empty() ? std::string() : "adjncy has values but there are no vertices";
  if (g.xadj[0] != 0) return "xadj[0] = " + str(g.xadj[0]) + "; it must be 0";
  for (std::size_t v = 0; v < n; ++v)
    if (g.xadj[v + 1] < g.xadj[v])
      return "xadj decreases at local vertex " + str(static_cast<long long>(v)) + " (global " +
             str(g.vtxdist[r] + static_cast<gid_t>(v)) + ")";
  if (static_cast<std::size_t>(g.xadj[n]) != g.adjncy.size())
    return "adjncy has " + str(static_cast<long long>(g.adjncy.size())) + " values, but xadj[n] = " + str(g.xadj[n]);
  if (!g.vwgt.empty() && g.vwgt.size() != n * static_cast<std::size_t>(g.ncon))
    return "vwgt has " + str(static_cast<long long>(g.vwgt.size())) + " values; " + str(static_cast<long long>(n)) +
           " vertices x ncon " + str(g.ncon) + " need " + str(static_cast<long long>(n * static_cast<std::size_t>(g.ncon)));
  if (!g.adjwgt.empty() && g.adjwgt.size() != g.adjncy.size())
    return "adjwgt has " + str(static_cast<long long>(g.adjwgt.size())) + " values, but adjncy has " +
           str(static_cast<long long>(g.adjncy.size())) + ": give one weight per adjacency entry, or none";
  if (g.dim == 0 && !g.coords.empty()) return "coords are given but dim = 0: set dim to 2 or 3";
  if (g.dim != 0 && g.coords.size() != n * static_cast<std::size_t>(g.dim))
    return "coords has " + str(static_cast<long long>(g.coords.size())) + " values; " + str(static_cast<long long>(n)) +
           " vertices x dim " + str(g.dim) + " need " + str(static_cast<long long>(n * static_cast<std::size_t>(g.dim)));
  return {};
}

// Values of one vertex: ids, self-loops, weight signs, finite coordinates (names global ids).
std::string check_vertex(const Graph& g, gid_t base, std::size_t v) {
  const gid_t gv = base + static_cast<gid_t>(v), N = g.vtxdist.back();
  for (auto e = static_cast<std::size_t>(g.xadj[v]); e < static_cast<std::size_t>(g.xadj[v + 1]); ++e) {
    const gid_t u = g.adjncy[e];
    if (u < 0 || u >= N) return "vertex " + str(gv) + " lists " + str(u) + ", outside [0, " + str(N) + ")";
    if (u == gv) return "vertex " + str(gv) + " lists itself (self-loops are not allowed)";
    if (!g.adjwgt.empty() && g.adjwgt[e] <= 0)
      return "edge weight " + str(g.adjwgt[e]) + " of vertex " + str(gv) + " to " + str(u) + ": edge weights must be > 0";
  }
  for (std::size_t c = 0; c < (g.vwgt.empty() ? 0 : static_cast<std::size_t>(g.ncon)); ++c) {
    const std::int64_t w = g.vwgt[v * static_cast<std::size_t>(g.ncon) + c];
    if (w < 0) return "weight " + str(static_cast<long long>(c)) + " of vertex " + str(gv) + " is " + str(w) + ": vertex weights must be >= 0";
  }
  for (std::size_t a = 0; a < static_cast<std::size_t>(g.dim); ++a)
    if (!std::isfinite(g.coords[v * static_cast<std::size_t>(g.dim) + a]))
      return "coordinate " + str(static_cast<long long>(a)) + " of vertex " + str(gv) + " is not finite";
  return {};
}

void agree(const Comm& comm, ErrorCode code, const std::string& message) {
  comm.agree(message.empty() ? ErrorCode::ok : code, message.empty() ? message : "validate_graph: " + message);
}

}  // namespace

void validate_graph(const Comm& comm, const Graph& g) {
  agree(comm, ErrorCode::invalid_argument, check_parameters(comm, g));
  // Computed from one allreduce, so identical on every rank: thrown without a further agreement.
  if (const std::string m = check_same_vtxdist(comm, g); !m.empty())
    throw Error(ErrorCode::invalid_argument, "validate_graph: " + m);
  const std::size_t n = g.local_vertices();
  agree(comm, ErrorCode::size_mismatch, check_lengths(comm, g, n));
  // One pass over the edges screens the values and takes the symmetry fingerprint; the values
  // are agreed before the symmetry check uses it.
  const gid_t base = g.vtxdist[static_cast<std::size_t>(comm.rank())];
  const detail::EdgeFingerprint screen = detail::edge_fingerprint(g, base);
  agree(comm, ErrorCode::invalid_input,
        screen.first_bad < 0 ? std::string() : check_vertex(g, base, static_cast<std::size_t>(screen.first_bad)));
  agree(comm, ErrorCode::invalid_input, detail::describe_defect(detail::find_graph_asymmetry(comm, g, {}, &screen)));
}

}  // namespace hpart
