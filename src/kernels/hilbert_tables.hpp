#pragma once
// State tables that let hilbert_key_2d/3d consume several curve levels per lookup, generated at
// compile time from the level step in hilbert_level.hpp. Internal header.
//
// The key functions first interleave the coordinates into a Morton code, whose n-bit groups are
// exactly the per-level octants the level step takes, and then walk the table over chunks of
// kLevelsPerStep levels from the top. An entry packs (next_state << chunk_bits) | digits, so
// masking off the digits leaves the offset of the next state's row: one AND and one OR per step.
#include <array>
#include <cstdint>

namespace hpart::geometry::hilbert {

// Orientations reachable from the root: 4 in 2D, 12 in 3D (checked where the tables are built).
inline constexpr std::uint32_t kStates2d = 4;
inline constexpr std::uint32_t kStates3d = 12;

// 2D: 4 levels (8 key bits) per lookup, 32 levels = 8 lookups, 2 KiB table.
inline constexpr std::uint32_t kLevelsPerStep2d = 4;
inline constexpr std::uint32_t kChunkBits2d = 2 * kLevelsPerStep2d;
// 3D: 3 levels (9 key bits) per lookup, 21 levels = 7 lookups, 12 KiB table (fits L1).
inline constexpr std::uint32_t kLevelsPerStep3d = 3;
inline constexpr std::uint32_t kChunkBits3d = 3 * kLevelsPerStep3d;

extern const std::array<std::uint16_t, (kStates2d << kChunkBits2d)> kStepTable2d;
extern const std::array<std::uint16_t, (kStates3d << kChunkBits3d)> kStepTable3d;

}  // namespace hpart::geometry::hilbert
