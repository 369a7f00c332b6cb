#pragma once
// Pure helpers (no MPI) for box-shaped grid methods: cost marginals are binned per cell layer,
// and a cut is placed at the layer boundary nearest a target share of the weight.
#include <cstdint>
#include <span>

namespace hpart::grid {

// Marginals never exceed this many bins; longer sides group layers (cuts then fall on bin
// edges), so no rank holds an array of the grid's full side on huge 2D grids.
inline constexpr std::int64_t kMaxBins = std::int64_t{1} << 20;

inline std::int64_t layers_per_bin(std::int64_t layers) { return (layers + kMaxBins - 1) / kMaxBins; }
inline std::int64_t bin_count(std::int64_t layers) {
  const std::int64_t per = layers_per_bin(layers);
  return (layers + per - 1) / per;
}

// Index c in [lo, hi] of the bin boundary (c bins below) whose prefix weight is nearest to
// total * num / den; ties go to the lower boundary. Exact in 128-bit integers.
std::int64_t nearest_boundary(std::span<const std::int64_t> bins, std::int64_t lo, std::int64_t hi,
                              std::int64_t num, std::int64_t den);

}  // namespace hpart::grid
