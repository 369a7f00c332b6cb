#pragma once
// The scanning core of the METIS/Chaco vertex lines (pure: no MPI, no files), shared by the
// reader (which feeds it its byte range chunk by chunk) and parse_vertex_lines (the whole buffer
// at once, for the unit tests and the fuzzer). The neighbour id type is a template
// parameter so that a reader can fill 32-bit ids directly when N < 2^31.
//
// Speed: a line is first scanned by a hand-written loop that accepts only plain decimal digits
// (at most 18, so no overflow) separated by blanks, and checks ranges and self-loops inline. Any
// line it does not accept (a sign, a bad token, a value out of range, too few weights) is parsed
// again by parse_vertex_slow, the reference parser (std::from_chars), which either accepts it
// (e.g. "+5") or gives the message. So the fast path can only be stricter, never different.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "io/graph_lines.hpp"
#include "io/text_tokens.hpp"

namespace hpart::detail {

// Rows of consecutive vertices: `row` sits on file line `line`, and so does every later row on
// the following lines until the next mark (comments and blank lines between rows add marks).
// Most files need one mark per rank, where one line number per vertex would cost 8 bytes each.
struct LineMark {
  std::int64_t row;
  long long line;
};

// One line per row of `rows` rows, expanded from the marks (for messages and tests).
inline std::vector<long long> lines_of_marks(const std::vector<LineMark>& marks, std::size_t rows) {
  std::vector<long long> out(rows);
  for (std::size_t k = 0; k < marks.size(); ++k) {
    const auto end = k + 1 < marks.size() ? static_cast<std::size_t>(marks[k + 1].row) : out.size();
    for (auto r = static_cast<std::size_t>(marks[k].row); r < end; ++r)
      out[r] = marks[k].line + static_cast<long long>(r) - marks[k].row;
  }
  return out;
}

// Parsed vertex lines as CSR, neighbour ids 0-based global, of type Id.
template <class Id>
struct ScannedRows {
  std::vector<std::int64_t> xadj{0};
  std::vector<Id> adjncy;
  std::vector<std::int64_t> adjwgt;  // one per adjncy entry when the header has edge weights
  std::vector<std::int64_t> vwgt;    // ncon per vertex when the header has vertex weights
  std::vector<std::int64_t> vsize;   // METIS: one per vertex when the header has vertex sizes
  std::vector<LineMark> marks;
  long long bad_line = -1;  // line of the first malformed line (in the caller's numbering), or -1
  std::string bad_reason;
  [[nodiscard]] std::size_t vertices() const { return xadj.size() - 1; }
  // Records that `row` (the last one added) sits on `line`.
  void mark(std::int64_t row, long long line) {
    if (marks.empty() || marks.back().line + (row - marks.back().row) != line) marks.push_back({row, line});
  }
  [[nodiscard]] std::vector<long long> lines() const { return lines_of_marks(marks, vertices()); }
};

// The scanner below over a whole buffer (for the unit tests and the fuzzer): parses the vertex
// lines among buffer lines [from, end); the first one is vertex `first_vertex` (0-based) of the
// file. Checks each number, neighbour ids in [1, n], self-loops, vertex weights
// >= 0, edge weights > 0, the weight counts, Chaco vertex numbers, and that no non-blank line
// follows vertex n - 1 (blank lines after the last vertex are ignored). Stops at the first
// malformed line; the rows before it are kept.
ScannedRows<gid_t> parse_vertex_lines(std::string_view text, long long from, const GraphHeader& header,
                                      gid_t first_vertex, GraphDialect dialect = GraphDialect::metis);

// The reference parser of one vertex line: appends its numbers to `rows`; "" or why the line is
// malformed (then `rows` may hold part of the line: the caller truncates).
template <class Id>
std::string parse_vertex_slow(std::string_view line, const GraphHeader& h, gid_t v, GraphDialect dialect,
                              ScannedRows<Id>& rows) {
  const auto str = [](std::int64_t x) { return std::to_string(x); };
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
    rows.adjncy.push_back(static_cast<Id>(x - 1));
    if (!h.edge_weights) continue;
    const std::int64_t id = x;
    if (!tokens.next(tok)) return "neighbour " + str(id) + " has no edge weight (fmt says each neighbour is followed by one)";
    if (!(why = parse_integer(tok, x)).empty()) return "edge weight of neighbour " + str(id) + ": " + why;
    if (x <= 0) return "edge weight " + str(x) + " (to neighbour " + str(id) + ") must be > 0";
    rows.adjwgt.push_back(x);
  }
  return {};
}

// Scans vertex lines piece by piece (each piece whole lines; only the file's last line may lack
// its '\n'), the first being vertex `first_vertex` of the file on line `first_line`. Stops at the
// first malformed line (rows.bad_line, rows.bad_reason; the rows before it are kept).
template <class Id>
class VertexScanner {
 public:
  VertexScanner(const GraphHeader& h, GraphDialect dialect, gid_t first_vertex, long long first_line,
                ScannedRows<Id>& rows)
      : h_(h), dialect_(dialect), v_(first_vertex), line_(first_line), rows_(rows) {}

  // Returns false once a malformed line was found (then later pieces must not be scanned).
  bool scan(std::string_view text) {
    const char* p = text.data();
    const char* const end = p + text.size();
    while (p < end) {
      const char* const start = p;
      while (p < end && is_blank(*p)) ++p;
      const bool blank = p == end || *p == '\n';
      if (!blank && *p == '%') {  // a comment: skipped, but counted
        p = line_end(p, end);
      } else if (v_ >= h_.vertices) {
        p = line_end(p, end);
        if (!blank) return fail("more vertex lines than the header's n = " + std::to_string(h_.vertices));
      } else {
        const Sizes before = sizes();
        const char* stop = fast_vertex(p, end);
        if (stop == nullptr) {  // not plain: the reference parser decides
          restore(before);
          stop = line_end(start, end);
          std::string why = parse_vertex_slow(std::string_view(start, static_cast<std::size_t>(stop - start)), h_, v_,
                                              dialect_, rows_);
          if (!why.empty()) {
            restore(before);
            return fail(std::move(why));
          }
        }
        p = stop;
        rows_.xadj.push_back(static_cast<std::int64_t>(rows_.adjncy.size()));
        rows_.mark(static_cast<std::int64_t>(rows_.vertices()) - 1, line_);
        ++v_;
      }
      if (p < end) ++p;  // the '\n'
      ++line_;
    }
    return true;
  }

 private:
  struct Sizes {
    std::size_t adj, ew, vw, vs;
  };
  [[nodiscard]] Sizes sizes() const {
    return {rows_.adjncy.size(), rows_.adjwgt.size(), rows_.vwgt.size(), rows_.vsize.size()};
  }
  void restore(const Sizes& s) {
    rows_.adjncy.resize(s.adj);
    rows_.adjwgt.resize(s.ew);
    rows_.vwgt.resize(s.vw);
    rows_.vsize.resize(s.vs);
  }
  static const char* line_end(const char* p, const char* end) {
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
    return nl ? static_cast<const char*>(nl) : end;
  }
  bool fail(std::string why) {
    rows_.bad_line = line_;
    rows_.bad_reason = std::move(why);
    return false;
  }

  // A plain decimal number of 1 to 18 digits ending at a blank or the line's end, into x.
  static bool number(const char*& p, const char* end, std::int64_t& x) {
    const char* const s = p;
    std::uint64_t value = 0;
    while (p < end && static_cast<unsigned>(*p - '0') < 10U) value = value * 10U + static_cast<unsigned>(*p++ - '0');
    if (p == s || p - s > 18 || (p < end && *p != '\n' && !is_blank(*p))) return false;
    x = static_cast<std::int64_t>(value);
    return true;
  }
  static void skip_blanks(const char*& p, const char* end) {
    while (p < end && is_blank(*p)) ++p;
  }

  // The line at p (its first non-blank character) appended to the rows; returns where the line
  // ends ('\n' or end), or nullptr when the line is not plain (anything to report, or a sign).
  const char* fast_vertex(const char* p, const char* end) {
    std::int64_t x = 0;
    if (h_.leading_value) {
      if (!number(p, end, x)) return nullptr;
      if (dialect_ == GraphDialect::chaco) {
        if (x != v_ + 1) return nullptr;
      } else {
        rows_.vsize.push_back(x);
      }
      skip_blanks(p, end);
    }
    if (h_.vertex_weights) {
      for (int c = 0; c < h_.ncon; ++c) {
        if (!number(p, end, x)) return nullptr;
        rows_.vwgt.push_back(x);
        skip_blanks(p, end);
      }
    }
    const std::int64_t n = h_.vertices, self = v_ + 1;
    while (p < end && *p != '\n') {
      if (!number(p, end, x) || x < 1 || x > n || x == self) return nullptr;
      rows_.adjncy.push_back(static_cast<Id>(x - 1));
      skip_blanks(p, end);
      if (h_.edge_weights) {
        if (!number(p, end, x) || x == 0) return nullptr;
        rows_.adjwgt.push_back(x);
        skip_blanks(p, end);
      }
    }
    return p;
  }

  const GraphHeader& h_;
  GraphDialect dialect_;
  gid_t v_;
  long long line_;
  ScannedRows<Id>& rows_;
};

}  // namespace hpart::detail
