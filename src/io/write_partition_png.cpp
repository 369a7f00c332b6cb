// The points picture: every rank rasterises its own points into pixel keys (picture_raster), a
// MAX reduction merges the keys on rank 0, which colours the parts that touch differently and
// writes the picture (picture_canvas). Where parts overlap in a pixel the higher key wins (3D:
// the point nearest its slab's middle, then the higher part), so the picture is the same for any
// number of ranks.
#include <mpi.h>

#include <algorithm>
#include <cmath>

#include "core/validate.hpp"
#include "hpart/io.hpp"
#include "io/part_colouring.hpp"
#include "io/picture_canvas.hpp"
#include "io/picture_checks.hpp"
#include "io/picture_raster.hpp"

namespace hpart {

void write_partition_png(const Comm& comm, const std::string& path, const PointSet& points,
                         std::span<const part_t> parts, int num_parts, const PictureOptions& options) {
  detail::agree_point_picture(comm, path, detail::check_points(points), points.size(), "points", parts, num_parts,
                              points.dim, options, "write_partition_png");

  const detail::CoordView view(comm, points.coords, points.dim, options.max_side);
  const detail::Montage& m = view.montage();
  long long local = static_cast<long long>(points.size()), total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_LONG_LONG, MPI_SUM, comm.get());
  // 2D: a dot of a few pixels, smaller where the points are dense. 3D: a slab shows in each pixel
  // the point nearest its middle, so dots cover about 8 points' share of the panel (the nearest
  // of several decides), and the holes between dots are filled on rank 0.
  const bool sections = view.slabs() > 1;
  const double share = static_cast<double>(m.panel_width()) * m.panel_height() * view.slabs() / static_cast<double>(std::max(total, 1LL));
  const int radius = sections ? std::clamp(static_cast<int>(std::lround(0.5 * std::sqrt(8.0 * share) - 0.5)), 0, 5)
                              : std::clamp(static_cast<int>(0.8 * options.max_side / std::sqrt(static_cast<double>(std::max(total, 1LL)))), 0, 5);
  detail::KeyBuffer keys(m.width(), m.height());
  const auto d = static_cast<std::size_t>(points.dim);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto s = view.locate(&points.coords[i * d]);
    keys.dot(s.x, s.y, radius, detail::pixel_key(0, s.closeness, parts[i]));
  }
  keys.reduce_to_root(comm);
  std::string message;
  if (comm.rank() == 0) {
    for (int pass = 0; sections && pass < 2; ++pass) detail::fill_holes(keys.keys(), m.width(), m.height());
    const std::vector<part_t> label = detail::parts_of(keys.keys());
    const auto colours = detail::part_colours(num_parts, detail::touching_parts(label, m.width(), m.height(), 4));
    // Sections are dense: lines between parts, as on grids. Scattered 2D dots are left alone.
    detail::Drawing drawing(m.width(), m.height());
    if (sections) drawing = detail::draw_labels(label, m.width(), m.height(), colours);
    else
      for (std::size_t k = 0; k < label.size(); ++k)
        if (label[k] >= 0) drawing.at(k) = colours[static_cast<std::size_t>(label[k])];
    drawing.labels = view.labels();
    message = detail::write_picture(path, drawing, options, colours);
  }
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::io, message);
}

void write_partition_png(const Comm& comm, const std::string& path, const PointSet& points,
                         std::span<const part_t> parts, int num_parts, int max_side) {
  PictureOptions options;
  options.max_side = max_side;
  write_partition_png(comm, path, points, parts, num_parts, options);
}

}  // namespace hpart
