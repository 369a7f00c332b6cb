#include "io/headed_text.hpp"

#include <mpi.h>

#include <algorithm>
#include <climits>

#include "io/graph_lines.hpp"
#include "io/mpi_file.hpp"

namespace hpart::detail {
namespace {
// Header lines are a few numbers; a longer one is not a header, and broadcasting it whole
// (a binary file can be one huge line) would cost O(file) on every rank.
constexpr std::size_t kMaxHeader = 4096;
}  // namespace

std::string share_line(const Comm& comm, std::string_view text, long long index, int root) {
  std::string line;
  long long bytes = 0;
  if (comm.rank() == root) {
    const std::string_view l = line_at(text, index);
    bytes = static_cast<long long>(l.size());
    line.assign(l.substr(0, kMaxHeader));
  }
  MPI_Bcast(&bytes, 1, MPI_LONG_LONG, root, comm.get());
  line.resize(std::min(static_cast<std::size_t>(bytes), kMaxHeader));
  MPI_Bcast(line.data(), static_cast<int>(line.size()), MPI_CHAR, root, comm.get());
  if (static_cast<std::size_t>(bytes) > kMaxHeader) line += "...";  // too long: parsers reject it
  return line;
}

HeaderPlace agree_header(const Comm& comm, const std::string& path, long long lines, long long first_record,
                         std::string_view record) {
  HeaderPlace place;
  place.first_line = comm.exscan_sum(lines) + 1;
  // Lines are in rank order, so the lowest rank holding a record holds the header.
  long long header[2] = {LLONG_MAX, comm.size()};
  if (first_record >= 0) header[0] = place.first_line + first_record, header[1] = comm.rank();
  MPI_Allreduce(MPI_IN_PLACE, header, 2, MPI_LONG_LONG, MPI_MIN, comm.get());
  if (header[1] == comm.size())
    throw Error(ErrorCode::io, path + ": no header line (the file is empty or holds only blank and comment lines)");
  place.holder = static_cast<int>(header[1]);
  place.header_line = header[0];
  place.header = share_line(comm, record, 0, place.holder);
  if (place.header.size() > kMaxHeader)
    throw Error(ErrorCode::io, at_line(path, place.header_line, "the header line is longer than 4 KiB: not a graph file?"));
  return place;
}

HeadedText read_headed_text(const Comm& comm, const std::string& path) {
  HeadedText t;
  t.text = read_rank_lines(comm, path);
  const LineCensus census = census_lines(t.text);
  const HeaderPlace place = agree_header(comm, path, census.lines, census.first_record,
                                         census.first_record >= 0 ? line_at(t.text, census.first_record) : std::string_view());
  t.first_line = place.first_line;
  t.header_line = place.header_line;
  t.header = place.header;
  const int holder = place.holder;
  t.body_from = comm.rank() < holder ? census.lines : comm.rank() == holder ? census.first_record + 1 : 0;
  return t;
}

}  // namespace hpart::detail
