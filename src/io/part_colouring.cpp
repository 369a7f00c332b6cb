#include "io/part_colouring.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <set>
#include <tuple>

namespace hpart::detail {
namespace {

// Kelly (1965), "Twenty-two colors of maximum contrast", less white, black and grey (the
// pictures' background, lines and cut edges) and the near twins of the colours kept (greenish
// yellow, orange yellow, reddish orange, violet, yellowish pink, olive, deep brown, purplish
// red), plus a teal Kelly's list lacks. The closest pairs left (kClearlyDifferent) are kept
// apart by colour_parts.
constexpr std::array<Rgb, kPaletteSize> kPalette{{
    {0xF3, 0xC3, 0x00}, {0x00, 0x67, 0xA5}, {0xBE, 0x00, 0x32}, {0x8D, 0xB6, 0x00}, {0x87, 0x56, 0x92},
    {0xF3, 0x84, 0x00}, {0xA1, 0xCA, 0xF1}, {0x00, 0x88, 0x56}, {0xE6, 0x8F, 0xAC}, {0x88, 0x2D, 0x17},
    {0xC2, 0xB2, 0x80}, {0x1B, 0xA8, 0xA8},
}};

}  // namespace

double colour_distance(Rgb a, Rgb b) {
  const double rm = (a.r + b.r) / 2.0, dr = a.r - b.r, dg = a.g - b.g, db = a.b - b.b;
  return std::sqrt((2.0 + rm / 256.0) * dr * dr + 4.0 * dg * dg + (2.0 + (255.0 - rm) / 256.0) * db * db);
}

Rgb palette_colour(int index) {
  if (index >= 0 && index < kPaletteSize) return kPalette[static_cast<std::size_t>(index)];
  // Beyond the palette (a part with kPaletteSize differently coloured neighbours): golden-angle
  // hues, alternating in lightness.
  const int k = index - kPaletteSize;
  const double h = std::fmod(k * 0.6180339887498949, 1.0) * 6.0;
  const double s = 0.70, v = k % 2 == 0 ? 0.92 : 0.70;
  const double c = v * s, x = c * (1.0 - std::fabs(std::fmod(h, 2.0) - 1.0)), m = v - c;
  std::array<double, 3> rgb{};
  switch (static_cast<int>(h)) {
    case 0: rgb = {c, x, 0}; break;
    case 1: rgb = {x, c, 0}; break;
    case 2: rgb = {0, c, x}; break;
    case 3: rgb = {0, x, c}; break;
    case 4: rgb = {x, 0, c}; break;
    default: rgb = {c, 0, x}; break;
  }
  auto byte = [m](double u) { return static_cast<std::uint8_t>(std::lround((u + m) * 255.0)); };
  return {byte(rgb[0]), byte(rgb[1]), byte(rgb[2])};
}

std::vector<int> colour_parts(int num_parts, std::span<const PartPair> adjacent) {
  const auto k = static_cast<std::size_t>(std::max(num_parts, 0));
  std::vector<std::vector<part_t>> nbrs(k);
  for (const auto& [a, b] : adjacent)
    if (a != b && a >= 0 && b >= 0 && a < num_parts && b < num_parts) {
      nbrs[static_cast<std::size_t>(a)].push_back(b);
      nbrs[static_cast<std::size_t>(b)].push_back(a);
    }
  for (auto& n : nbrs) {
    std::sort(n.begin(), n.end());
    n.erase(std::unique(n.begin(), n.end()), n.end());
  }
  std::vector<int> colour(k, -1);
  std::vector<std::set<int>> seen(k);  // distinct colours among each part's coloured neighbours
  std::vector<long long> used;         // parts per colour so far
  // The next part: most distinct neighbour colours, then most neighbours, then lowest id.
  using Key = std::tuple<int, int, part_t>;  // (-saturation, -degree, id): smallest first
  auto key = [&](std::size_t p) { return Key{-static_cast<int>(seen[p].size()), -static_cast<int>(nbrs[p].size()), static_cast<part_t>(p)}; };
  std::set<Key> queue;
  for (std::size_t p = 0; p < k; ++p) queue.insert(key(p));
  while (!queue.empty()) {
    const auto p = static_cast<std::size_t>(std::get<2>(*queue.begin()));
    queue.erase(queue.begin());
    // Colours of the parts two steps away: a colour they do not have keeps repeats apart.
    std::set<int> near;
    for (const part_t q : nbrs[p])
      for (const part_t r : nbrs[static_cast<std::size_t>(q)])
        if (static_cast<std::size_t>(r) != p && colour[static_cast<std::size_t>(r)] >= 0) near.insert(colour[static_cast<std::size_t>(r)]);
    // Candidates: the palette colours none of the neighbours has (when the neighbours have them
    // all, the first extra colour none has). Best first: clearly different from every
    // neighbour's colour (else the farthest from the nearest), not used two steps away, the
    // least used so far, the lowest index.
    using Rank = std::tuple<bool, double, bool, long long, int>;
    int best = -1;
    Rank best_rank{};
    for (int c = 0; c < kPaletteSize; ++c) {
      if (seen[p].count(c) != 0) continue;
      double gap = std::numeric_limits<double>::infinity();
      for (const int o : seen[p]) gap = std::min(gap, colour_distance(palette_colour(c), palette_colour(o)));
      const bool clear = gap >= kClearlyDifferent;
      const long long uses = static_cast<std::size_t>(c) < used.size() ? used[static_cast<std::size_t>(c)] : 0;
      const Rank rank{!clear, clear ? 0.0 : -gap, near.count(c) != 0, uses, c};
      if (best < 0 || rank < best_rank) best = c, best_rank = rank;
    }
    if (best < 0)
      for (best = kPaletteSize; seen[p].count(best) != 0;) ++best;
    colour[p] = best;
    if (used.size() <= static_cast<std::size_t>(best)) used.resize(static_cast<std::size_t>(best) + 1, 0);
    ++used[static_cast<std::size_t>(best)];
    for (const part_t q : nbrs[p]) {
      const auto qi = static_cast<std::size_t>(q);
      if (colour[qi] >= 0 || seen[qi].count(best) != 0) continue;
      queue.erase(key(qi));
      seen[qi].insert(best);
      queue.insert(key(qi));
    }
  }
  return colour;
}

std::vector<Rgb> part_colours(int num_parts, std::span<const PartPair> adjacent) {
  const std::vector<int> index = colour_parts(num_parts, adjacent);
  std::vector<Rgb> out(index.size());
  std::transform(index.begin(), index.end(), out.begin(), palette_colour);
  return out;
}

Rgb darker(Rgb c, double f) {
  auto scale = [f](std::uint8_t u) { return static_cast<std::uint8_t>(std::lround(u * f)); };
  return {scale(c.r), scale(c.g), scale(c.b)};
}

std::vector<PartPair> touching_parts(std::span<const part_t> label, int width, int height, int reach) {
  std::vector<PartPair> pairs;
  std::size_t limit = 4096;
  const auto w = static_cast<std::size_t>(width), h = static_cast<std::size_t>(height);
  auto add = [&](part_t a, part_t b) {
    if (a != b) pairs.emplace_back(std::min(a, b), std::max(a, b));
  };
  for (std::size_t y = 0; y < h; ++y)
    for (std::size_t x = 0; x < w; ++x) {
      const part_t a = label[y * w + x];
      if (a < 0) continue;
      // The next non-background pixel to the right and below, within reach.
      for (std::size_t d = 1; d <= static_cast<std::size_t>(reach) && x + d < w; ++d)
        if (const part_t b = label[y * w + x + d]; b >= 0) {
          add(a, b);
          break;
        }
      for (std::size_t d = 1; d <= static_cast<std::size_t>(reach) && y + d < h; ++d)
        if (const part_t b = label[(y + d) * w + x]; b >= 0) {
          add(a, b);
          break;
        }
      // Keep the list short on large pictures: most boundary pixels repeat a pair.
      if (pairs.size() > limit) {
        std::sort(pairs.begin(), pairs.end());
        pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
        limit = 2 * pairs.size() + 4096;
      }
    }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

}  // namespace hpart::detail
