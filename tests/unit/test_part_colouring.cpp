// The colouring of the partition pictures (io/part_colouring): parts that touch never share a
// colour, the palette is used before any extra colour, and the result does not depend on the
// order of the pairs.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "io/part_colouring.hpp"

namespace {

using hpart::detail::PartPair;

// The part adjacency of an nx x ny array of box parts (4-neighbours), as touching_parts finds it.
std::vector<PartPair> box_grid(int nx, int ny) {
  std::vector<PartPair> pairs;
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      if (x + 1 < nx) pairs.emplace_back(y * nx + x, y * nx + x + 1);
      if (y + 1 < ny) pairs.emplace_back(y * nx + x, (y + 1) * nx + x);
    }
  return pairs;
}

void expect_proper(const std::vector<int>& colour, const std::vector<PartPair>& pairs) {
  for (const auto& [a, b] : pairs)
    EXPECT_NE(colour[static_cast<std::size_t>(a)], colour[static_cast<std::size_t>(b)]) << "parts " << a << " and " << b;
}

TEST(PartColouring, AdjacentPartsDiffer) {
  const auto pairs = box_grid(8, 8);
  const auto colour = hpart::detail::colour_parts(64, pairs);
  ASSERT_EQ(colour.size(), 64u);
  expect_proper(colour, pairs);
  // A planar map of boxes needs few colours: all from the palette.
  for (const int c : colour) EXPECT_LT(c, hpart::detail::kPaletteSize);
  // And the picture does not show 64 parts in one or two colours: the palette is spread.
  EXPECT_EQ(std::set<int>(colour.begin(), colour.end()).size(), static_cast<std::size_t>(hpart::detail::kPaletteSize));
}

TEST(PartColouring, NeighboursGetClearlyDifferentColours) {
  // Pink and buff, yellow and orange are the palette's closest pairs: a part between parts of
  // those colours still gets one clearly different from both (never two near twins side by side).
  const auto pairs = box_grid(6, 5);
  const auto colour = hpart::detail::colour_parts(30, pairs);
  for (const auto& [a, b] : pairs) {
    const auto ca = hpart::detail::palette_colour(colour[static_cast<std::size_t>(a)]);
    const auto cb = hpart::detail::palette_colour(colour[static_cast<std::size_t>(b)]);
    EXPECT_GE(hpart::detail::colour_distance(ca, cb), hpart::detail::kClearlyDifferent) << "parts " << a << " and " << b;
  }
}

TEST(PartColouring, DenseAdjacencyUsesExtraColoursAndStaysProper) {
  // A clique of 20 parts: every part needs its own colour, 8 beyond the palette.
  std::vector<PartPair> pairs;
  for (int a = 0; a < 20; ++a)
    for (int b = a + 1; b < 20; ++b) pairs.emplace_back(a, b);
  const auto colour = hpart::detail::colour_parts(20, pairs);
  EXPECT_EQ(std::set<int>(colour.begin(), colour.end()).size(), 20u);
  expect_proper(colour, pairs);
  const auto extra = hpart::detail::palette_colour(hpart::detail::kPaletteSize);
  const auto first = hpart::detail::palette_colour(0);
  EXPECT_FALSE(extra.r == first.r && extra.g == first.g && extra.b == first.b);
}

TEST(PartColouring, OrderAndRepeatsOfPairsDoNotMatter) {
  auto pairs = box_grid(7, 5);
  const auto colour = hpart::detail::colour_parts(35, pairs);
  std::vector<PartPair> shuffled = pairs;
  for (const auto& [a, b] : pairs) shuffled.emplace_back(b, a);  // reversed repeats
  shuffled.emplace_back(3, 3);                                    // ignored: a self pair
  shuffled.emplace_back(-1, 4);                                   // ignored: out of range
  shuffled.emplace_back(4, 35);
  std::mt19937 rng(5);
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  EXPECT_EQ(hpart::detail::colour_parts(35, shuffled), colour);
}

TEST(PartColouring, TouchingPartsFromAPicture) {
  // 0 0 . 1      part 0 touches 1 across one background pixel (reach 2), 2 below both.
  // 2 2 2 2
  const std::vector<hpart::part_t> label{0, 0, -1, 1, 2, 2, 2, 2};
  EXPECT_EQ(hpart::detail::touching_parts(label, 4, 2, 1), (std::vector<PartPair>{{0, 2}, {1, 2}}));
  EXPECT_EQ(hpart::detail::touching_parts(label, 4, 2, 2), (std::vector<PartPair>{{0, 1}, {0, 2}, {1, 2}}));
  // Colours from such a picture differ wherever parts touch.
  const auto pairs = hpart::detail::touching_parts(label, 4, 2, 2);
  expect_proper(hpart::detail::colour_parts(3, pairs), pairs);
}

}  // namespace
