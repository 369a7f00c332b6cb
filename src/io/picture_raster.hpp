#pragma once
// The distributed half of the partition pictures: where objects land (the montage of panels, and
// for coordinates the view and the 3D slabs), and the per-rank buffer of pixel keys that one MAX
// reduction merges onto rank 0. A key orders what a pixel shows: its layer first (graphs: cut
// edges < edges in a part < vertices), then how close the object is to its slab's middle (3D
// sections), then the part; so the merged picture is the same for any number of ranks.
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "hpart/comm.hpp"
#include "hpart/types.hpp"

namespace hpart::detail {

using PixelKey = std::uint64_t;  // 0: background
PixelKey pixel_key(int layer, double closeness, part_t part);  // layer 0..3, closeness in [0, 1], part >= -1
inline part_t key_part(PixelKey k) { return static_cast<part_t>(static_cast<std::int64_t>(k & 0xffffffffu) - 1); }
inline int key_layer(PixelKey k) { return static_cast<int>(k >> 62); }

struct PanelLabel {
  int x = 0, y = 0;  // top left of the label's strip in the drawing
  std::string text;
};

// Panels of equal size in a grid of cols x rows, each under a strip for its label (when there is
// more than one panel), `kGap` pixels apart. Chosen to show the panels' content (ex x ey units
// each) as large as it fits max_side x max_side.
class Montage {
 public:
  static constexpr int kGap = 10, kStrip = 20;
  Montage(int panels, double ex, double ey, int max_side);
  // The largest panel (pixels) the layout allows; the caller sizes its panels within it.
  [[nodiscard]] int box_width() const { return box_w_; }
  [[nodiscard]] int box_height() const { return box_h_; }
  // Fixes the panels' size; then the drawing's size and each panel's top left are known.
  void place(int panel_width, int panel_height);
  [[nodiscard]] int panels() const { return panels_; }
  [[nodiscard]] int panel_width() const { return pw_; }
  [[nodiscard]] int panel_height() const { return ph_; }
  [[nodiscard]] int width() const { return cols_ * pw_ + (cols_ - 1) * kGap; }
  [[nodiscard]] int height() const { return rows_ * (ph_ + strip_) + (rows_ - 1) * kGap; }
  [[nodiscard]] int origin_x(int panel) const { return (panel % cols_) * (pw_ + kGap); }
  [[nodiscard]] int origin_y(int panel) const { return (panel / cols_) * (ph_ + strip_ + kGap) + strip_; }
  [[nodiscard]] PanelLabel label(int panel, std::string text) const {
    return {origin_x(panel), origin_y(panel) - strip_, std::move(text)};
  }

 private:
  int panels_ = 1, cols_ = 1, rows_ = 1, strip_ = 0, box_w_ = 1, box_h_ = 1, pw_ = 1, ph_ = 1;
};

// 3D: the axis to cut into slabs (the thinnest; ties: the last) and the two shown; 2D: axes 0, 1.
struct SliceAxes {
  int cut = -1, ax = 0, ay = 1;  // cut -1: no slabs
};
SliceAxes slice_axes(int dim, std::span<const double> extent);
const char* axis_name(int axis);  // "x", "y", "z"

// Where points land. Collective (one allreduce: the bounding box). Positions are taken in half
// units, x/2 - x0/2: unlike x - x0, that never overflows, so points over +-1e308 still fill it.
class CoordView {
 public:
  CoordView(const Comm& comm, std::span<const double> coords, int dim, int max_side);
  struct Spot {
    int x = 0, y = 0;        // pixel in the drawing
    int slab = 0;            // panel
    double closeness = 1.0;  // 1 at the slab's middle plane, 0 at its faces
  };
  [[nodiscard]] Spot locate(const double* point) const;
  [[nodiscard]] const Montage& montage() const { return montage_; }
  [[nodiscard]] std::vector<PanelLabel> labels() const;
  [[nodiscard]] int slabs() const { return montage_.panels(); }

 private:
  int dim_ = 2;
  SliceAxes axes_;
  double lo_[3] = {0, 0, 0}, half_extent_[3] = {0, 0, 0};
  double scale_ = 1;  // pixels per half unit
  Montage montage_;
};

// One rank's pixel keys; reduce() merges them onto rank 0 (MAX).
class KeyBuffer {
 public:
  KeyBuffer(int width, int height);
  [[nodiscard]] int width() const { return w_; }
  [[nodiscard]] int height() const { return h_; }
  void put(int x, int y, PixelKey key);  // ignores pixels outside
  void dot(int x, int y, int radius, PixelKey key);
  void line(int x0, int y0, int x1, int y1, PixelKey key);  // Bresenham, both ends included
  void reduce_to_root(const Comm& comm);
  [[nodiscard]] const std::vector<PixelKey>& keys() const { return keys_; }
  [[nodiscard]] std::vector<PixelKey>& keys() { return keys_; }

 private:
  int w_, h_;
  std::vector<PixelKey> keys_;
};

// Rank 0, sections of 3D points: a background pixel with at least 6 of its 8 neighbours drawn
// takes the largest of their keys (a hole between dots, not a gap in the set).
void fill_holes(std::vector<PixelKey>& keys, int width, int height);

// The part of each pixel (-1: background), e.g. for touching_parts.
std::vector<part_t> parts_of(std::span<const PixelKey> keys);

}  // namespace hpart::detail
