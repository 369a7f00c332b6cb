#pragma once
// A rank's lines of a text file, read in bounded chunks instead of held whole: rank r owns the
// lines that start in its 1/R-th of the bytes (as read_rank_lines), found as the byte span
// [s_r, s_{r+1}) where s_r is the first line start at or after r's range begin; a reader then
// walks its span in pieces of whole lines, so its memory is one chunk (plus one line, when a
// line is longer than a chunk), not its share of the file.
#include <cstddef>
#include <string_view>
#include <vector>

#include "hpart/comm.hpp"
#include "io/mpi_file.hpp"

namespace hpart::detail {

// Bytes read per chunk: small against the arrays a graph reader fills, large enough that the
// per-read cost vanishes.
inline constexpr std::size_t kLineChunk = std::size_t{8} << 20;

struct LineSpan {
  long long begin = 0, end = 0;  // file offsets: the lines of this rank
  long long file_size = 0;
};

// Collective (one Allgather of R offsets); a failed read is the same Error on every rank.
LineSpan rank_line_span(const Comm& comm, const MpiFile& file);

// Reads [begin, end) (which starts at a line start and ends at one, or at the end of the file)
// in pieces of whole lines, calling `on_lines(std::string_view)` for each in order until it
// returns false. A line longer than the chunk grows the buffer to hold it.
template <class OnLines>
void for_each_line_chunk(const MpiFile& file, long long begin, long long end, OnLines&& on_lines,
                         std::size_t chunk = kLineChunk) {
  std::vector<char> buf(static_cast<std::size_t>(std::min<long long>(static_cast<long long>(chunk), end - begin)));
  std::size_t have = 0;  // bytes of an unfinished line carried at buf's front
  long long pos = begin;
  while (pos < end) {
    if (have == buf.size()) buf.resize(buf.size() * 2);  // one line longer than the buffer
    const auto want = static_cast<std::size_t>(std::min<long long>(static_cast<long long>(buf.size() - have), end - pos));
    const std::size_t got = file.read_at(pos, buf.data() + have, want);
    pos += static_cast<long long>(got);
    have += got;
    if (got < want) pos = end;  // the file shrank under us: what is there is all there is
    std::size_t whole = have;
    if (pos < end) {  // the buffer may end inside a line: hand over up to its last '\n'
      whole = 0;
      for (std::size_t i = have; i > 0; --i)
        if (buf[i - 1] == '\n') {
          whole = i;
          break;
        }
    }
    if (whole == 0) continue;
    if (!on_lines(std::string_view(buf.data(), whole))) return;
    std::copy(buf.begin() + static_cast<std::ptrdiff_t>(whole), buf.begin() + static_cast<std::ptrdiff_t>(have), buf.begin());
    have -= whole;
  }
}

// What a graph reader needs to know of its span before parsing it (one pass over the bytes).
struct SpanCensus {
  long long lines = 0;            // lines in the span (exact when counted to the end)
  long long first_record = -1;    // span line index of the first line neither blank nor comment
  std::string record;             // that line (at most 4 KiB + 1 bytes of it)
  long long body_offset = -1;     // file offset just after that line
  long long lines_after_record = 0;  // non-comment lines after it (blank ones count)
  long long non_comment_lines = 0;   // all non-comment lines of the span
};

// One pass over [span.begin, span.end); with `to_end` false it stops after the first record.
SpanCensus census_span(const MpiFile& file, const LineSpan& span, bool to_end);

// Where the non-comment line of ordinal `ordinal` (0 = the first at or after `from`) starts:
// its file offset and line (counted from `from`'s line).
struct LineStop {
  long long ordinal = 0;
  long long offset = -1, line = 0;
};
// One pass over [from, end), up to the last stop (ordinals ascending); a stop past the lines
// keeps offset -1.
void find_line_stops(const MpiFile& file, long long from, long long end, std::vector<LineStop>& stops);

}  // namespace hpart::detail
