#pragma once
// The rank-0 half of the partition pictures: a coloured drawing (panels of pixels, labels above
// the panels) put under a header (title, legend lines, part swatches) and written as a PNG with
// cairo, which draws the text with a real font. Without the PNG feature, write_picture returns
// the "built without PNG" message (the writers check that at their entry already).
#include <span>
#include <string>
#include <vector>

#include "hpart/io.hpp"
#include "io/part_colouring.hpp"
#include "io/picture_raster.hpp"

namespace hpart::detail {

struct Drawing {
  int width = 0, height = 0;
  std::vector<Rgb> pixels;  // width x height, row-major, top row first
  std::vector<PanelLabel> labels;

  Drawing(int w, int h) : width(w), height(h), pixels(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), Rgb{255, 255, 255}) {}
  Rgb& at(std::size_t k) { return pixels[k]; }
};

// A picture of part ids (-1: background) in its parts' colours, with thin dark lines between
// parts (the right and lower pixel of a change) and, given the node of each part, black lines two
// pixels wide (both sides of a change) between nodes.
Drawing draw_labels(std::span<const part_t> label, int width, int height, std::span<const Rgb> colours,
                    std::span<const int> node_of_part = {});

// Swatches (a box of each part's colour and its number) are drawn when there are at most this
// many parts; beyond, the colours repeat too often for a key to help.
inline constexpr int kMaxSwatches = 32;

// Writes the picture; "" or why it failed ("cannot open 'path' for writing", ...).
std::string write_picture(const std::string& path, const Drawing& drawing, const PictureOptions& options,
                          std::span<const Rgb> part_colours);

}  // namespace hpart::detail
