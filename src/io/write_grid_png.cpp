// The grid partition picture: rank 0 asks the partition's locator for the part of the cell under
// every pixel (no communication, no cell array: the locator answers for any cell), colours the
// parts that touch differently, draws thin dark lines where the part changes and, given the node
// of each part, thick black ones where the node changes. 3D grids: a panel per section through
// up to 4 cell layers of the thinnest axis.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/agreement.hpp"
#include "grid/grid_input.hpp"
#include "hpart/io.hpp"
#include "io/part_colouring.hpp"
#include "io/picture_canvas.hpp"
#include "io/picture_checks.hpp"
#include "io/picture_raster.hpp"

namespace hpart {
namespace {

// The cell layer a section shows: the middle of slab s of `slabs` over n layers.
std::int64_t middle_layer(int s, int slabs, std::int64_t n) { return (2 * s + 1) * n / (2 * slabs); }

// The part of each pixel of the montage (-1 in the gaps and label strips).
std::vector<part_t> sample_cells(const Grid& grid, const GridPartition& p, const detail::Montage& m,
                                 const detail::SliceAxes& axes, double scale) {
  const int w = m.width(), h = m.height();
  std::vector<part_t> label(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), -1);
  const std::int64_t na = grid.extent[static_cast<std::size_t>(axes.ax)], nb = grid.extent[static_cast<std::size_t>(axes.ay)];
  for (int s = 0; s < m.panels(); ++s) {
    Cell c{0, 0, 0, 0};
    if (axes.cut >= 0)
      c[static_cast<std::size_t>(axes.cut)] = middle_layer(s, m.panels(), grid.extent[static_cast<std::size_t>(axes.cut)]);
    for (int py = 0; py < m.panel_height(); ++py)
      for (int px = 0; px < m.panel_width(); ++px) {
        c[static_cast<std::size_t>(axes.ax)] = std::min(na - 1, static_cast<std::int64_t>(px / scale));
        c[static_cast<std::size_t>(axes.ay)] = std::min(nb - 1, static_cast<std::int64_t>((m.panel_height() - 1 - py) / scale));  // y upwards
        const std::size_t k = static_cast<std::size_t>(m.origin_y(s) + py) * static_cast<std::size_t>(w) +
                              static_cast<std::size_t>(m.origin_x(s) + px);
        label[k] = p.part_of(c);
      }
  }
  return label;
}

}  // namespace

void write_grid_partition_png(const Comm& comm, const std::string& path, const Grid& grid, const GridPartition& p,
                              const PictureOptions& options) {
  std::string message = grid::check_grid_shape(grid.dim, grid.extent);
  if (message.empty() && !p.locator) message = "the partition has no locator (use the result of partition_grid)";
  // Rank 0 alone draws: a part id, a colour and a canvas pixel per pixel.
  if (message.empty()) message = detail::check_picture(options, p.num_parts, comm.rank() == 0 ? 12.0 : 0.0);
  detail::Replicated args;
  args.text("file path", path)
      .value("grid dim", static_cast<long long>(grid.dim))
      .values("grid extent", std::span<const std::int64_t>(grid.extent))
      .value("num_parts", static_cast<long long>(p.num_parts));
  detail::agree_picture(comm, args, options, "write_grid_partition_png", message);
  message.clear();
  if (comm.rank() == 0) {
    const std::array<double, 3> extent{static_cast<double>(grid.extent[0]), static_cast<double>(grid.extent[1]),
                                       static_cast<double>(grid.extent[2])};
    const detail::SliceAxes axes = detail::slice_axes(grid.dim, extent);
    const int slabs = axes.cut >= 0 ? static_cast<int>(std::min<std::int64_t>(4, grid.extent[static_cast<std::size_t>(axes.cut)])) : 1;
    const double na = extent[static_cast<std::size_t>(axes.ax)], nb = extent[static_cast<std::size_t>(axes.ay)];
    detail::Montage m(slabs, na, nb, options.max_side);
    // The grid fills the panel: larger grids are sampled, smaller ones magnified.
    const double scale = std::min(m.box_width() / na, m.box_height() / nb);
    m.place(std::max(1, static_cast<int>(na * scale)), std::max(1, static_cast<int>(nb * scale)));
    const std::vector<part_t> label = sample_cells(grid, p, m, axes, scale);
    const auto colours = detail::part_colours(p.num_parts, detail::touching_parts(label, m.width(), m.height()));
    detail::Drawing drawing = detail::draw_labels(label, m.width(), m.height(), colours, options.node_of_part);
    for (int s = 0; s < slabs && slabs > 1; ++s) {
      const std::int64_t layer = middle_layer(s, slabs, grid.extent[static_cast<std::size_t>(axes.cut)]);
      drawing.labels.push_back(m.label(s, std::string("section ") + detail::axis_name(axes.cut) + " = " +
                                              std::to_string(layer) + " (cells 0.." +
                                              std::to_string(grid.extent[static_cast<std::size_t>(axes.cut)] - 1) + ")"));
    }
    message = detail::write_picture(path, drawing, options, colours);
  }
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::io, message);
}

void write_grid_partition_png(const Comm& comm, const std::string& path, const Grid& grid, const GridPartition& p,
                              int max_side) {
  PictureOptions options;
  options.max_side = max_side;
  write_grid_partition_png(comm, path, grid, p, options);
}

}  // namespace hpart
