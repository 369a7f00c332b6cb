#pragma once
// This rank's share of a text file whose first record line is a header (graph files): the
// lines that start in its byte range (io/mpi_file's read_rank_lines), their place in the file,
// and the header line, which one rank holds and every rank then parses alike.
#include <string>
#include <string_view>

#include "core/file_line.hpp"
#include "hpart/comm.hpp"

namespace hpart::detail {

struct HeadedText {
  std::string text;           // the lines that start in this rank's byte range
  long long first_line = 1;   // file line number (1-based) of text's first line
  long long header_line = 0;  // file line number of the header
  std::string header;         // the header line, on every rank
  long long body_from = 0;    // buffer line index of this rank's first line after the header
};

// Collective. The header is the first line that is neither blank nor a '%' comment. Throws the
// same io Error on every rank when the file cannot be read, has no such line, or its header is
// implausibly long (a binary file, say).
HeadedText read_headed_text(const Comm& comm, const std::string& path);

// Collective: buffer line `index` of `root`'s text, on every rank (at most 4 KiB of it).
std::string share_line(const Comm& comm, std::string_view text, long long index, int root);

// Where the header is, agreed from each rank's census of its lines: `lines` it holds, the index
// of its first record line (or -1) and that line's text (on the rank that holds it).
struct HeaderPlace {
  long long first_line = 1;   // file line number of this rank's first line
  long long header_line = 0;  // file line number of the header
  std::string header;         // on every rank
  int holder = 0;             // the rank whose lines hold it
};
// Collective; throws the same io Error on every rank for no header or one longer than 4 KiB.
HeaderPlace agree_header(const Comm& comm, const std::string& path, long long lines, long long first_record,
                         std::string_view record);

}  // namespace hpart::detail
