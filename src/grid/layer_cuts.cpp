#include "grid/layer_cuts.hpp"

namespace hpart::grid {

std::int64_t nearest_boundary(std::span<const std::int64_t> bins, std::int64_t lo, std::int64_t hi,
                              std::int64_t num, std::int64_t den) {
  __extension__ typedef __int128 wide;  // prefix * den exceeds 64 bits for large weights
  wide total = 0;
  for (const std::int64_t b : bins) total += b;
  const wide target = total * num;  // compare prefix * den with it
  wide prefix = 0;
  for (std::int64_t c = 0; c < lo; ++c) prefix += bins[static_cast<std::size_t>(c)];
  std::int64_t best = lo;
  wide best_gap = -1;
  for (std::int64_t c = lo; c <= hi; ++c) {
    const wide diff = prefix * den - target;
    const wide gap = diff < 0 ? -diff : diff;
    if (best_gap < 0 || gap < best_gap) best = c, best_gap = gap;
    if (diff > 0) break;  // prefixes only grow from here
    if (c < static_cast<std::int64_t>(bins.size())) prefix += bins[static_cast<std::size_t>(c)];
  }
  return best;
}

}  // namespace hpart::grid
