#pragma once
// Colours of the partition pictures (pure, no MPI): which parts touch in a picture, and a greedy
// colouring of that part adjacency graph over a palette of well-separated colours, so that parts
// that touch never share a colour.
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "hpart/types.hpp"

namespace hpart::detail {

struct Rgb {
  std::uint8_t r, g, b;
};

using PartPair = std::pair<part_t, part_t>;

// The colour of palette index i: the first kPaletteSize are hand-picked well-separated colours
// (from Kelly's colours of maximum contrast); beyond them, hues spaced by the golden angle.
inline constexpr int kPaletteSize = 12;
Rgb palette_colour(int index);

// The "redmean" approximation of perceived colour distance (0..765; compuphase): cheap, and far
// better than plain RGB distance at separating the reds and greens a palette mixes. Colours
// closer than kClearlyDifferent are told apart only with effort (the palette's near pairs: pink
// and buff, yellow and orange, red and brown, blue and teal, green and teal).
double colour_distance(Rgb a, Rgb b);
inline constexpr double kClearlyDifferent = 160.0;

// A palette index per part in [0, num_parts): DSatur (the uncoloured part with the most distinct
// colours among its neighbours first, then the most neighbours, then the lowest id). A part
// takes a colour none of its neighbours has; among those, one that differs clearly from every
// coloured neighbour's (colour_distance), then one no part two steps away has (repeats stay
// apart), then the least used so far (the palette spreads over the picture), then the lowest. Pairs (a, b) with a == b or outside [0, num_parts) are
// ignored; repeated pairs count once. Deterministic: the same pairs in any order give the same
// colours.
std::vector<int> colour_parts(int num_parts, std::span<const PartPair> adjacent);
// The same as colours: palette_colour of each part's index.
std::vector<Rgb> part_colours(int num_parts, std::span<const PartPair> adjacent);

// A colour scaled towards black (f < 1): edges of parts, vertices on their part's edges.
Rgb darker(Rgb c, double f);

// The pairs of different parts whose pixels touch in a w x h picture of part ids (row-major,
// -1 = background): along rows and columns, across up to `reach` - 1 background pixels (dots of
// sparse points that face each other across a gap). Each pair as (smaller, larger), sorted, unique.
std::vector<PartPair> touching_parts(std::span<const part_t> label, int width, int height, int reach = 1);

}  // namespace hpart::detail
