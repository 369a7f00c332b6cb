#include "io/chunked_lines.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstring>

#include "io/text_tokens.hpp"

namespace hpart::detail {
namespace {
constexpr std::size_t kWindow = 1 << 16;
constexpr std::size_t kRecordKept = 4097;  // one byte past the 4 KiB header limit: "too long" is seen
}  // namespace

LineSpan rank_line_span(const Comm& comm, const MpiFile& file) {
  LineSpan span;
  span.file_size = file.size();
  const long long size = span.file_size, r = comm.rank(), R = comm.size();
  const long long begin = size / R * r + std::min(r, size % R);
  // The first line start at or after `begin`: byte 0, or just after a '\n' at or after begin - 1.
  long long start = begin;
  std::string message;
  if (begin > 0) try {
    std::vector<char> window(kWindow);
    start = size;
    for (long long at = begin - 1; at < size;) {
      const std::size_t got = file.read_at(at, window.data(), window.size());
      if (got == 0) break;
      if (const void* nl = std::memchr(window.data(), '\n', got)) {
        start = at + (static_cast<const char*>(nl) - window.data()) + 1;
        break;
      }
      at += static_cast<long long>(got);
    }
  } catch (const Error& e) {
    message = e.what();
  }
  std::vector<long long> starts(static_cast<std::size_t>(R) + 1, size);
  MPI_Allgather(&start, 1, MPI_LONG_LONG, starts.data(), 1, MPI_LONG_LONG, comm.get());
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::io, message);
  span.begin = starts[static_cast<std::size_t>(r)];
  span.end = std::max(span.begin, starts[static_cast<std::size_t>(r) + 1]);
  return span;
}

namespace {

// Walks the lines of [from, end) chunk by chunk: on_line(start, stop, kind, offset) for each
// (stop: its '\n' or the end; offset: the file offset of start) until it returns false.
template <class OnLine>
void walk_lines(const MpiFile& file, long long from, long long end, OnLine&& on_line) {
  long long offset = from;  // file offset of the current chunk's first byte
  for_each_line_chunk(file, from, end, [&](std::string_view text) {
    const char* p = text.data();
    const char* const stop_all = p + text.size();
    while (p < stop_all) {
      const char* const start = p;
      while (p < stop_all && is_blank(*p)) ++p;
      const LineKind kind = p == stop_all || *p == '\n' ? LineKind::blank : *p == '%' ? LineKind::comment : LineKind::record;
      const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(stop_all - p));
      p = nl ? static_cast<const char*>(nl) : stop_all;
      if (!on_line(start, p, kind, offset + (start - text.data()))) return false;
      if (p < stop_all) ++p;
    }
    offset += static_cast<long long>(text.size());
    return true;
  });
}

}  // namespace

SpanCensus census_span(const MpiFile& file, const LineSpan& span, bool to_end) {
  SpanCensus c;
  walk_lines(file, span.begin, span.end, [&](const char* start, const char* stop, LineKind kind, long long offset) {
               if (kind != LineKind::comment) {
                 ++c.non_comment_lines;
                 if (c.first_record >= 0) ++c.lines_after_record;
               }
               if (kind == LineKind::record && c.first_record < 0) {
                 c.first_record = c.lines;
                 c.record.assign(start, std::min(static_cast<std::size_t>(stop - start), kRecordKept));
                 c.body_offset = offset + (stop - start) + 1;
               }
               ++c.lines;
               return to_end || c.first_record < 0;
             });
  c.body_offset = std::min(c.body_offset, span.end);  // a header without '\n' ends the file
  return c;
}

void find_line_stops(const MpiFile& file, long long from, long long end, std::vector<LineStop>& stops) {
  if (stops.empty()) return;
  std::size_t next = 0;
  long long ordinal = 0, line = 0;
  walk_lines(file, from, end, [&](const char*, const char*, LineKind kind, long long offset) {
    if (kind != LineKind::comment) {
      for (; next < stops.size() && stops[next].ordinal == ordinal; ++next) {
        stops[next].offset = offset;
        stops[next].line = line;
      }
      ++ordinal;
    }
    ++line;
    return next < stops.size();
  });
}

}  // namespace hpart::detail
