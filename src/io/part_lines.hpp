#pragma once
// Pure parsing kernel of part files (METIS .part: one part id per line, in object order): no
// MPI, no files. The first malformed line is reported by its index in the buffer, so that the
// MPI reader can name the file's line.
#include <string>
#include <string_view>
#include <vector>

#include "hpart/types.hpp"

namespace hpart::detail {

struct PartLines {
  std::vector<part_t> values;  // the part ids of the buffer's entry lines, in order
  long long lines = 0;         // lines in the buffer, entries or not
  long long bad_line = -1;     // buffer line index of the first malformed line, or -1
  std::string bad_reason;
};

// Lines are separated by '\n' ("\r\n" works too); blank lines and lines whose first non-blank
// character is '#' or '%' are skipped. Every other line holds one integer in [0, 2^31): in
// [0, num_parts) when num_parts > 0. Parsing stops at the first malformed line (its lines are
// still counted, so that the next rank's line numbers follow).
PartLines parse_part_lines(std::string_view text, int num_parts = 0);

}  // namespace hpart::detail
