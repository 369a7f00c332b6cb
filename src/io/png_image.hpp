#pragma once
// Pure helpers of the partition picture (no MPI): the part palette and a PNG encoder.
#include <cstdint>
#include <string>
#include <vector>

namespace hpart::detail {

struct Rgb {
  std::uint8_t r, g, b;
};

// A colour per part: hues spaced by the golden angle, so neighbouring part ids (which are
// neighbouring regions along a curve) get clearly different colours; lightness alternates.
Rgb part_colour(int part);

// Writes an 8-bit RGB PNG; returns "" or why it failed.
std::string write_png_rgb(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgb);

}  // namespace hpart::detail
