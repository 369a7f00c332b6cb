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
// lines whose first non-blank character is '#' or '%' are skipped. Values are separated by blanks,
// tabs or commas, must be finite, and every data line must have as many as the first one.
// Parsing stops at the first malformed line.
PointLines parse_point_lines(std::string_view text);

// Buffer line index of the k-th (0-based) data line of `text`, or -1; for error messages.
long long data_line_index(std::string_view text, long long k);

}  // namespace hpart::detail
