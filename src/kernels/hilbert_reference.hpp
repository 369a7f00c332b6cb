#pragma once
// Slow, obviously-correct Hilbert keys: one Hamilton level step per bit (see hilbert_level.hpp).
// They define what the table-driven hilbert_key_2d/3d must return; tests compare the two.
// Internal header, not part of the installed API.
#include <cstdint>

namespace hpart::geometry {

std::uint64_t hilbert_key_2d_reference(std::uint32_t x, std::uint32_t y);
std::uint64_t hilbert_key_3d_reference(std::uint32_t x, std::uint32_t y, std::uint32_t z);

}  // namespace hpart::geometry
