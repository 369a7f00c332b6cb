// Parallel text writers (part files, point files): each rank formats its own lines and
// write_ordered_text places them after those of the lower ranks.
#include <charconv>
#include <string>

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
  std::string text;
  text.reserve(parts.size() * 4);
  for (const part_t p : parts) {
    append_number(text, p);
    text.push_back('\n');
  }
  detail::write_ordered_text(comm, path, text);
}

void write_points_text(const Comm& comm, const std::string& path, const PointSet& points) {
  std::string message = detail::check_points(points);
  if (message.empty() && points.ncon != 1) message = "write_points_text: writes one weight per point (ncon 1)";
  if (message.empty()) message = detail::check_weights(points.weights, points.size(), 1);
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, message);
  std::string text;
  const auto d = static_cast<std::size_t>(points.dim);
  text.reserve(points.size() * (d + 1) * 20);
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
