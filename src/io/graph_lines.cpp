#include "io/graph_lines.hpp"

#include <climits>

#include "io/file_limits.hpp"
#include "io/text_tokens.hpp"
#include "io/vertex_scan.hpp"

namespace hpart::detail {
namespace {

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
  if (h.vertices < 0 || h.vertices > kMaxFileCount) return "vertex count n = " + str(h.vertices) + " must be in [0, 2^62]";
  if (h.edges < 0 || h.edges > kMaxFileCount) return "edge count m = " + str(h.edges) + " must be in [0, 2^62]";
  if (count >= 3 && !(why = parse_fmt(tok[2], dialect, h)).empty()) return why;
  if (count == 4) {
    if (!(why = parse_integer(tok[3], ncon)).empty()) return "ncon: " + why;
    if (!h.vertex_weights) return "ncon " + std::string(tok[3]) + " given, but fmt " + std::string(tok[2]) + " has no vertex weights";
    if (ncon < 1 || ncon > INT_MAX) return "ncon = " + str(ncon) + " must be >= 1";
  }
  h.ncon = static_cast<int>(ncon);
  return {};
}

ScannedRows<gid_t> parse_vertex_lines(std::string_view text, long long from, const GraphHeader& h, gid_t first_vertex,
                                      GraphDialect dialect) {
  // Skip to buffer line `from`; the scanner numbers lines from there.
  std::size_t start = 0;
  for (long long i = 0; i < from && start < text.size(); ++i) {
    const std::size_t nl = text.find('\n', start);
    start = nl == std::string_view::npos ? text.size() : nl + 1;
  }
  ScannedRows<gid_t> rows;
  VertexScanner<gid_t>(h, dialect, first_vertex, from, rows).scan(text.substr(start));
  return rows;
}

}  // namespace hpart::detail
