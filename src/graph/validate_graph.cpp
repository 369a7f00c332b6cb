// validate_graph: structure first (cheap, local, agreed), then symmetry (one exchange of the
// edges that cross ranks). Each stage is agreed before the next, so that no rank ever enters an
// exchange with arrays that another rank's checks would have rejected.
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/agreement.hpp"
#include "core/memory_budget.hpp"
#include "graph/graph_symmetry.hpp"
#include "graph/graph_totals.hpp"
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
  // Validation keeps ncon sums per thread, the partitioners K x ncon tables (checked there).
  return detail::check_memory(8.0 * (static_cast<double>(g.ncon) + 2.0) * (omp_get_max_threads() + 1),
                              "ncon = " + str(g.ncon) + " weights per vertex",
                              "ncon is the number of weights of each vertex (vwgt holds n x ncon values)");
}

// What every rank must pass alike: ncon and dim, and whether vertex and edge weights are given
// (ranks without vertices, or without edges, cannot tell and do not vote). Coordinates need no
// entry of their own: with dim agreed, the lengths check makes every rank with vertices give them
// or none.
detail::Replicated replicated_shape(const Graph& g) {
  detail::Replicated args;
  args.value("Graph::ncon", static_cast<long long>(g.ncon))
      .value("Graph::dim", static_cast<long long>(g.dim))
      .given("Graph::vwgt", !g.vwgt.empty(), g.local_vertices() == 0)
      .given("Graph::adjwgt", !g.adjwgt.empty(), g.entries() == 0);
  return args;
}

// The weight totals must stay below 2^62 (see graph.hpp): identical on every rank (they come
// from one allreduce), so they are thrown without a further agreement.
void check_totals(const std::vector<std::uint64_t>& totals, int ncon) {
  const auto nc = static_cast<std::size_t>(ncon);
  for (std::size_t c = 0; c < nc; ++c)
    if (totals[c] >= detail::kTotalLimit)
      throw Error(ErrorCode::invalid_input,
                  "validate_graph: vertex weight " + str(static_cast<long long>(c)) +
                      " sums to 2^62 or more over the graph; each constraint's total must be below 2^62 "
                      "(4611686018427387904), as part weights are summed in 64-bit integers: scale the weights down");
  if (totals[nc] >= detail::kTotalLimit)
    throw Error(ErrorCode::invalid_input,
                "validate_graph: the edge weights sum to 2^62 or more over the adjacency entries (each edge counted "
                "at both ends); the total must be below 2^62 (4611686018427387904), as cuts are summed in 64-bit "
                "integers: scale the edge weights down");
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
  if (!g.adjncy.empty() && !g.adjncy32.empty())
    return "adjncy and adjncy32 both hold values: give the neighbour ids in one width (the other empty)";
  if (!g.adjncy32.empty() && g.vtxdist.back() > INT32_MAX)
    return "adjncy32 holds 32-bit ids, but the graph has " + str(g.vtxdist.back()) +
           " vertices (2^31 or more): give 64-bit ids in adjncy";
  const char* ids = g.adjncy32.empty() ? "adjncy" : "adjncy32";
  if (g.xadj.empty()) return g.entries() == 0 ? std::string() : std::string(ids) + " has values but there are no vertices";
  if (g.xadj[0] != 0) return "xadj[0] = " + str(g.xadj[0]) + "; it must be 0";
  for (std::size_t v = 0; v < n; ++v)
    if (g.xadj[v + 1] < g.xadj[v])
      return "xadj decreases at local vertex " + str(static_cast<long long>(v)) + " (global " +
             str(g.vtxdist[r] + static_cast<gid_t>(v)) + ")";
  if (static_cast<std::size_t>(g.xadj[n]) != g.entries())
    return std::string(ids) + " has " + str(static_cast<long long>(g.entries())) + " values, but xadj[n] = " + str(g.xadj[n]);
  if (!g.vwgt.empty() && g.vwgt.size() != n * static_cast<std::size_t>(g.ncon))
    return "vwgt has " + str(static_cast<long long>(g.vwgt.size())) + " values; " + str(static_cast<long long>(n)) +
           " vertices x ncon " + str(g.ncon) + " need " + str(static_cast<long long>(n * static_cast<std::size_t>(g.ncon)));
  if (!g.adjwgt.empty() && g.adjwgt.size() != g.entries())
    return "adjwgt has " + str(static_cast<long long>(g.adjwgt.size())) + " values, but " + ids + " has " +
           str(static_cast<long long>(g.entries())) + ": give one weight per adjacency entry, or none";
  // Vertices and their ghosts are numbered in 32 bits (the ghosts: at most one per entry, and
  // at most the vertices of other ranks).
  const auto others = static_cast<std::size_t>(g.vtxdist.back()) - n;
  if (n + std::min(g.entries(), others) > static_cast<std::size_t>(INT32_MAX))
    return "this rank holds " + str(static_cast<long long>(n)) + " vertices with up to " +
           str(static_cast<long long>(std::min(g.entries(), others))) +
           " neighbours on other ranks; hpart numbers a rank's vertices and their neighbours in 32 bits (below "
           "2^31 together): spread the graph over more ranks";
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
    const gid_t u = g.neighbour(e);
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

namespace graph {

GraphTotals validate(const Comm& comm, const Graph& g) {
  const std::string parameters = check_parameters(comm, g);
  detail::agree(comm, replicated_shape(g), parameters.empty() ? ErrorCode::ok : ErrorCode::invalid_argument,
                parameters.empty() ? parameters : "validate_graph: " + parameters);
  // Computed from one allreduce, so identical on every rank: thrown without a further agreement.
  if (const std::string m = check_same_vtxdist(comm, g); !m.empty())
    throw Error(ErrorCode::invalid_argument, "validate_graph: " + m);
  const std::size_t n = g.local_vertices();
  agree(comm, ErrorCode::size_mismatch, check_lengths(comm, g, n));
  // One pass over the edges screens the values, takes the symmetry fingerprint and the weight
  // totals; the values are agreed before the symmetry check and the totals use them.
  const gid_t base = g.vtxdist[static_cast<std::size_t>(comm.rank())];
  const detail::EdgeFingerprint screen = detail::edge_fingerprint(g, base);
  agree(comm, ErrorCode::invalid_input,
        screen.first_bad < 0 ? std::string() : check_vertex(g, base, static_cast<std::size_t>(screen.first_bad)));
  std::vector<std::uint64_t> totals(screen.totals.size());
  agree(comm, ErrorCode::invalid_input,
        detail::describe_defect(detail::find_graph_asymmetry(comm, g, {}, &screen, totals)));
  check_totals(totals, g.ncon);
  GraphTotals out;
  const auto nc = static_cast<std::size_t>(g.ncon);
  out.vertex_weight.assign(totals.begin(), totals.begin() + static_cast<std::ptrdiff_t>(nc));
  out.edge_weight = static_cast<std::int64_t>(totals[nc]);
  out.entries = static_cast<std::int64_t>(totals[nc + 1]);
  return out;
}

}  // namespace graph

void validate_graph(const Comm& comm, const Graph& g) { (void)graph::validate(comm, g); }

}  // namespace hpart
