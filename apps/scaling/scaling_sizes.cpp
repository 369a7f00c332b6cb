#include "scaling_sizes.hpp"

#include <algorithm>
#include <cmath>

#include "hpart/error.hpp"

namespace hpart_scaling {
namespace {

// The side of a d-dimensional case whose volume is `base_side`^d times `factor`.
long long side(long long base_side, double factor, int d) {
  return std::max(4LL, std::llround(static_cast<double>(base_side) * std::pow(factor, 1.0 / d)));
}

}  // namespace

Sizes sizes_for(const std::string& mode, const std::string& preset, int ranks) {
  double volume = 0.0;
  if (preset == "ci") volume = 1.0 / 64;
  else if (preset == "small") volume = 1.0 / 8;
  else if (preset == "default") volume = 1.0;
  else if (preset == "large") volume = 8.0;
  else throw hpart::Error(hpart::ErrorCode::invalid_argument, "unknown size '" + preset + "' (ci, small, default, large)");
  if (mode == "weak") volume *= ranks / 4.0;
  else if (mode != "strong")
    throw hpart::Error(hpart::ErrorCode::invalid_argument, "unknown mode '" + mode + "' (strong, weak)");
  Sizes s;
  s.mode = mode;
  s.preset = preset;
  s.ranks = ranks;
  s.parts = mode == "weak" ? 4 * ranks : 64;
  // Default strong sizes: each call takes roughly 0.03-0.3 s on one core.
  s.points = std::max(1024LL, std::llround((1 << 20) * volume));
  s.grid_side = side(1024, volume, 2);
  s.graph_side = side(64, volume, 3);
  s.drift_side = side(64, volume, 3);
  s.repart_graph_side = side(48, volume, 3);
  s.halo_side = side(1024, volume, 2);
  s.conv_side = side(512, volume, 2);
  s.channels = 8;
  return s;
}

}  // namespace hpart_scaling
