// The grid partition picture: rank 0 asks the partition's locator for the part of the cell under
// every pixel (no communication, no cell array: the locator answers for any cell), colours it by
// part and darkens pixels where the part changes, so the boxes and curve ranges show their edges.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/agreement.hpp"
#include "core/features.hpp"
#include "core/memory_budget.hpp"
#include "grid/grid_input.hpp"
#include "hpart/io.hpp"
#include "hpart/version.hpp"
#include "io/png_image.hpp"

namespace hpart {

void write_grid_partition_png(const Comm& comm, const std::string& path, const Grid& grid, const GridPartition& p,
                              int max_side) {
  std::string message = grid::check_grid_shape(grid.dim, grid.extent);
  if (message.empty() && (max_side < 16 || max_side > 8192))
    message = "max_side must be in [16, 8192] (got " + std::to_string(max_side) + ")";
  else if (message.empty() && !p.locator)
    message = "the partition has no locator (use the result of partition_grid)";
  // Rank 0 alone draws: a part id and a colour per pixel, at most max_side^2 pixels.
  if (message.empty() && comm.rank() == 0)
    message = detail::check_memory(static_cast<double>(max_side) * max_side * 7.0,
                                   "a picture of " + std::to_string(max_side) + " pixels a side", "use a smaller max_side");
  // Agreed with the arguments below: every rank throws the same error, before any drawing.
  // A missing PNG is its own code (unsupported); a bad argument found first wins, as before.
  ErrorCode code = ErrorCode::invalid_argument;
  if (message.empty() && !HPART_HAVE_PNG) message = detail::built_without("PNG", "write_grid_partition_png"), code = ErrorCode::unsupported;
  else if (!message.empty()) message = "write_grid_partition_png: " + message;
  detail::Replicated args;
  args.text("file path", path)
      .value("max_side", static_cast<long long>(max_side))
      .value("grid dim", static_cast<long long>(grid.dim))
      .values("grid extent", std::span<const std::int64_t>(grid.extent))
      .value("num_parts", static_cast<long long>(p.num_parts));
  detail::agree(comm, args, message.empty() ? ErrorCode::ok : code, message);
  if (comm.rank() == 0) {
    const std::int64_t nx = grid.extent[0], ny = grid.extent[1];
    const std::int64_t longest = std::max(nx, ny);
    // One pixel per cell up to max_side; coarser grids are magnified to at least 256 pixels.
    const double scale = std::min<double>(static_cast<double>(max_side) / static_cast<double>(longest),
                                          std::max(1.0, 256.0 / static_cast<double>(longest)));
    const int w = std::max(1, static_cast<int>(static_cast<double>(nx) * scale));
    const int h = std::max(1, static_cast<int>(static_cast<double>(ny) * scale));
    const std::int64_t z = grid.dim == 3 ? grid.extent[2] / 2 : 0;  // 3D: the middle slice
    std::vector<part_t> label(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
    for (int py = 0; py < h; ++py)
      for (int px = 0; px < w; ++px) {
        const Cell c{std::min(nx - 1, static_cast<std::int64_t>(px / scale)),
                     std::min(ny - 1, static_cast<std::int64_t>((h - 1 - py) / scale)), z, 0};  // y upwards
        label[static_cast<std::size_t>(py) * static_cast<std::size_t>(w) + static_cast<std::size_t>(px)] = p.part_of(c);
      }
    std::vector<std::uint8_t> rgb(label.size() * 3);
    for (int py = 0; py < h; ++py)
      for (int px = 0; px < w; ++px) {
        const std::size_t k = static_cast<std::size_t>(py) * static_cast<std::size_t>(w) + static_cast<std::size_t>(px);
        const bool edge = (px + 1 < w && label[k + 1] != label[k]) || (py + 1 < h && label[k + static_cast<std::size_t>(w)] != label[k]);
        const detail::Rgb c = detail::part_colour(label[k]);
        const double f = edge ? 0.35 : 1.0;
        rgb[3 * k] = static_cast<std::uint8_t>(c.r * f);
        rgb[3 * k + 1] = static_cast<std::uint8_t>(c.g * f);
        rgb[3 * k + 2] = static_cast<std::uint8_t>(c.b * f);
      }
    message = detail::write_png_rgb(path, w, h, rgb);
  }
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::io, message);
}

}  // namespace hpart
