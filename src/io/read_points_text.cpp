// Parallel text point reader: each rank reads the lines that start in its 1/R-th of the file's
// bytes (detail::read_rank_lines), parses them, and the ranks agree on the column count and on
// the first bad line.
#include <mpi.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <new>
#include <string>
#include <string_view>

#include "core/agreement.hpp"
#include "core/memory_budget.hpp"
#include "hpart/io.hpp"
#include "io/mpi_file.hpp"
#include "io/point_lines.hpp"

namespace hpart {
namespace {

std::string at_line(const std::string& path, long long line, const std::string& what) {
  return path + ":" + std::to_string(line) + ": " + what;
}

std::string shortest(double v) {
  char digits[32];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, v);
  return std::string(digits, end);
}

// The points' dimension from the columns: a header's declaration decides (a dim that
// contradicts it, or data lines that do not fit it, are mistakes worth naming rather than
// guessing around); else dim; else the count (2 -> x y, 3 -> x y z, 4 -> x y z w). Collective:
// every argument is the same on every rank.
int resolve_dim(const Comm& comm, const std::string& path, int dim, int columns, long long first_line,
                const detail::ColumnHeader& header, long long header_line) {
  if (header.columns > 0) {
    if (dim != 0 && dim != header.dim)
      comm.agree(ErrorCode::invalid_argument,
                 at_line(path, header_line,
                         "the header declares '" + header.names() + "' (" + std::to_string(header.dim) +
                             "D points), but dim " + std::to_string(dim) + " was asked (--dim " + std::to_string(dim) + ")"));
    if (columns != header.columns)
      comm.agree(ErrorCode::io, at_line(path, first_line,
                                        "has " + std::to_string(columns) + " values, but the header (line " +
                                            std::to_string(header_line) + ") declares " +
                                            std::to_string(header.columns) + ": '" + header.names() + "'"));
    dim = header.dim;
  }
  const bool columns_ok = dim == 0 ? columns >= 2 && columns <= 4 : columns == dim || columns == dim + 1;
  if (!columns_ok)
    comm.agree(ErrorCode::io, at_line(path, first_line,
                                      "has " + std::to_string(columns) + " values; expected " +
                                          (dim == 2   ? std::string("'x y' or 'x y w' (--dim 2)")
                                           : dim == 3 ? std::string("'x y z' or 'x y z w' (--dim 3)")
                                                      : std::string("'x y', 'x y z' or 'x y z w'"))));
  return dim != 0 ? dim : (columns == 2 ? 2 : 3);
}

}  // namespace

PointFile read_points_text(const Comm& comm, const std::string& path, int dim) {
  const bool dim_ok = dim == 0 || dim == 2 || dim == 3;
  detail::Replicated args;
  args.value("dim", static_cast<long long>(dim));
  detail::agree(comm, args, dim_ok ? ErrorCode::ok : ErrorCode::invalid_argument,
                dim_ok ? std::string() : "read_points_text: dim must be 0 (from the columns), 2 or 3");
  // The text is kept to name the line of a bad weight found after the columns are known.
  const std::string text = detail::read_rank_lines(comm, path);
  // A column header can only be the file's first record (data or header) line: the lowest
  // rank holding one decides, and skips it when it is a header (elsewhere such a line is a
  // comment, or a malformed point line).
  const long long record = detail::first_record_line(text);
  int has_record = record >= 0 ? comm.rank() : INT_MAX, record_rank = INT_MAX;
  MPI_Allreduce(&has_record, &record_rank, 1, MPI_INT, MPI_MIN, comm.get());
  const detail::ColumnHeader local_header = record >= 0 && comm.rank() == record_rank
                                                ? detail::parse_column_header(detail::point_line_at(text, record))
                                                : detail::ColumnHeader{};
  const long long header_index = local_header.columns > 0 ? record : -1;
  // The values take up to ~4x the text's bytes ("1 2" lines); their growth is not estimated
  // beforehand (that would be a pass over the text), so running out is caught here instead.
  detail::PointLines parsed;
  std::string out_of_memory;
  try {
    parsed = detail::parse_point_lines(text, header_index);
  } catch (const std::bad_alloc&) {
    parsed = {};
    out_of_memory = "read_points_text: '" + path + "': out of memory parsing this rank's " +
                    detail::format_bytes(static_cast<double>(text.size())) + " of lines: use more ranks";
  }

  // Line numbers and point ordinals of this rank's first line and point.
  const long long mine[2] = {parsed.lines, parsed.data_lines};
  long long before[2] = {0, 0}, total[2] = {mine[0], mine[1]};
  comm.exscan_sum<long long>(mine, before);
  comm.sum<long long>(total);

  // The file's column count is that of its first point line, on the first rank holding points.
  int has = parsed.data_lines > 0 ? comm.rank() : INT_MAX, first_rank = INT_MAX;
  MPI_Allreduce(&has, &first_rank, 1, MPI_INT, MPI_MIN, comm.get());
  long long head[2] = {parsed.columns, before[0] + parsed.first_data_line + 1};
  if (first_rank != INT_MAX) MPI_Bcast(head, 2, MPI_LONG_LONG, first_rank, comm.get());
  const int columns = static_cast<int>(head[0]);
  // The header, from the lowest rank holding a record line: {columns (0: none), dim, file line}.
  long long declared[3] = {local_header.columns, local_header.dim, before[0] + header_index + 1};
  if (record_rank != INT_MAX) MPI_Bcast(declared, 3, MPI_LONG_LONG, record_rank, comm.get());
  detail::ColumnHeader header;
  if (record_rank != INT_MAX && declared[0] > 0)
    header = {static_cast<int>(declared[0]), static_cast<int>(declared[1]), declared[0] > declared[1]};
  const long long header_line = declared[2];

  // A rank's first point line precedes its first malformed line, so report a column mismatch
  // first: the lowest failing rank then names the first bad line of the whole file.
  auto mismatch = [&](long long line, int count) {
    return at_line(path, before[0] + line + 1,
                   "has " + std::to_string(count) + " values, but line " + std::to_string(head[1]) + " has " +
                       std::to_string(columns));
  };
  auto parse_problem = [&]() -> std::string {
    if (parsed.data_lines > 0 && parsed.columns != columns) return mismatch(parsed.first_data_line, parsed.columns);
    if (parsed.bad_count >= 0) return mismatch(parsed.bad_line, parsed.bad_count);
    if (parsed.bad_line >= 0) return at_line(path, before[0] + parsed.bad_line + 1, parsed.bad_reason);
    return {};
  };
  std::string message = out_of_memory.empty() ? parse_problem() : out_of_memory;
  comm.agree(message.empty() ? ErrorCode::ok : out_of_memory.empty() ? ErrorCode::io : ErrorCode::invalid_input, message);
  if (first_rank == INT_MAX)
    comm.agree(ErrorCode::io, path + ": no points (the file is empty or holds only blank and comment lines)");

  PointFile out;
  out.columns = columns;
  out.columns_declared = header.columns > 0;
  out.dim = resolve_dim(comm, path, dim, columns, head[1], header, header_line);
  out.weighted = columns == out.dim + 1;
  out.global_count = total[1];

  const auto n = static_cast<std::size_t>(parsed.data_lines);
  const auto d = static_cast<std::size_t>(out.dim);
  const auto c = static_cast<std::size_t>(columns);
  // Coordinates (the parsed values themselves when there is no weight column), weights and ids.
  const std::size_t values = out.weighted ? n * (d + 1) : 0;
  message = detail::check_memory(static_cast<double>(values + n) * 8.0,
                                 "read_points_text: " + std::to_string(n) + " points of '" + path + "' on this rank",
                                 "each rank holds the points of its 1/R-th of the file: use more ranks");
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::invalid_input, message);
  long long negative = -1;  // point index of the first negative weight
  if (!out.weighted) {
    out.coords = std::move(parsed.values);
  } else {
    out.coords.resize(n * d);
    out.weights.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      std::copy_n(parsed.values.begin() + static_cast<std::ptrdiff_t>(i * c), d,
                  out.coords.begin() + static_cast<std::ptrdiff_t>(i * d));
      out.weights[i] = parsed.values[i * c + d];
      if (out.weights[i] < 0 && negative < 0) negative = static_cast<long long>(i);
    }
    std::vector<double>().swap(parsed.values);
  }
  out.ids.resize(n);
  for (std::size_t i = 0; i < n; ++i) out.ids[i] = before[1] + static_cast<gid_t>(i);
  message.clear();
  if (negative >= 0) {
    message = at_line(path, before[0] + detail::data_line_index(text, negative, header_index) + 1,
                      "negative weight " + shortest(out.weights[static_cast<std::size_t>(negative)]) +
                          "; weights must be >= 0");
  }
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::invalid_input, message);
  return out;
}

}  // namespace hpart
