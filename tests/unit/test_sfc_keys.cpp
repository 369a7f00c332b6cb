// Morton and Hilbert keys, the cell mapping and compute_keys.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "kernels/bounding_box.hpp"
#include "kernels/hilbert_reference.hpp"
#include "kernels/sfc_keys.hpp"
#include "hpart/error.hpp"

namespace hpart::geometry {
namespace {

constexpr std::uint32_t kMax21 = (1u << 21) - 1u;

// Independent per-bit interleave: bit n*i + j of the key is bit i of axis j.
template <std::size_t Dim>
std::uint64_t morton_by_bits(const std::array<std::uint32_t, Dim>& p, int bits) {
  std::uint64_t key = 0;
  for (int i = 0; i < bits; ++i)
    for (std::size_t j = 0; j < Dim; ++j)
      key |= static_cast<std::uint64_t>((p[j] >> i) & 1u)
             << (Dim * static_cast<std::size_t>(i) + j);
  return key;
}

template <std::size_t Dim>
using Cell = std::array<std::uint32_t, Dim>;

// Every cell of a (2^level)^Dim grid, each coordinate in the top `level` bits of `bits`.
template <std::size_t Dim>
std::vector<Cell<Dim>> full_grid(int level) {
  const std::uint32_t side = 1u << level;
  std::size_t count = 1;
  for (std::size_t j = 0; j < Dim; ++j) count *= side;
  std::vector<Cell<Dim>> cells(count);
  for (std::size_t c = 0; c < count; ++c) {
    std::size_t rest = c;
    for (std::size_t j = 0; j < Dim; ++j) {
      cells[c][j] = static_cast<std::uint32_t>(rest % side);
      rest /= side;
    }
  }
  return cells;
}

std::uint64_t key_of(Curve curve, const Cell<2>& c, int level) {
  const int shift = kBits2d - level;
  const std::uint32_t x = c[0] << shift;
  const std::uint32_t y = c[1] << shift;
  return curve == Curve::hilbert ? hilbert_key_2d(x, y) : morton_key_2d(x, y);
}

std::uint64_t key_of(Curve curve, const Cell<3>& c, int level) {
  const int shift = kBits3d - level;
  const std::uint32_t x = c[0] << shift;
  const std::uint32_t y = c[1] << shift;
  const std::uint32_t z = c[2] << shift;
  return curve == Curve::hilbert ? hilbert_key_3d(x, y, z) : morton_key_3d(x, y, z);
}

// The grid's cells sorted by key, after checking that the keys' top Dim*level bits are a
// bijection onto [0, 2^(Dim*level)). (Below them Morton keys are zero; Hilbert keys are not,
// since the zero low coordinate bits still take the sub-cube's orientation.)
template <std::size_t Dim>
std::vector<Cell<Dim>> cells_in_curve_order(Curve curve, int level) {
  const int key_bits = Dim == 2 ? 2 * kBits2d : 3 * kBits3d;
  const int coarse_shift = key_bits - static_cast<int>(Dim) * level;
  const std::vector<Cell<Dim>> cells = full_grid<Dim>(level);
  std::vector<Cell<Dim>> ordered(cells.size());
  std::vector<bool> seen(cells.size(), false);
  for (const Cell<Dim>& c : cells) {
    const std::uint64_t key = key_of(curve, c, level);
    if (curve == Curve::morton) {
      EXPECT_EQ(key & ((std::uint64_t{1} << coarse_shift) - 1), 0u);
    }
    const std::uint64_t rank = key >> coarse_shift;
    EXPECT_LT(rank, cells.size());
    if (rank >= cells.size()) continue;
    EXPECT_FALSE(seen[rank]) << "two cells share key rank " << rank;
    seen[rank] = true;
    ordered[rank] = c;
  }
  return ordered;
}

template <std::size_t Dim>
int manhattan(const Cell<Dim>& a, const Cell<Dim>& b) {
  int d = 0;
  for (std::size_t j = 0; j < Dim; ++j)
    d += std::abs(static_cast<int>(a[j]) - static_cast<int>(b[j]));
  return d;
}

TEST(Morton, KnownValues2d) {
  EXPECT_EQ(morton_key_2d(0, 0), 0u);
  EXPECT_EQ(morton_key_2d(1, 0), 1u);  // x is the lowest bit of each pair
  EXPECT_EQ(morton_key_2d(0, 1), 2u);
  EXPECT_EQ(morton_key_2d(3, 0), 5u);
  EXPECT_EQ(morton_key_2d(2, 3), 0b1110u);
  EXPECT_EQ(morton_key_2d(0xFFFFFFFFu, 0), 0x5555555555555555ull);
  EXPECT_EQ(morton_key_2d(0, 0xFFFFFFFFu), 0xAAAAAAAAAAAAAAAAull);
  EXPECT_EQ(morton_key_2d(0xFFFFFFFFu, 0xFFFFFFFFu), ~std::uint64_t{0});
}

TEST(Morton, KnownValues3d) {
  EXPECT_EQ(morton_key_3d(1, 0, 0), 1u);
  EXPECT_EQ(morton_key_3d(0, 1, 0), 2u);
  EXPECT_EQ(morton_key_3d(0, 0, 1), 4u);
  EXPECT_EQ(morton_key_3d(5, 0, 0), 0b1000001u);
  EXPECT_EQ(morton_key_3d(1, 2, 3), 0b110101u);  // level 1: (0,1,1), level 0: (1,0,1)
  EXPECT_EQ(morton_key_3d(kMax21, 0, 0), 0x1249249249249249ull);
  EXPECT_EQ(morton_key_3d(kMax21, kMax21, kMax21), (std::uint64_t{1} << 63) - 1);
  // Bits above the 21st are not part of a 3D key.
  EXPECT_EQ(morton_key_3d(1u << 21, 1u << 22, 0xFFE00000u), 0u);
}

TEST(Morton, MatchesPerBitInterleaveOnRandomInputs) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 10000; ++i) {
    const auto x = static_cast<std::uint32_t>(rng());
    const auto y = static_cast<std::uint32_t>(rng());
    const auto z = static_cast<std::uint32_t>(rng());
    ASSERT_EQ(morton_key_2d(x, y), morton_by_bits<2>({x, y}, 32));
    ASSERT_EQ(morton_key_3d(x, y, z), morton_by_bits<3>({x & kMax21, y & kMax21, z & kMax21}, 21));
  }
}

TEST(Morton, FullGridIsABijection) {
  cells_in_curve_order<2>(Curve::morton, 6);  // 64 x 64
  cells_in_curve_order<3>(Curve::morton, 4);  // 16 x 16 x 16
}

TEST(Hilbert, FullGrid2dIsABijectionWithFaceAdjacentSteps) {
  for (int level : {1, 3, 6}) {
    const auto order = cells_in_curve_order<2>(Curve::hilbert, level);
    for (std::size_t i = 1; i < order.size(); ++i)
      ASSERT_EQ(manhattan(order[i - 1], order[i]), 1) << "level " << level << " step " << i;
  }
}

TEST(Hilbert, FullGrid3dIsABijectionWithFaceAdjacentSteps) {
  for (int level : {1, 2, 4}) {
    const auto order = cells_in_curve_order<3>(Curve::hilbert, level);
    for (std::size_t i = 1; i < order.size(); ++i)
      ASSERT_EQ(manhattan(order[i - 1], order[i]), 1) << "level " << level << " step " << i;
  }
}

TEST(Hilbert, RunsFromTheOriginToTheFarXCorner) {
  EXPECT_EQ(hilbert_key_2d(0, 0), 0u);
  EXPECT_EQ(hilbert_key_3d(0, 0, 0), 0u);
  EXPECT_EQ(hilbert_key_2d(0xFFFFFFFFu, 0), ~std::uint64_t{0});
  EXPECT_EQ(hilbert_key_3d(kMax21, 0, 0), (std::uint64_t{1} << 63) - 1);
}

TEST(Hilbert, FastKeysMatchReferenceOnRandomInputs) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 100000; ++i) {
    const auto x = static_cast<std::uint32_t>(rng());
    const auto y = static_cast<std::uint32_t>(rng());
    const auto z = static_cast<std::uint32_t>(rng());
    ASSERT_EQ(hilbert_key_2d(x, y), hilbert_key_2d_reference(x, y)) << x << " " << y;
    ASSERT_EQ(hilbert_key_3d(x & kMax21, y & kMax21, z & kMax21),
              hilbert_key_3d_reference(x & kMax21, y & kMax21, z & kMax21))
        << x << " " << y << " " << z;
  }
  for (std::uint32_t a : {0u, 1u, kMax21, 0xFFFFFFFFu})
    for (std::uint32_t b : {0u, 1u, kMax21, 0xFFFFFFFFu}) {
      EXPECT_EQ(hilbert_key_2d(a, b), hilbert_key_2d_reference(a, b));
      EXPECT_EQ(hilbert_key_3d(a & kMax21, b & kMax21, a & kMax21),
                hilbert_key_3d_reference(a & kMax21, b & kMax21, a & kMax21));
    }
}

TEST(Hilbert, KeysAreNestedAcrossLevels) {
  // Points in one coarse cell share the key prefix of that cell: the curve visits each
  // sub-cube completely before moving on, which is what makes key ranges compact parts.
  std::mt19937_64 rng(5);
  for (int i = 0; i < 10000; ++i) {
    const int drop = static_cast<int>(rng() % 21);
    const std::uint32_t keep = ~((1u << drop) - 1u);
    const auto x = static_cast<std::uint32_t>(rng()) & kMax21;
    const auto y = static_cast<std::uint32_t>(rng()) & kMax21;
    const auto z = static_cast<std::uint32_t>(rng()) & kMax21;
    ASSERT_EQ(hilbert_key_3d(x, y, z) >> (3 * drop),
              hilbert_key_3d(x & keep, y & keep, z & keep) >> (3 * drop));
    ASSERT_EQ(hilbert_key_2d(x, y) >> (2 * drop), hilbert_key_2d(x & keep, y & keep) >> (2 * drop));
  }
}

TEST(CellMapper, ScalesByTheLongestSide) {
  BoundingBox box;
  box.lo = {-1.0, 0.0, 5.0};
  box.hi = {3.0, 1.0, 5.0};  // longest side 4 along x; z degenerate
  const CellMapper m(box, 3, 4);
  EXPECT_EQ(m.max_cell, 15u);
  EXPECT_EQ(m.cell(-1.0, 0), 0u);
  EXPECT_EQ(m.cell(3.0, 0), 15u);  // the far face clamps to the last cell
  EXPECT_EQ(m.cell(1.0, 0), 8u);   // cells are cubes of side 4 / 16
  EXPECT_EQ(m.cell(1.0, 1), 4u);   // y extent 1 covers a quarter of the cells
  EXPECT_EQ(m.cell(5.0, 2), 0u);   // degenerate axis
  EXPECT_EQ(m.cell(-7.0, 0), 0u);  // outside the box clamps, too
  EXPECT_EQ(m.cell(100.0, 1), 15u);
  EXPECT_EQ(m.cell(std::nan(""), 0), 0u);
}

TEST(CellMapper, FullWidthGridsReachTheirLastCell) {
  BoundingBox box;
  box.lo = {0.0, 0.0, 0.0};
  box.hi = {1.0, 1.0, 1.0};
  const CellMapper m2(box, 2, kBits2d);
  EXPECT_EQ(m2.max_cell, 0xFFFFFFFFu);
  EXPECT_EQ(m2.cell(1.0, 0), 0xFFFFFFFFu);
  EXPECT_EQ(m2.cell(std::nextafter(1.0, 0.0), 1), 0xFFFFFFFFu);
  EXPECT_EQ(m2.cell(0.5, 1), 0x80000000u);
  const CellMapper m3(box, 3, kBits3d);
  EXPECT_EQ(m3.cell(1.0, 2), kMax21);
}

TEST(CellMapper, IgnoresAxesBeyondDim) {
  BoundingBox box;
  box.lo = {0.0, 0.0, -1e9};
  box.hi = {2.0, 1.0, 1e9};
  const CellMapper m(box, 2, 8);
  EXPECT_DOUBLE_EQ(m.scale, 256.0 / 2.0);
  EXPECT_EQ(m.cell(2.0, 0), 255u);
}

TEST(CellMapper, DegenerateBoxMapsEverythingToCellZero) {
  BoundingBox box;
  box.lo = {2.0, 2.0, 2.0};
  box.hi = {2.0, 2.0, 2.0};
  const CellMapper m(box, 3, kBits3d);
  EXPECT_EQ(m.scale, 0.0);
  EXPECT_EQ(m.cell(2.0, 0), 0u);
  EXPECT_EQ(m.cell(3.0, 1), 0u);
}

TEST(CellMapper, RejectsBadParameters) {
  const BoundingBox box;
  EXPECT_THROW(CellMapper(box, 0, 10), Error);
  EXPECT_THROW(CellMapper(box, 4, 10), Error);
  EXPECT_THROW(CellMapper(box, 3, 0), Error);
  EXPECT_THROW(CellMapper(box, 2, 33), Error);
}

std::vector<double> random_coords(std::size_t n, int dim, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-3.0, 7.0);
  std::vector<double> c(n * static_cast<std::size_t>(dim));
  for (double& v : c) v = u(rng);
  return c;
}

BoundingBox box_of(const std::vector<double>& coords, int dim) {
  BoundingBox box;
  const auto d = static_cast<std::size_t>(dim);
  for (std::size_t a = 0; a < d; ++a) {
    box.lo[a] = std::numeric_limits<double>::max();
    box.hi[a] = std::numeric_limits<double>::lowest();
  }
  for (std::size_t i = 0; i < coords.size(); ++i) {
    box.lo[i % d] = std::min(box.lo[i % d], coords[i]);
    box.hi[i % d] = std::max(box.hi[i % d], coords[i]);
  }
  return box;
}

std::vector<std::uint64_t> keys_with_threads(const std::vector<double>& coords, int dim,
                                             const BoundingBox& box, Curve curve, int threads) {
  std::vector<std::uint64_t> keys(coords.size() / static_cast<std::size_t>(dim));
  const int saved = omp_get_max_threads();
  omp_set_num_threads(threads);
  compute_keys(coords, dim, box, curve, keys);
  omp_set_num_threads(saved);
  return keys;
}

TEST(ComputeKeys, MatchesTheKeyFunctionsOnMappedCells) {
  for (int dim : {2, 3}) {
    const auto coords = random_coords(2000, dim, 3);
    const BoundingBox box = box_of(coords, dim);
    const CellMapper m(box, dim, dim == 2 ? kBits2d : kBits3d);
    for (Curve curve : {Curve::morton, Curve::hilbert}) {
      const auto keys = keys_with_threads(coords, dim, box, curve, 2);
      for (std::size_t i = 0; i < keys.size(); ++i) {
        const double* p = &coords[i * static_cast<std::size_t>(dim)];
        std::uint64_t expected = 0;
        if (dim == 2) {
          const std::uint32_t x = m.cell(p[0], 0), y = m.cell(p[1], 1);
          expected = curve == Curve::hilbert ? hilbert_key_2d(x, y) : morton_key_2d(x, y);
        } else {
          const std::uint32_t x = m.cell(p[0], 0), y = m.cell(p[1], 1), z = m.cell(p[2], 2);
          expected = curve == Curve::hilbert ? hilbert_key_3d(x, y, z) : morton_key_3d(x, y, z);
        }
        ASSERT_EQ(keys[i], expected) << "dim " << dim << " point " << i;
      }
    }
  }
}

TEST(ComputeKeys, SameKeysForOneAndFourThreads) {
  for (int dim : {2, 3}) {
    const auto coords = random_coords(50001, dim, 9);
    const BoundingBox box = box_of(coords, dim);
    for (Curve curve : {Curve::morton, Curve::hilbert})
      EXPECT_EQ(keys_with_threads(coords, dim, box, curve, 1),
                keys_with_threads(coords, dim, box, curve, 4));
  }
}

TEST(ComputeKeys, DegenerateBoxesGiveValidKeys) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const std::size_t n = 1000;
  // 0: plane z = 0.5, 1: line along y, 2: one point repeated.
  for (int shape = 0; shape < 3; ++shape) {
    std::vector<double> coords(3 * n);
    for (std::size_t i = 0; i < n; ++i) {
      coords[3 * i + 0] = shape == 0 ? u(rng) : 0.25;
      coords[3 * i + 1] = shape == 2 ? 0.75 : u(rng);
      coords[3 * i + 2] = 0.5;
    }
    const BoundingBox box = box_of(coords, 3);
    for (Curve curve : {Curve::morton, Curve::hilbert}) {
      const auto keys = keys_with_threads(coords, 3, box, curve, 2);
      for (std::uint64_t k : keys) ASSERT_LT(k, std::uint64_t{1} << 63);
      if (shape == 2)
        for (std::uint64_t k : keys) ASSERT_EQ(k, 0u);
      else
        EXPECT_GT(*std::max_element(keys.begin(), keys.end()), 0u);
    }
  }
  // A 2D point set on a line.
  std::vector<double> line(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    line[2 * i] = u(rng);
    line[2 * i + 1] = -2.0;
  }
  const auto keys = keys_with_threads(line, 2, box_of(line, 2), Curve::hilbert, 2);
  EXPECT_GT(*std::max_element(keys.begin(), keys.end()), 0u);
}

TEST(ComputeKeys, RejectsBadArguments) {
  std::vector<double> coords(12, 0.0);
  std::vector<std::uint64_t> keys(4);
  const BoundingBox box;
  try {
    compute_keys(coords, 4, box, Curve::hilbert, std::span<std::uint64_t>(keys).first(3));
    FAIL() << "dim 4 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
  }
  try {
    compute_keys(coords, 2, box, Curve::hilbert, keys);  // 12 coordinates are 6 points in 2D
    FAIL() << "size mismatch accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::size_mismatch);
  }
  std::vector<std::uint64_t> none;
  EXPECT_NO_THROW(compute_keys({}, 3, box, Curve::morton, none));
}

}  // namespace
}  // namespace hpart::geometry

// Coarse-level keys (grids) are the top bits of the full-resolution keys of the scaled cells.
TEST(SfcKeysLevels, AreTheTopBitsOfTheFullKeys) {
  std::uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>(state >> 33);
  };
  for (int levels = 4; levels <= 32; levels += 4)
    for (int i = 0; i < 2000; ++i) {
      const std::uint32_t mask = levels >= 32 ? ~0u : (1u << levels) - 1u;
      const std::uint32_t x = next() & mask, y = next() & mask;
      const int s = 32 - levels;
      const std::uint64_t top = levels >= 32 ? ~0ULL : ~((std::uint64_t{1} << (64 - 2 * levels)) - 1);
      const auto sx = static_cast<std::uint32_t>(static_cast<std::uint64_t>(x) << s);
      const auto sy = static_cast<std::uint32_t>(static_cast<std::uint64_t>(y) << s);
      ASSERT_EQ(hpart::geometry::hilbert_key_2d_levels(x, y, levels), hpart::geometry::hilbert_key_2d(sx, sy) & top);
      ASSERT_EQ(hpart::geometry::morton_key_2d_levels(x, y, levels), hpart::geometry::morton_key_2d(sx, sy) & top);
    }
  for (int levels = 3; levels <= 21; levels += 3)
    for (int i = 0; i < 2000; ++i) {
      const std::uint32_t mask = (1u << levels) - 1u;
      const std::uint32_t x = next() & mask, y = next() & mask, z = next() & mask;
      const int s = 21 - levels;
      const std::uint64_t top = ~((std::uint64_t{1} << (63 - 3 * levels)) - 1);
      ASSERT_EQ(hpart::geometry::hilbert_key_3d_levels(x, y, z, levels),
                hpart::geometry::hilbert_key_3d(x << s, y << s, z << s) & top);
      ASSERT_EQ(hpart::geometry::morton_key_3d_levels(x, y, z, levels),
                hpart::geometry::morton_key_3d(x << s, y << s, z << s) & top);
    }
}
