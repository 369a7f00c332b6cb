// The partition picture: every rank rasterises its own points into a pixel buffer holding
// part + 1 (0 = background); a MAX reduction merges the buffers on rank 0, which colours and
// writes them. Where parts overlap in a pixel the higher id wins, so the picture is the same for
// any number of ranks.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/agreement.hpp"
#include "core/features.hpp"
#include "core/memory_budget.hpp"
#include "core/validate.hpp"
#include "metrics/part_ids.hpp"
#include "hpart/io.hpp"
#include "hpart/version.hpp"
#include "io/png_image.hpp"

namespace hpart {
namespace {

// Positions are taken in half units, x/2 - x0/2: unlike x - x0, that never overflows, so points
// spread over +-1e308 still fill the picture.
struct View {
  int ax = 0, ay = 1;          // the projected axes
  double x0 = 0, y0 = 0;       // lower corner
  double scale = 1;            // pixels per half unit
  int width = 1, height = 1;
  [[nodiscard]] int pixel(double x, double lo) const { return static_cast<int>(std::lround((x * 0.5 - lo * 0.5) * scale)); }
};

View make_view(const Comm& comm, const PointSet& points, int max_side) {
  const int d = points.dim;
  std::array<double, 6> lo_neg_hi;  // min x.., -max x..
  lo_neg_hi.fill(INFINITY);
  const std::size_t n = points.size();
  for (std::size_t i = 0; i < n; ++i)
    for (int a = 0; a < d; ++a) {
      const double v = points.coords[i * static_cast<std::size_t>(d) + static_cast<std::size_t>(a)];
      lo_neg_hi[static_cast<std::size_t>(a)] = std::min(lo_neg_hi[static_cast<std::size_t>(a)], v);
      lo_neg_hi[static_cast<std::size_t>(3 + a)] = std::min(lo_neg_hi[static_cast<std::size_t>(3 + a)], -v);
    }
  MPI_Allreduce(MPI_IN_PLACE, lo_neg_hi.data(), 6, MPI_DOUBLE, MPI_MIN, comm.get());
  // Half the extent per axis (0 when no rank holds a point).
  std::array<double, 3> extent{};
  for (std::size_t a = 0; a < static_cast<std::size_t>(d); ++a) {
    if (lo_neg_hi[a] == INFINITY) lo_neg_hi[a] = lo_neg_hi[3 + a] = 0.0;
    extent[a] = -lo_neg_hi[3 + a] * 0.5 - lo_neg_hi[a] * 0.5;
  }
  View v;
  if (d == 3) {
    // The two axes of largest extent show the most of a 3D set (a plane seen face on).
    std::array<int, 3> axes{0, 1, 2};
    std::stable_sort(axes.begin(), axes.end(), [&](int p, int q) { return extent[static_cast<std::size_t>(p)] > extent[static_cast<std::size_t>(q)]; });
    v.ax = std::min(axes[0], axes[1]);
    v.ay = std::max(axes[0], axes[1]);
  }
  const double ex = extent[static_cast<std::size_t>(v.ax)], ey = extent[static_cast<std::size_t>(v.ay)];
  const double longest = std::max({ex, ey, 1e-300});
  v.scale = (max_side - 1) / longest;
  v.x0 = lo_neg_hi[static_cast<std::size_t>(v.ax)];
  v.y0 = lo_neg_hi[static_cast<std::size_t>(v.ay)];
  v.width = std::max(16, static_cast<int>(std::lround(ex * v.scale)) + 1);
  v.height = std::max(16, static_cast<int>(std::lround(ey * v.scale)) + 1);
  return v;
}

}  // namespace

void write_partition_png(const Comm& comm, const std::string& path, const PointSet& points,
                         std::span<const part_t> parts, int num_parts, int max_side) {
  std::string message = detail::check_points(points);
  if (message.empty() && parts.size() != points.size())
    message = std::to_string(parts.size()) + " part ids for " + std::to_string(points.size()) + " points";
  if (message.empty() && (max_side < 16 || max_side > 8192))
    message = "max_side must be in [16, 8192] (got " + std::to_string(max_side) + ")";
  if (message.empty()) message = detail::check_parts(num_parts);
  if (message.empty()) message = detail::check_part_ids(parts, num_parts);
  // One max_side^2 buffer of part ids per rank, and the colours on rank 0.
  if (message.empty())
    message = detail::check_memory(static_cast<double>(max_side) * max_side * (comm.rank() == 0 ? 7.0 : 4.0),
                                   "a picture of " + std::to_string(max_side) + " pixels a side", "use a smaller max_side");
  // Agreed with the arguments below: every rank throws the same error, before any drawing.
  // A missing PNG is its own code (unsupported); a bad argument found first wins, as before.
  ErrorCode code = ErrorCode::invalid_argument;
  if (message.empty() && !HPART_HAVE_PNG) message = detail::built_without("PNG", "write_partition_png"), code = ErrorCode::unsupported;
  else if (!message.empty()) message = "write_partition_png: " + message;
  detail::Replicated args;
  args.text("file path", path)
      .value("num_parts", static_cast<long long>(num_parts))
      .value("max_side", static_cast<long long>(max_side))
      .value("dim", static_cast<long long>(points.dim));
  detail::agree(comm, args, message.empty() ? ErrorCode::ok : code, message);

  const View v = make_view(comm, points, max_side);
  long long local = static_cast<long long>(points.size()), total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_LONG_LONG, MPI_SUM, comm.get());
  // Sparse sets get bigger dots so that every part stays visible.
  const int radius = std::clamp(static_cast<int>(0.4 * max_side / std::sqrt(static_cast<double>(std::max(total, 1LL)))), 0, 5);

  const auto w = static_cast<std::size_t>(v.width), h = static_cast<std::size_t>(v.height);
  std::vector<std::int32_t> pixels(w * h, 0);
  const auto d = static_cast<std::size_t>(points.dim);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const int px = v.pixel(points.coords[i * d + static_cast<std::size_t>(v.ax)], v.x0);
    const int py = v.pixel(points.coords[i * d + static_cast<std::size_t>(v.ay)], v.y0);
    for (int y = std::max(0, py - radius); y <= std::min(v.height - 1, py + radius); ++y)
      for (int x = std::max(0, px - radius); x <= std::min(v.width - 1, px + radius); ++x) {
        // y grows upwards in the picture.
        std::int32_t& cell = pixels[static_cast<std::size_t>(v.height - 1 - y) * w + static_cast<std::size_t>(x)];
        cell = std::max(cell, parts[i] + 1);
      }
  }
  MPI_Reduce(comm.rank() == 0 ? MPI_IN_PLACE : pixels.data(), pixels.data(), static_cast<int>(w * h), MPI_INT32_T,
             MPI_MAX, 0, comm.get());
  message.clear();
  if (comm.rank() == 0) {
    std::vector<std::uint8_t> rgb(w * h * 3, 255);
    for (std::size_t k = 0; k < w * h; ++k)
      if (pixels[k] > 0) {
        const detail::Rgb c = detail::part_colour(pixels[k] - 1);
        rgb[3 * k] = c.r;
        rgb[3 * k + 1] = c.g;
        rgb[3 * k + 2] = c.b;
      }
    message = detail::write_png_rgb(path, v.width, v.height, rgb);
  }
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::io, message);
}

}  // namespace hpart
