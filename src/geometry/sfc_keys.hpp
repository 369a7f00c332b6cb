#pragma once
// Morton and Hilbert keys in 2D and 3D on 64-bit keys. Pure kernels: no MPI, no allocation.
// 2D keys use 32 bits per axis (64-bit keys), 3D keys 21 bits per axis (63-bit keys).
#include <cstdint>
#include <span>

#include "geometry/bounding_box.hpp"

namespace hpart::geometry {

inline constexpr int kBits2d = 32;
inline constexpr int kBits3d = 21;

enum class Curve { morton, hilbert };

std::uint64_t morton_key_2d(std::uint32_t x, std::uint32_t y);
std::uint64_t morton_key_3d(std::uint32_t x, std::uint32_t y, std::uint32_t z);  // 21 bits each
std::uint64_t hilbert_key_2d(std::uint32_t x, std::uint32_t y);
std::uint64_t hilbert_key_3d(std::uint32_t x, std::uint32_t y, std::uint32_t z);  // 21 bits each

// Keys of n = keys.size() points with interleaved coordinates (dim 2 or 3) in `box`.
// OpenMP-parallel; the result does not depend on the thread count.
void compute_keys(std::span<const double> coords, int dim, const BoundingBox& box, Curve curve,
                  std::span<std::uint64_t> keys);

}  // namespace hpart::geometry
