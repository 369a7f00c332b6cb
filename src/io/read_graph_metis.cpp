// METIS and Chaco graph files, read in parallel: every rank parses the vertex lines that start
// in its byte range (graph_lines, a pure kernel), the ranks agree on the first bad line, then
// the parsed rows move so that rank r owns the block [N r / R, N (r+1) / R), and the symmetry
// check names file lines (each row keeps the line it came from).
#include <algorithm>
#include <string>
#include <vector>

#include "io/graph_lines.hpp"
#include "graph/graph_symmetry.hpp"
#include "io/headed_text.hpp"
#include "io/reader_memory.hpp"
#include "core/exchange.hpp"
#include "core/vertex_blocks.hpp"
#include "hpart/graph.hpp"

namespace hpart {
namespace {

struct RowHead {
  long long line;  // file line of the vertex
  std::int64_t degree;
};

// Moves rows of vertices [first, first + rows.vertices()) to their block owners; `lines` gets the
// file line of each vertex the rank then owns.
GraphFile to_blocks(const Comm& comm, const detail::VertexRows& rows, gid_t first, const detail::GraphHeader& h,
                    detail::GraphDialect dialect, std::vector<long long>& lines) {
  const auto R = static_cast<std::size_t>(comm.size());
  GraphFile f;
  f.vtxdist = detail::block_vtxdist(h.vertices, comm.size());
  f.ncon = h.ncon;
  const auto ncon = static_cast<std::int64_t>(h.vertex_weights ? h.ncon : 0);
  std::vector<std::int64_t> vcount(R, 0), wcount(R, 0), ecount(R, 0);
  std::vector<RowHead> heads(rows.vertices());
  for (std::size_t i = 0; i < heads.size(); ++i) heads[i] = {rows.line[i], rows.xadj[i + 1] - rows.xadj[i]};
  const gid_t last = first + static_cast<gid_t>(rows.vertices());
  for (std::size_t q = 0; q < R; ++q) {
    const gid_t lo = std::max(first, f.vtxdist[q]), hi = std::min(last, f.vtxdist[q + 1]);
    if (lo >= hi) continue;
    vcount[q] = hi - lo;
    wcount[q] = (hi - lo) * ncon;
    ecount[q] = rows.xadj[static_cast<std::size_t>(hi - first)] - rows.xadj[static_cast<std::size_t>(lo - first)];
  }
  const std::vector<RowHead> mine = detail::alltoallv_records<RowHead>(comm, heads, vcount).records;
  f.adjncy = detail::alltoallv_records<gid_t>(comm, rows.adjncy, ecount).records;
  if (h.edge_weights) f.adjwgt = detail::alltoallv_records<std::int64_t>(comm, rows.adjwgt, ecount).records;
  if (h.vertex_weights) f.vwgt = detail::alltoallv_records<std::int64_t>(comm, rows.vwgt, wcount).records;
  // METIS vertex sizes (fmt 1xx: the cost of migrating the vertex, ParMETIS's vsize); Chaco's
  // leading number is the vertex's own, which the parser checked and did not keep.
  if (h.leading_value && dialect == detail::GraphDialect::metis)
    f.vsize = detail::alltoallv_records<std::int64_t>(comm, rows.vsize, vcount).records;
  f.xadj.assign(1, 0);
  lines.clear();
  for (const RowHead& r : mine) {
    f.xadj.push_back(f.xadj.back() + r.degree);
    lines.push_back(r.line);
  }
  return f;
}

GraphFile read_adjacency_file(const Comm& comm, const std::string& path, detail::GraphDialect dialect) {
  detail::HeadedText t = detail::read_headed_text(comm, path);
  detail::GraphHeader h;
  // The header reached every rank, so every rank finds the same problem: no agreement needed.
  if (const std::string why = detail::parse_graph_header(t.header, dialect, h); !why.empty())
    throw Error(ErrorCode::io, detail::at_line(path, t.header_line, why));

  const gid_t first = comm.exscan_sum(detail::count_body_lines(t.text, t.body_from, true));
  detail::VertexRows rows;
  const std::string out_of_memory = detail::parse_within_memory(
      path, t.text.size(), [&] { rows = detail::parse_vertex_lines(t.text, t.body_from, h, first, dialect); });
  std::string().swap(t.text);  // the rows hold all that is needed now
  // Ranks hold the lines in file order, so the lowest failing rank names the first bad line.
  const std::string bad = !out_of_memory.empty() ? out_of_memory
                          : rows.bad_line < 0    ? std::string()
                                                 : detail::at_line(path, t.first_line + rows.bad_line, rows.bad_reason);
  comm.agree(bad.empty() ? ErrorCode::ok : out_of_memory.empty() ? ErrorCode::io : ErrorCode::invalid_input, bad);
  // A header's n beyond the vertex lines is a truncated file, found before any memory is
  // sized by n: the rows hold only the lines that are there.
  const long long found = comm.sum(static_cast<long long>(rows.vertices()));
  if (found != h.vertices)
    throw Error(ErrorCode::io, path + ": truncated file: the header (line " + std::to_string(t.header_line) + ") says " +
                                   std::to_string(h.vertices) + " vertices, found " + std::to_string(found));
  for (long long& line : rows.line) line += t.first_line;
  // Each owned vertex: offset, file line, row head sent and received, vertex weights; each
  // neighbour received: its id and edge weight (as many as this rank parsed, on a balanced file).
  const double ncon_w = (h.vertex_weights ? h.ncon : 0) + (h.leading_value ? 1 : 0);
  const std::string memory = detail::check_vertex_block_memory(
      comm, path, h.vertices, 48.0 + 8.0 * ncon_w,
      static_cast<double>(rows.adjncy.size()) * (h.edge_weights ? 16.0 : 8.0));
  comm.agree(memory.empty() ? ErrorCode::ok : ErrorCode::invalid_input, memory);

  std::vector<long long> lines;
  GraphFile f = to_blocks(comm, rows, first, h, dialect, lines);
  rows = {};
  // Asymmetry before the edge count: it names the vertex to fix, where a wrong m cannot.
  const detail::GraphDefect defect = detail::find_graph_asymmetry(comm, f.view(), lines);
  comm.agree(defect.kind == detail::GraphDefect::Kind::none ? ErrorCode::ok : ErrorCode::io,
             detail::describe_defect(defect, 1, path));
  const long long entries = comm.sum(static_cast<long long>(f.adjncy.size()));
  // entries / 2 against m, with the odd case apart: 2 m would overflow for a header m near 2^63.
  if (entries % 2 != 0 || entries / 2 != h.edges)
    throw Error(ErrorCode::io, detail::at_line(path, t.header_line,
                                               "the header says m = " + std::to_string(h.edges) +
                                                   " edges, but the vertex lines list " + std::to_string(entries / 2) +
                                                   " (" + std::to_string(entries) +
                                                   " neighbours: each edge is listed at both ends)"));
  f.global_vertices = h.vertices;
  f.global_edges = h.edges;
  return f;
}

}  // namespace

GraphFile read_graph_metis(const Comm& comm, const std::string& path) {
  return read_adjacency_file(comm, path, detail::GraphDialect::metis);
}

GraphFile read_graph_chaco(const Comm& comm, const std::string& path) {
  return read_adjacency_file(comm, path, detail::GraphDialect::chaco);
}

}  // namespace hpart
