#pragma once
// Morton and Hilbert keys in 2D and 3D on 64-bit keys. Pure kernels: no MPI, no allocation.
// 2D keys use 32 bits per axis (64-bit keys), 3D keys 21 bits per axis (63-bit keys).
#include <cstdint>
#include <span>

#include "kernels/bounding_box.hpp"

namespace hpart::geometry {

inline constexpr int kBits2d = 32;
inline constexpr int kBits3d = 21;

enum class Curve { morton, hilbert };

// Morton (Z-order) keys interleave the coordinate bits with x lowest: key bit n*i + j is bit i
// of axis j (n = 2 or 3), so key bit 0 = x bit 0, bit 1 = y bit 0, ... In 3D only the low 21
// bits of each coordinate count; higher bits are ignored.
std::uint64_t morton_key_2d(std::uint32_t x, std::uint32_t y);
std::uint64_t morton_key_3d(std::uint32_t x, std::uint32_t y, std::uint32_t z);  // 21 bits each

// Hilbert keys, following Hamilton's formulation (geometry/hilbert_level.hpp defines the
// curve). The curve starts at the origin (key 0) and ends at the cell (max, 0[, 0]); it visits
// every aligned sub-cube completely before leaving it, so key >> (n*s) depends only on the
// coordinates >> s. Table-driven, ~10 ns per key; geometry/hilbert_reference.hpp has the slow
// per-bit definition they are tested against. 3D ignores coordinate bits above the 21st.
std::uint64_t hilbert_key_2d(std::uint32_t x, std::uint32_t y);
std::uint64_t hilbert_key_3d(std::uint32_t x, std::uint32_t y, std::uint32_t z);  // 21 bits each

// Keys on the top `levels` levels of the same curves, for integer cells of a 2^levels grid per
// axis (structured grids): the cell's coarse curve position, left-aligned in the key (2D: 64-bit
// keys, 3D: 63-bit keys), so keys of different cells order exactly like the full-resolution
// keys of the cells scaled by 2^(32 - levels) (2D) or 2^(21 - levels) (3D), at a fraction of the
// cost on coarse grids. Hilbert needs levels to be a multiple of kHilbertLevelsPerStep2d/3d;
// 1 <= levels <= 32 (2D) or 21 (3D).
inline constexpr int kHilbertLevelsPerStep2d = 4;
inline constexpr int kHilbertLevelsPerStep3d = 3;
std::uint64_t hilbert_key_2d_levels(std::uint32_t x, std::uint32_t y, int levels);
std::uint64_t hilbert_key_3d_levels(std::uint32_t x, std::uint32_t y, std::uint32_t z, int levels);
std::uint64_t morton_key_2d_levels(std::uint32_t x, std::uint32_t y, int levels);
std::uint64_t morton_key_3d_levels(std::uint32_t x, std::uint32_t y, std::uint32_t z, int levels);

// Keys of n = keys.size() points with interleaved coordinates (dim 2 or 3) in `box`, on the
// grid CellMapper(box, dim, kBits2d / kBits3d) defines. OpenMP-parallel (static schedule); the
// result does not depend on the thread count. Throws hpart::Error: invalid_argument for another
// dim, size_mismatch unless coords.size() == dim * keys.size().
void compute_keys(std::span<const double> coords, int dim, const BoundingBox& box, Curve curve,
                  std::span<std::uint64_t> keys);

}  // namespace hpart::geometry
