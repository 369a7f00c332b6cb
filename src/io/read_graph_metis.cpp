// METIS and Chaco graph files, read in parallel and in bounded chunks. A first pass over each
// rank's 1/R-th of the bytes finds the header and counts lines and words; then the ranks find the
// byte offsets where their blocks of vertices [N r / R, N (r+1) / R) start, so that each rank
// scans exactly its block's lines (vertex_scan, a pure kernel) into arrays reserved to their
// final size: no row moves and nothing is copied after parsing (at np 1 the first pass stops at
// the header). The ranks agree on the first bad line, then the symmetry screen runs; the file
// lines of the vertices (kept as marks, not one per vertex) are expanded only when the screen
// finds a defect to name.
#include <mpi.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/file_line.hpp"
#include "core/vertex_blocks.hpp"
#include "graph/edge_fingerprint.hpp"
#include "graph/graph_symmetry.hpp"
#include "hpart/graph.hpp"
#include "io/chunked_lines.hpp"
#include "io/graph_lines.hpp"
#include "io/headed_text.hpp"
#include "io/huge_pages.hpp"
#include "io/mpi_file.hpp"
#include "io/reader_memory.hpp"
#include "io/vertex_scan.hpp"

namespace hpart {
namespace {

using detail::LineMark;
using detail::ScannedRows;

// Runs f on the calling rank; an Error there becomes the same Error on every rank.
template <class F>
void agreed(const Comm& comm, F&& f) {
  std::string message;
  ErrorCode code = ErrorCode::ok;
  try {
    f();
  } catch (const Error& e) {
    message = e.what();
    code = e.code();
  }
  comm.agree(code, message);
}

// The lines a rank parses: file offsets [from, end), the first on file line `line`, being vertex
// `first`; bounds of its rows and adjacency entries, from which the arrays are reserved so that a
// valid file never regrows them. A bound from the bytes may exceed what is used: reserved pages
// that are never written are never resident, so it costs address space, not memory.
struct Part {
  long long from, end, line;
  gid_t first;
  std::size_t rows_bound, entries_bound;
};

template <class Id>
void scan_span(const detail::MpiFile& file, const Part& part, const detail::GraphHeader& h, detail::GraphDialect dialect,
               ScannedRows<Id>& rows) {
  rows.xadj.reserve(part.rows_bound + 1);
  rows.adjncy.reserve(part.entries_bound);
  if (h.edge_weights) rows.adjwgt.reserve(part.entries_bound);
  if (h.vertex_weights) rows.vwgt.reserve(part.rows_bound * static_cast<std::size_t>(h.ncon));
  if (h.leading_value && dialect == detail::GraphDialect::metis) rows.vsize.reserve(part.rows_bound);
  detail::advise_huge_pages(rows.xadj);
  detail::advise_huge_pages(rows.adjncy);
  detail::advise_huge_pages(rows.adjwgt);
  detail::advise_huge_pages(rows.vwgt);
  detail::VertexScanner<Id> scanner(h, dialect, part.first, part.line, rows);
  if (part.from < part.end)
    detail::for_each_line_chunk(file, part.from, part.end, [&](std::string_view text) { return scanner.scan(text); });
}

// Collective: the lines of this rank's block of vertices. The rank whose lines hold the first
// line of block q finds its offset and file line (a second pass over its span, up to its last
// such line); one allreduce shares the R + 1 boundaries.
Part block_part(const Comm& comm, const detail::MpiFile& file, const detail::LineSpan& span,
                const detail::HeaderPlace& place, const std::vector<gid_t>& vtxdist, const Part& mine, long long body_lines) {
  const int R = comm.size(), me = comm.rank();
  const gid_t first = mine.first, n = vtxdist.back();
  std::vector<detail::LineStop> stops;
  std::vector<int> which;
  for (int q = 1; q < R; ++q) {
    const gid_t b = vtxdist[static_cast<std::size_t>(q)];
    if (b > 0 && b < n && b >= first && b < first + body_lines) {
      stops.push_back({b - first});
      which.push_back(q);
    }
  }
  agreed(comm, [&] { detail::find_line_stops(file, mine.from, span.end, stops); });
  // Per boundary: offset and line (-1: another rank's).
  std::vector<long long> at(2 * (static_cast<std::size_t>(R) + 1), -1);
  for (std::size_t k = 0; k < stops.size(); ++k) {
    const auto q = static_cast<std::size_t>(which[k]);
    at[2 * q] = stops[k].offset;
    at[2 * q + 1] = mine.line + stops[k].line;
  }
  if (me == place.holder)  // the blocks that start at vertex 0 start with the body
    for (int q = 0; q <= R && vtxdist[static_cast<std::size_t>(q)] == 0; ++q)
      at[2 * static_cast<std::size_t>(q)] = mine.from, at[2 * static_cast<std::size_t>(q) + 1] = mine.line;
  // Blocks after the last vertex start at the file's end: the last nonempty block (or the last
  // block, without vertices) reads the lines after vertex n, which must be blank.
  for (int q = 1; q <= R; ++q)
    if (vtxdist[static_cast<std::size_t>(q)] == n && (n > 0 || q == R))
      at[2 * static_cast<std::size_t>(q)] = span.file_size, at[2 * static_cast<std::size_t>(q) + 1] = 0;
  comm.max(std::span<long long>(at));
  const auto r = static_cast<std::size_t>(me);
  Part p = mine;
  p.from = at[2 * r];
  p.end = at[2 * r + 2];
  p.line = at[2 * r + 1];
  p.first = vtxdist[r];
  return p;
}

GraphFile read_adjacency_file(const Comm& comm, const std::string& path, detail::GraphDialect dialect) {
  using Id = gid_t;
  const detail::MpiFile file(comm, path, detail::MpiFile::Mode::read);
  const int R = comm.size(), me = comm.rank();
  detail::LineSpan span;
  detail::SpanCensus census;
  // One pass over the span finds the header and counts the lines; at np 1 nothing needs the
  // counts, so it stops at the header.
  span = detail::rank_line_span(comm, file);
  agreed(comm, [&] { census = detail::census_span(file, span, R > 1); });
  const detail::HeaderPlace place = detail::agree_header(comm, path, census.lines, census.first_record, census.record);
  detail::GraphHeader h;
  // The header reached every rank, so every rank finds the same problem: no agreement needed.
  if (const std::string why = detail::parse_graph_header(place.header, dialect, h); !why.empty())
    throw Error(ErrorCode::io, detail::at_line(path, place.header_line, why));

  // This rank's lines: at np 1 all of the body; else the lines of its block of vertices when
  // the file has enough lines to hold every vertex (a truncated one keeps its byte spans: it is
  // an error either way). So no row moves after parsing.
  const long long body_lines = me < place.holder ? 0 : me == place.holder ? census.lines_after_record : census.non_comment_lines;
  const long long span_from = me < place.holder ? span.end : me == place.holder ? census.body_offset : span.begin;
  const std::vector<gid_t> vtxdist = detail::block_vtxdist(h.vertices, R);
  Part part{span_from, span.end, me == place.holder ? place.header_line + 1 : place.first_line,
            comm.exscan_sum(static_cast<gid_t>(body_lines)), 0, 0};
  const double lead = (h.leading_value ? 1 : 0) + (h.vertex_weights ? h.ncon : 0);
  if (R > 1 && comm.sum(static_cast<gid_t>(body_lines)) >= h.vertices)
    part = block_part(comm, file, span, place, vtxdist, part, body_lines);
  // Bounds: a vertex line takes >= 1 byte, an adjacency entry >= 2 ("1 "); the header's n and
  // m bound the whole file.
  const auto bytes = static_cast<double>(std::max(0LL, part.end - part.from));
  const double block_rows = R == 1 || part.first == vtxdist[static_cast<std::size_t>(me)]
                          ? static_cast<double>(vtxdist[static_cast<std::size_t>(me) + 1] - vtxdist[static_cast<std::size_t>(me)])
                          : static_cast<double>(h.vertices);
  part.rows_bound = static_cast<std::size_t>(std::min(block_rows, bytes + 1));
  part.entries_bound = static_cast<std::size_t>(std::min(static_cast<double>(h.edges) * 2.0, bytes / 2 + 1));

  ScannedRows<Id> rows;
  std::string out_of_memory;
  agreed(comm, [&] {
    out_of_memory = detail::parse_within_memory(path, static_cast<std::size_t>(std::max(0LL, part.end - part.from)), [&] {
      scan_span(file, part, h, dialect, rows);
    });
  });
  // Ranks hold the lines in file order, so the lowest failing rank names the first bad line.
  const std::string bad = !out_of_memory.empty() ? out_of_memory
                          : rows.bad_line < 0    ? std::string()
                                                 : detail::at_line(path, rows.bad_line, rows.bad_reason);
  comm.agree(bad.empty() ? ErrorCode::ok : out_of_memory.empty() ? ErrorCode::io : ErrorCode::invalid_input, bad);
  // A header's n beyond the vertex lines is a truncated file, found before any memory is
  // sized by n: the rows hold only the lines that are there.
  const long long found = comm.sum(static_cast<long long>(rows.vertices()));
  if (found != h.vertices)
    throw Error(ErrorCode::io, path + ": truncated file: the header (line " + std::to_string(place.header_line) + ") says " +
                                   std::to_string(h.vertices) + " vertices, found " + std::to_string(found));
  // The block's offsets, weights and sizes, and its line marks at worst (16 bytes a vertex when
  // comments separate every line), against the budget, named as the other readers do.
  const std::string memory = detail::check_vertex_block_memory(comm, path, h.vertices, 24.0 + 8.0 * lead, 0.0);
  comm.agree(memory.empty() ? ErrorCode::ok : ErrorCode::invalid_input, memory);

  GraphFile f;
  f.vtxdist = vtxdist;
  f.ncon = h.ncon;
  f.xadj = std::move(rows.xadj);
  f.adjncy = std::move(rows.adjncy);
  f.adjwgt = std::move(rows.adjwgt);
  f.vwgt = std::move(rows.vwgt);
  // METIS vertex sizes (fmt 1xx: the cost of migrating the vertex, ParMETIS's vsize); Chaco's
  // leading number is the vertex's own, which the scanner checked and did not keep.
  f.vsize = std::move(rows.vsize);

  // Asymmetry before the edge count: it names the vertex to fix, where a wrong m cannot. The
  // screen (hashes, one allreduce) passes a symmetric graph; only a failing one pays for the
  // exact check and for one file line per vertex.
  const detail::EdgeFingerprint fp = detail::edge_fingerprint(f.view(), f.vtxdist[static_cast<std::size_t>(me)]);
  std::uint64_t screen[3] = {fp.a, fp.b, fp.duplicate ? 1ULL : 0ULL};
  MPI_Allreduce(MPI_IN_PLACE, screen, 3, MPI_UINT64_T, MPI_SUM, comm.get());
  if (screen[0] != 0 || screen[1] != 0 || screen[2] != 0) {
    const std::vector<long long> lines = detail::lines_of_marks(rows.marks, f.xadj.size() - 1);
    const detail::GraphDefect defect = detail::find_graph_asymmetry(comm, f.view(), lines, &fp);
    comm.agree(defect.kind == detail::GraphDefect::Kind::none ? ErrorCode::ok : ErrorCode::io,
               detail::describe_defect(defect, 1, path));
  }
  const long long entries = comm.sum(static_cast<long long>(f.adjncy.size()));
  // entries / 2 against m, with the odd case apart: 2 m would overflow for a header m near 2^63.
  if (entries % 2 != 0 || entries / 2 != h.edges)
    throw Error(ErrorCode::io, detail::at_line(path, place.header_line,
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
