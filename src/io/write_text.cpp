// Parallel text writers (part files, point files): each rank formats its own lines and
// write_ordered_text places them after those of the lower ranks.
#include <charconv>
#include <string>

#include "core/agreement.hpp"
#include "core/memory_budget.hpp"
#include "core/validate.hpp"
#include "hpart/io.hpp"
#include "io/mpi_file.hpp"

namespace hpart {
namespace {

template <class T>
void append_number(std::string& text, T value) {
  char digits[32];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);  // shortest round trip
  text.append(digits, end);
}

}  // namespace

void write_parts_text(const Comm& comm, const std::string& path, std::span<const part_t> parts) {
  std::string text, message;
  text.reserve(parts.size() * 4);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    // Checked while formatting: no extra pass over the parts.
    if (parts[i] < 0 && message.empty())
      message = "write_parts_text: part id " + std::to_string(parts[i]) + " of local object " + std::to_string(i) +
                " is negative: part ids must be >= 0";
    append_number(text, parts[i]);
    text.push_back('\n');
  }
  detail::Replicated args;
  args.text("file path", path);
  detail::agree(comm, args, message.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, message);
  detail::write_ordered_text(comm, path, text);
}

void write_points_text(const Comm& comm, const std::string& path, const PointSet& points) {
  std::string message = detail::check_points(points);
  if (message.empty() && points.ncon != 1) message = "write_points_text: writes one weight per point (ncon 1)";
  const auto d = static_cast<std::size_t>(points.dim);
  // ~20 bytes per value (shortest round trip): checked before the text is built.
  const double bytes = static_cast<double>(points.size()) * static_cast<double>(d + 1) * 20.0;
  if (message.empty())
    message = detail::check_memory(bytes, "write_points_text: the text of " + std::to_string(points.size()) + " points",
                                   "use more ranks, or write_points_h5 (which writes the values without a copy)");
  // Every rank writes the same columns, or the file would not read back.
  detail::Replicated args;
  args.text("file path", path);
  detail::replicate_point_shape(args, points);
  detail::agree(comm, args, message.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, message);
  // The header names the columns, so that 'x y w' and 'x y z' read back as written. Ranks
  // without points do not know whether there are weights: the ranks that hold some tell them.
  const bool weighted = comm.max(points.weights.empty() ? 0 : 1) == 1;
  std::string text;
  text.reserve(static_cast<std::size_t>(bytes) + 16);
  if (comm.rank() == 0) text = std::string(points.dim == 2 ? "# x y" : "# x y z") + (weighted ? " w\n" : "\n");
  for (std::size_t i = 0; i < points.size(); ++i) {
    for (std::size_t a = 0; a < d; ++a) {
      if (a > 0) text.push_back(' ');
      append_number(text, points.coords[i * d + a]);
    }
    if (!points.weights.empty()) {
      text.push_back(' ');
      append_number(text, points.weights[i]);
    }
    text.push_back('\n');
  }
  detail::write_ordered_text(comm, path, text);
}

}  // namespace hpart
