#pragma once
// Pure parsing kernel of the text point format (no MPI, no files): turns a buffer of complete
// lines into numbers and reports the first malformed line by its index in the buffer. The MPI
// reader turns that index into a line number of the whole file.
#include <string>
#include <string_view>
#include <vector>

namespace hpart::detail {

struct PointLines {
  std::vector<double> values;    // all values of all data lines, in order
  int columns = 0;               // values per data line (that of the first data line)
  long long lines = 0;           // lines in the buffer, data or not
  long long data_lines = 0;
  long long first_data_line = -1;  // buffer line index of the first data line
  long long bad_line = -1;         // buffer line index of the first malformed line, or -1
  std::string bad_reason;          // why that line is malformed
  int bad_count = -1;              // its value count, when that (not a value) is what is wrong
};

// Lines are separated by '\n' ("\r\n" works too); a last line without '\n' counts. Blank lines and
// lines whose first non-blank character is '#' or '%' are skipped, and so is buffer line
// `header_line` (a column header, which need not start with '#'). Values are separated by blanks,
// tabs or commas, must be finite, and every data line must have as many as the first one.
// Parsing stops at the first malformed line.
PointLines parse_point_lines(std::string_view text, long long header_line = -1);

// Buffer line index of the k-th (0-based) data line of `text`, or -1; for error messages.
long long data_line_index(std::string_view text, long long k, long long header_line = -1);

// A line that declares the file's columns: the names x y [z] [w] in this order (any case,
// separated by blanks, tabs or commas), optionally after '#' or '%': "# x y w", "x,y,z".
struct ColumnHeader {
  int columns = 0;  // 0: the line is not a header
  int dim = 0;      // 2 or 3
  bool weighted = false;
  [[nodiscard]] std::string names() const;  // "x y w"
};
ColumnHeader parse_column_header(std::string_view line);

// The buffer line index of the first line that is a data line or a column header (so comments
// may precede a header), or -1. Only the file's first such line can be its header.
long long first_record_line(std::string_view text);

// The text of buffer line `index` (without its '\n'); empty when there is no such line.
std::string_view point_line_at(std::string_view text, long long index);

}  // namespace hpart::detail
