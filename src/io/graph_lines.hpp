#pragma once
// Pure parsing kernel of the METIS and Chaco graph formats (no MPI, no files). The MPI readers
// hand it the lines that start in their byte range and turn its buffer line indices into line
// numbers of the whole file. Errors are reported, not thrown: the first malformed line's index
// and why, so that the lowest failing rank names the first bad line of the file.
//
//   % comment lines ('%' after optional blanks) are skipped everywhere but still counted
//   n m [fmt [ncon]]          the header: the first line that is neither blank nor a comment
//   [s] [w1 .. wncon] v1 [e1] v2 [e2] ...   one line per vertex, n of them; an empty line is
//                                           a vertex without neighbours
// fmt has up to three 0/1 digits: sizes, vertex weights, edge weights (METIS: "011" = both
// weights). Chaco's first digit instead means each line starts with its own vertex number.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hpart/types.hpp"

namespace hpart::detail {

// Lines of a buffer and the first "record" (neither blank nor a comment): the header when the
// buffer holds the start of the file.
struct LineCensus {
  long long lines = 0;
  long long first_record = -1;  // buffer line index, or -1
};
LineCensus census_lines(std::string_view text);

// Body lines in lines [from, end) of `text`: lines that are not comments, and also not blank
// unless `blank_lines_count` (a METIS vertex line may be empty, a MatrixMarket entry may not).
long long count_body_lines(std::string_view text, long long from, bool blank_lines_count);

// The text of buffer line `index` (without its '\n'); empty when there is no such line.
std::string_view line_at(std::string_view text, long long index);

enum class GraphDialect { metis, chaco };

struct GraphHeader {
  gid_t vertices = 0;
  std::int64_t edges = 0;       // undirected: each is listed at both ends
  bool leading_value = false;   // METIS: a vertex size first; Chaco: the vertex's own number first
  bool vertex_weights = false;
  bool edge_weights = false;
  int ncon = 1;                 // vertex weights per vertex (1 without vertex weights)
};

// Parses a header line; returns "" or why it is malformed (the reader adds file:line).
std::string parse_graph_header(std::string_view line, GraphDialect dialect, GraphHeader& header);

}  // namespace hpart::detail
