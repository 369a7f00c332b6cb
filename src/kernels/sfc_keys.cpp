#include "kernels/sfc_keys.hpp"

#include <array>
#include <cstddef>
#include <string>

#include "kernels/hilbert_tables.hpp"
#include "hpart/error.hpp"

namespace hpart::geometry {
namespace {

// Morton keys interleave the coordinate bits with x lowest: key bit n*i + j is bit i of axis j
// (n = 2 or 3). Each spread moves bit i of a coordinate to bit n*i in a few shift-or-mask
// rounds, halving the block width per round, so no BMI2 (pdep) is needed.
// Spreads the bits of x apart (magic-number dilation): each step shifts a copy by shifts[i] and
// keeps masks[i]. Unrolled by the compiler; the tables say which dilation it is.
template <std::size_t N>
inline std::uint64_t dilate(std::uint64_t x, const std::array<int, N>& shifts, const std::array<std::uint64_t, N>& masks) {
  for (std::size_t i = 0; i < N; ++i) x = (x | (x << shifts[i])) & masks[i];
  return x;
}

inline std::uint64_t spread_bits_2d(std::uint32_t v) {  // one zero bit after each bit
  return dilate<5>(v, {16, 8, 4, 2, 1},
                   {0x0000FFFF0000FFFFull, 0x00FF00FF00FF00FFull, 0x0F0F0F0F0F0F0F0Full, 0x3333333333333333ull,
                    0x5555555555555555ull});
}

inline std::uint64_t spread_bits_3d(std::uint32_t v) {  // two zero bits after each bit
  // 21 bits; higher ones are not part of a 63-bit key
  return dilate<5>(v & 0x1FFFFFu, {32, 16, 8, 4, 2},
                   {0x001F00000000FFFFull, 0x001F0000FF0000FFull, 0x100F00F00F00F00Full, 0x10C30C30C30C30C3ull,
                    0x1249249249249249ull});
}

inline std::uint64_t morton_2d(std::uint32_t x, std::uint32_t y) {
  return spread_bits_2d(x) | (spread_bits_2d(y) << 1);
}

inline std::uint64_t morton_3d(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  return spread_bits_3d(x) | (spread_bits_3d(y) << 1) | (spread_bits_3d(z) << 2);
}

// The n-bit groups of a Morton code are the per-level octants of the Hilbert walk, top level
// first; the state table turns ChunkBits of them at a time into Hilbert digits.
template <std::uint32_t ChunkBits, std::uint32_t KeyBits, std::size_t TableSize>
inline std::uint64_t walk_hilbert_table(std::uint64_t morton,
                                        const std::array<std::uint16_t, TableSize>& table) {
  static_assert(KeyBits % ChunkBits == 0, "the walk consumes whole chunks");
  constexpr std::uint32_t digit_mask = (1u << ChunkBits) - 1u;
  std::uint32_t row = 0;  // root state's row
  std::uint64_t key = 0;
  for (int shift = static_cast<int>(KeyBits - ChunkBits); shift >= 0;
       shift -= static_cast<int>(ChunkBits)) {
    const std::uint32_t entry =
        table[row | (static_cast<std::uint32_t>(morton >> shift) & digit_mask)];
    key = (key << ChunkBits) | (entry & digit_mask);
    row = entry & ~digit_mask;
  }
  return key;
}

inline std::uint64_t hilbert_2d(std::uint32_t x, std::uint32_t y) {
  return walk_hilbert_table<hilbert::kChunkBits2d, 2 * kBits2d>(morton_2d(x, y),
                                                                hilbert::kStepTable2d);
}

inline std::uint64_t hilbert_3d(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  return walk_hilbert_table<hilbert::kChunkBits3d, 3 * kBits3d>(morton_3d(x, y, z),
                                                                hilbert::kStepTable3d);
}

// The first `chunks` steps of the walk, on a Morton code of chunks * ChunkBits bits.
template <std::uint32_t ChunkBits, std::size_t TableSize>
inline std::uint64_t walk_hilbert_chunks(std::uint64_t morton, int chunks,
                                         const std::array<std::uint16_t, TableSize>& table) {
  constexpr std::uint32_t digit_mask = (1u << ChunkBits) - 1u;
  std::uint32_t row = 0;
  std::uint64_t key = 0;
  for (int c = chunks - 1; c >= 0; --c) {
    const std::uint32_t entry =
        table[row | (static_cast<std::uint32_t>(morton >> (static_cast<std::uint32_t>(c) * ChunkBits)) & digit_mask)];
    key = (key << ChunkBits) | (entry & digit_mask);
    row = entry & ~digit_mask;
  }
  return key;
}

template <int Dim, typename KeyOfCells>
void fill_keys(std::span<const double> coords, const CellMapper& cells,
               std::span<std::uint64_t> keys, KeyOfCells key_of_cells) {
  const auto n = static_cast<std::ptrdiff_t>(keys.size());
  const double* const c = coords.data();
  std::uint64_t* const out = keys.data();
  // Static schedule and per-point work only: every key is computed the same way whatever the
  // thread count, so the result cannot depend on it.
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const double* p = c + Dim * i;
    if constexpr (Dim == 2) {
      out[i] = key_of_cells(cells.cell(p[0], 0), cells.cell(p[1], 1));
    } else {
      out[i] = key_of_cells(cells.cell(p[0], 0), cells.cell(p[1], 1), cells.cell(p[2], 2));
    }
  }
}

}  // namespace

std::uint64_t morton_key_2d(std::uint32_t x, std::uint32_t y) { return morton_2d(x, y); }

std::uint64_t morton_key_3d(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  return morton_3d(x, y, z);
}

std::uint64_t hilbert_key_2d(std::uint32_t x, std::uint32_t y) { return hilbert_2d(x, y); }

std::uint64_t hilbert_key_3d(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  return hilbert_3d(x, y, z);
}

static_assert(kHilbertLevelsPerStep2d == static_cast<int>(hilbert::kLevelsPerStep2d));
static_assert(kHilbertLevelsPerStep3d == static_cast<int>(hilbert::kLevelsPerStep3d));

std::uint64_t hilbert_key_2d_levels(std::uint32_t x, std::uint32_t y, int levels) {
  const std::uint64_t coarse = walk_hilbert_chunks<hilbert::kChunkBits2d>(
      morton_2d(x, y), levels / kHilbertLevelsPerStep2d, hilbert::kStepTable2d);
  return levels >= 32 ? coarse : coarse << (64 - 2 * levels);
}

std::uint64_t hilbert_key_3d_levels(std::uint32_t x, std::uint32_t y, std::uint32_t z, int levels) {
  const std::uint64_t coarse = walk_hilbert_chunks<hilbert::kChunkBits3d>(
      morton_3d(x, y, z), levels / kHilbertLevelsPerStep3d, hilbert::kStepTable3d);
  return coarse << (63 - 3 * levels);
}

std::uint64_t morton_key_2d_levels(std::uint32_t x, std::uint32_t y, int levels) {
  const std::uint64_t coarse = morton_2d(x, y);
  return levels >= 32 ? coarse : coarse << (64 - 2 * levels);
}

std::uint64_t morton_key_3d_levels(std::uint32_t x, std::uint32_t y, std::uint32_t z, int levels) {
  return morton_3d(x, y, z) << (63 - 3 * levels);
}

void compute_keys(std::span<const double> coords, int dim, const BoundingBox& box, Curve curve,
                  std::span<std::uint64_t> keys) {
  if (dim != 2 && dim != 3)
    throw Error(ErrorCode::invalid_argument,
                "compute_keys: dim must be 2 or 3, got " + std::to_string(dim));
  if (coords.size() != keys.size() * static_cast<std::size_t>(dim))
    throw Error(ErrorCode::size_mismatch, "compute_keys: " + std::to_string(coords.size()) +
                                              " coordinates for " + std::to_string(keys.size()) +
                                              " keys in " + std::to_string(dim) +
                                              "D; expected dim * keys.size()");

  // Lambdas rather than function pointers: each curve gets its own inlined loop.
  if (dim == 2) {
    const CellMapper cells(box, 2, kBits2d);
    if (curve == Curve::hilbert)
      fill_keys<2>(coords, cells, keys,
                   [](std::uint32_t x, std::uint32_t y) { return hilbert_2d(x, y); });
    else
      fill_keys<2>(coords, cells, keys,
                   [](std::uint32_t x, std::uint32_t y) { return morton_2d(x, y); });
  } else {
    const CellMapper cells(box, 3, kBits3d);
    if (curve == Curve::hilbert)
      fill_keys<3>(coords, cells, keys, [](std::uint32_t x, std::uint32_t y, std::uint32_t z) {
        return hilbert_3d(x, y, z);
      });
    else
      fill_keys<3>(coords, cells, keys, [](std::uint32_t x, std::uint32_t y, std::uint32_t z) {
        return morton_3d(x, y, z);
      });
  }
}

}  // namespace hpart::geometry
