#include "io/picture_raster.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace hpart::detail {

PixelKey pixel_key(int layer, double closeness, part_t part) {
  const auto depth = static_cast<std::uint64_t>(std::clamp(closeness, 0.0, 1.0) * static_cast<double>((1u << 30) - 1));
  return (static_cast<std::uint64_t>(layer & 3) << 62) | (depth << 32) |
         static_cast<std::uint64_t>(static_cast<std::uint32_t>(part + 1));
}

Montage::Montage(int panels, double ex, double ey, int max_side) : panels_(std::max(panels, 1)) {
  strip_ = panels_ > 1 ? kStrip : 0;
  ex = std::max(ex, 1e-300);
  ey = std::max(ey, 1e-300);
  double best = -1;
  for (int cols = 1; cols <= panels_; ++cols) {
    const int rows = (panels_ + cols - 1) / cols;
    const int bw = std::max(1, (max_side - kGap * (cols - 1)) / cols);
    const int bh = std::max(1, (max_side - kGap * (rows - 1)) / rows - strip_);
    const double scale = std::min(bw / ex, bh / ey);
    if (scale > best) best = scale, cols_ = cols, rows_ = rows, box_w_ = bw, box_h_ = bh;
  }
  pw_ = box_w_;
  ph_ = box_h_;
}

void Montage::place(int panel_width, int panel_height) {
  pw_ = std::max(1, panel_width);
  ph_ = std::max(1, panel_height);
}

SliceAxes slice_axes(int dim, std::span<const double> extent) {
  SliceAxes s;
  if (dim != 3) return s;
  s.cut = 2;
  for (int a = 1; a >= 0; --a)
    if (extent[static_cast<std::size_t>(a)] < extent[static_cast<std::size_t>(s.cut)]) s.cut = a;
  s.ax = s.cut == 0 ? 1 : 0;
  s.ay = s.cut == 2 ? 1 : 2;
  return s;
}

const char* axis_name(int axis) { return axis == 0 ? "x" : axis == 1 ? "y" : "z"; }

CoordView::CoordView(const Comm& comm, std::span<const double> coords, int dim, int max_side)
    : dim_(dim), montage_(1, 1, 1, max_side) {
  const auto d = static_cast<std::size_t>(dim);
  std::array<double, 6> lo_neg_hi;  // min x.., -max x..
  lo_neg_hi.fill(INFINITY);
  for (std::size_t i = 0; i + d <= coords.size(); i += d)
    for (std::size_t a = 0; a < d; ++a) {
      lo_neg_hi[a] = std::min(lo_neg_hi[a], coords[i + a]);
      lo_neg_hi[3 + a] = std::min(lo_neg_hi[3 + a], -coords[i + a]);
    }
  MPI_Allreduce(MPI_IN_PLACE, lo_neg_hi.data(), 6, MPI_DOUBLE, MPI_MIN, comm.get());
  for (std::size_t a = 0; a < d; ++a) {
    if (lo_neg_hi[a] == INFINITY) lo_neg_hi[a] = lo_neg_hi[3 + a] = 0.0;  // no rank holds a point
    lo_[a] = lo_neg_hi[a];
    half_extent_[a] = -lo_neg_hi[3 + a] * 0.5 - lo_neg_hi[a] * 0.5;
  }
  axes_ = slice_axes(dim, std::span<const double>(half_extent_, 3));
  const int slabs = axes_.cut >= 0 && half_extent_[axes_.cut] > 0 ? 4 : 1;
  const double ex = std::max(half_extent_[axes_.ax], 1e-300), ey = std::max(half_extent_[axes_.ay], 1e-300);
  montage_ = Montage(slabs, ex, ey, max_side);
  scale_ = std::min((montage_.box_width() - 1) / ex, (montage_.box_height() - 1) / ey);
  montage_.place(std::max(16, static_cast<int>(std::lround(ex * scale_)) + 1),
                 std::max(16, static_cast<int>(std::lround(ey * scale_)) + 1));
}

CoordView::Spot CoordView::locate(const double* point) const {
  Spot s;
  if (axes_.cut >= 0 && montage_.panels() > 1) {
    const int n = montage_.panels();
    const double t = (point[axes_.cut] * 0.5 - lo_[axes_.cut] * 0.5) / half_extent_[axes_.cut] * n;  // in [0, n]
    s.slab = std::clamp(static_cast<int>(t), 0, n - 1);
    s.closeness = std::clamp(1.0 - 2.0 * std::fabs(t - (s.slab + 0.5)), 0.0, 1.0);
  }
  const int px = static_cast<int>(std::lround((point[axes_.ax] * 0.5 - lo_[axes_.ax] * 0.5) * scale_));
  const int py = static_cast<int>(std::lround((point[axes_.ay] * 0.5 - lo_[axes_.ay] * 0.5) * scale_));
  s.x = montage_.origin_x(s.slab) + px;
  s.y = montage_.origin_y(s.slab) + montage_.panel_height() - 1 - py;  // y grows upwards
  return s;
}

std::vector<PanelLabel> CoordView::labels() const {
  std::vector<PanelLabel> out;
  const int n = montage_.panels();
  if (n < 2) return out;
  for (int s = 0; s < n; ++s) {
    // The middle of slab s, in half units from lo (no overflow near +-1.8e308).
    const double mid = lo_[axes_.cut] + half_extent_[axes_.cut] * (2.0 * (s + 0.5) / n);
    char text[64];
    std::snprintf(text, sizeof text, "section %s = %.4g", axis_name(axes_.cut), mid);
    out.push_back(montage_.label(s, text));
  }
  return out;
}

KeyBuffer::KeyBuffer(int width, int height)
    : w_(width), h_(height), keys_(static_cast<std::size_t>(width) * static_cast<std::size_t>(height), 0) {}

void KeyBuffer::put(int x, int y, PixelKey key) {
  if (x < 0 || y < 0 || x >= w_ || y >= h_) return;
  PixelKey& k = keys_[static_cast<std::size_t>(y) * static_cast<std::size_t>(w_) + static_cast<std::size_t>(x)];
  k = std::max(k, key);
}

void KeyBuffer::dot(int x, int y, int radius, PixelKey key) {
  for (int v = y - radius; v <= y + radius; ++v)
    for (int u = x - radius; u <= x + radius; ++u) put(u, v, key);
}

void KeyBuffer::line(int x0, int y0, int x1, int y1, PixelKey key) {
  const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
  const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
  int err = dx + dy;
  for (;;) {
    put(x0, y0, key);
    if (x0 == x1 && y0 == y1) return;
    const int e2 = 2 * err;
    if (e2 >= dy) err += dy, x0 += sx;
    if (e2 <= dx) err += dx, y0 += sy;
  }
}

void KeyBuffer::reduce_to_root(const Comm& comm) {
  MPI_Reduce(comm.rank() == 0 ? MPI_IN_PLACE : keys_.data(), keys_.data(), static_cast<int>(keys_.size()),
             MPI_UINT64_T, MPI_MAX, 0, comm.get());
}

void fill_holes(std::vector<PixelKey>& keys, int width, int height) {
  const std::vector<PixelKey> before = keys;
  const auto w = static_cast<std::size_t>(width);
  for (int y = 1; y + 1 < height; ++y)
    for (int x = 1; x + 1 < width; ++x) {
      const std::size_t k = static_cast<std::size_t>(y) * w + static_cast<std::size_t>(x);
      if (before[k] != 0) continue;
      int drawn = 0;
      PixelKey best = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const PixelKey n = before[static_cast<std::size_t>(y + dy) * w + static_cast<std::size_t>(x + dx)];
          drawn += n != 0 ? 1 : 0;
          best = std::max(best, n);
        }
      if (drawn >= 6) keys[k] = best;
    }
}

std::vector<part_t> parts_of(std::span<const PixelKey> keys) {
  std::vector<part_t> out(keys.size());
  std::transform(keys.begin(), keys.end(), out.begin(), [](PixelKey k) { return key_part(k); });
  return out;
}

}  // namespace hpart::detail
