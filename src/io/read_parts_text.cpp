// Parallel part file reader: each rank parses the lines that start in its 1/R-th of the file's
// bytes (detail::read_rank_lines), the ranks agree on the first bad line and on the count, and
// the ids move from the byte-range runs to the blocks the caller asked for (io/reblock.hpp).
#include <string>
#include <vector>

#include "core/agreement.hpp"
#include "core/memory_budget.hpp"
#include "hpart/io.hpp"
#include "io/mpi_file.hpp"
#include "io/part_lines.hpp"
#include "io/reblock.hpp"

namespace hpart {

std::vector<part_t> read_parts_text(const Comm& comm, const std::string& path, long long first, std::size_t count,
                                    long long expected_total, int num_parts, const std::string& objects) {
  const auto n = static_cast<long long>(count);
  std::string problem;
  if (first < 0 || expected_total < 0 || first + n > expected_total)
    problem = "read_parts_text: the entries [" + std::to_string(first) + ", " + std::to_string(first + n) +
              ") asked for lie outside [0, " + std::to_string(expected_total) + ")";
  detail::Replicated args;
  args.text("file path", path).value("expected_total", expected_total).value("num_parts", static_cast<long long>(num_parts));
  detail::agree(comm, args, problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);

  const std::string text = detail::read_rank_lines(comm, path);
  // The ids parsed (at most one per two bytes of text: "0\n") and those received.
  problem = detail::check_memory((static_cast<double>(text.size()) / 2.0 + static_cast<double>(n)) * sizeof(part_t),
                                 "read_parts_text: this rank's share of '" + path + "'",
                                 "each rank holds the part ids of its 1/R-th of the file: use more ranks");
  comm.agree(problem.empty() ? ErrorCode::ok : ErrorCode::invalid_input, problem);
  const detail::PartLines parsed = detail::parse_part_lines(text, num_parts);

  const long long mine[2] = {parsed.lines, static_cast<long long>(parsed.values.size())};
  long long before[2] = {0, 0}, total[2] = {mine[0], mine[1]};
  comm.exscan_sum<long long>(mine, before);
  comm.sum<long long>(total);
  // Ranks hold the lines in file order, so the lowest failing rank names the first bad line.
  problem.clear();
  if (parsed.bad_line >= 0) problem = path + ":" + std::to_string(before[0] + parsed.bad_line + 1) + ": " + parsed.bad_reason;
  comm.agree(problem.empty() ? ErrorCode::ok : ErrorCode::io, problem);
  if (total[1] != expected_total)
    comm.agree(ErrorCode::io, path + " has " + std::to_string(total[1]) + " part id" + (total[1] == 1 ? "" : "s") +
                                  " but the input has " + std::to_string(expected_total) + " " + objects +
                                  " (one part id per line, in file order)");
  return detail::reblock<part_t>(comm, parsed.values, 1, before[1], first, n);
}

}  // namespace hpart
