#include "io/graph_lines.hpp"

#include <climits>

#include "io/text_tokens.hpp"

namespace hpart::detail {
namespace {

constexpr std::int64_t kMaxCount = std::int64_t{1} << 62;  // n and m: 2m and 1-based ids never overflow

std::string str(std::int64_t v) { return std::to_string(v); }

// One 0/1 digit string of up to three digits, right-aligned as METIS reads "%03d".
std::string parse_fmt(std::string_view token, GraphDialect dialect, GraphHeader& h) {
  bool ok = !token.empty() && token.size() <= 3;
  for (const char c : token) ok = ok && (c == '0' || c == '1');
  if (!ok)
    return "fmt " + quote_token(token) + " must be up to three 0/1 digits (" +
           (dialect == GraphDialect::chaco ? "vertex numbers" : "vertex sizes") + ", vertex weights, edge weights)";
  const std::string digits = std::string(3 - token.size(), '0') + std::string(token);
  h.leading_value = digits[0] == '1';
  h.vertex_weights = digits[1] == '1';
  h.edge_weights = digits[2] == '1';
  return {};
}

// The numbers of one vertex line, appended to `rows`; "" or why the line is malformed.
std::string parse_vertex(std::string_view line, const GraphHeader& h, gid_t v, GraphDialect dialect,
                         VertexRows& rows) {
  TokenCursor tokens(line);
  std::string_view tok;
  std::int64_t x = 0;
  std::string why;
  if (h.leading_value) {
    const char* what = dialect == GraphDialect::chaco ? "vertex number" : "vertex size";
    if (!tokens.next(tok)) return std::string("is empty, but fmt says each vertex line starts with its ") + what;
    if (!(why = parse_integer(tok, x)).empty()) return std::string(what) + ": " + why;
    if (dialect == GraphDialect::chaco && x != v + 1)
      return "starts with vertex number " + str(x) + ", but it is the line of vertex " + str(v + 1);
    if (x < 0) return "vertex size " + str(x) + " is negative";
    if (dialect == GraphDialect::metis) rows.vsize.push_back(x);
  }
  if (h.vertex_weights) {
    for (int c = 0; c < h.ncon; ++c) {
      if (!tokens.next(tok))
        return "has " + str(c) + " vertex weight" + (c == 1 ? "" : "s") + ", but the header says " + str(h.ncon) +
               " per vertex";
      if (!(why = parse_integer(tok, x)).empty()) return "vertex weight " + str(c + 1) + ": " + why;
      if (x < 0) return "vertex weight " + str(x) + " is negative: weights must be >= 0";
      rows.vwgt.push_back(x);
    }
  }
  for (std::int64_t k = 1; tokens.next(tok); ++k) {
    if (!(why = parse_integer(tok, x)).empty()) return "neighbour " + str(k) + ": " + why;
    if (x < 1 || x > h.vertices)
      return "neighbour " + str(x) + " is out of range [1, " + str(h.vertices) + "] (ids are 1-based)";
    if (x - 1 == v) return "vertex " + str(v + 1) + " lists itself (self-loops are not allowed)";
    rows.adjncy.push_back(x - 1);
    if (!h.edge_weights) continue;
    const std::int64_t id = x;
    if (!tokens.next(tok)) return "neighbour " + str(id) + " has no edge weight (fmt says each neighbour is followed by one)";
    if (!(why = parse_integer(tok, x)).empty()) return "edge weight of neighbour " + str(id) + ": " + why;
    if (x <= 0) return "edge weight " + str(x) + " (to neighbour " + str(id) + ") must be > 0";
    rows.adjwgt.push_back(x);
  }
  return {};
}

}  // namespace

LineCensus census_lines(std::string_view text) {
  LineCensus c;
  LineCursor cursor(text);
  std::string_view line;
  while (cursor.next(line))
    if (c.first_record < 0 && line_kind(line) == LineKind::record) c.first_record = cursor.index();
  c.lines = cursor.index() + 1;
  return c;
}

long long count_body_lines(std::string_view text, long long from, bool blank_lines_count) {
  long long n = 0;
  LineCursor cursor(text);
  std::string_view line;
  while (cursor.next(line)) {
    if (cursor.index() < from) continue;
    const LineKind kind = line_kind(line);
    n += kind == LineKind::record || (blank_lines_count && kind == LineKind::blank) ? 1 : 0;
  }
  return n;
}

std::string_view line_at(std::string_view text, long long index) {
  LineCursor cursor(text);
  std::string_view line;
  while (cursor.next(line))
    if (cursor.index() == index) return line;
  return {};
}

std::string parse_graph_header(std::string_view line, GraphDialect dialect, GraphHeader& h) {
  h = GraphHeader{};
  const char* shape = dialect == GraphDialect::chaco ? "a Chaco header is 'n m [fmt]'" : "a METIS header is 'n m [fmt [ncon]]'";
  TokenCursor tokens(line);
  std::string_view tok[4], extra;
  int count = 0;
  while (count < 4 && tokens.next(tok[count])) ++count;
  while (tokens.next(extra)) ++count;
  if (count < 2 || count > (dialect == GraphDialect::chaco ? 3 : 4))
    return "header has " + str(count) + (count == 1 ? " value; " : " values; ") + shape;
  std::string why;
  std::int64_t ncon = 1;
  if (!(why = parse_integer(tok[0], h.vertices)).empty()) return "vertex count n: " + why;
  if (!(why = parse_integer(tok[1], h.edges)).empty()) return "edge count m: " + why;
  if (h.vertices < 0 || h.vertices > kMaxCount) return "vertex count n = " + str(h.vertices) + " must be in [0, 2^62]";
  if (h.edges < 0 || h.edges > kMaxCount) return "edge count m = " + str(h.edges) + " must be in [0, 2^62]";
  if (count >= 3 && !(why = parse_fmt(tok[2], dialect, h)).empty()) return why;
  if (count == 4) {
    if (!(why = parse_integer(tok[3], ncon)).empty()) return "ncon: " + why;
    if (!h.vertex_weights) return "ncon " + std::string(tok[3]) + " given, but fmt " + std::string(tok[2]) + " has no vertex weights";
    if (ncon < 1 || ncon > INT_MAX) return "ncon = " + str(ncon) + " must be >= 1";
  }
  h.ncon = static_cast<int>(ncon);
  return {};
}

VertexRows parse_vertex_lines(std::string_view text, long long from, const GraphHeader& h, gid_t first_vertex,
                              GraphDialect dialect) {
  VertexRows rows;
  LineCursor cursor(text);
  std::string_view line;
  gid_t v = first_vertex;
  while (cursor.next(line)) {
    if (cursor.index() < from) continue;
    const LineKind kind = line_kind(line);
    if (kind == LineKind::comment) continue;
    if (v >= h.vertices) {
      if (kind == LineKind::blank) continue;
      rows.bad_line = cursor.index();
      rows.bad_reason = "more vertex lines than the header's n = " + str(h.vertices);
      break;
    }
    const std::size_t adj = rows.adjncy.size(), ew = rows.adjwgt.size(), vw = rows.vwgt.size();
    const std::size_t vs = rows.vsize.size();
    std::string why = parse_vertex(line, h, v, dialect, rows);
    if (!why.empty()) {
      rows.adjncy.resize(adj);
      rows.adjwgt.resize(ew);
      rows.vwgt.resize(vw);
      rows.vsize.resize(vs);
      rows.bad_line = cursor.index();
      rows.bad_reason = std::move(why);
      break;
    }
    rows.xadj.push_back(static_cast<std::int64_t>(rows.adjncy.size()));
    rows.line.push_back(cursor.index());
    ++v;
  }
  return rows;
}

}  // namespace hpart::detail
