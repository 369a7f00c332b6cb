#include "kernels/hilbert_reference.hpp"

#include <array>

#include "kernels/hilbert_level.hpp"
#include "kernels/sfc_keys.hpp"

namespace hpart::geometry {
namespace {

template <std::uint32_t Dim>
std::uint64_t reference_key(const std::array<std::uint32_t, Dim>& p, int bits) {
  hilbert::LevelState state;
  std::uint64_t key = 0;
  for (int level = bits - 1; level >= 0; --level) {
    std::uint32_t octant = 0;
    for (std::uint32_t axis = 0; axis < Dim; ++axis) octant |= ((p[axis] >> level) & 1u) << axis;
    const hilbert::LevelStep step = hilbert::level_step(state, octant, Dim);
    key = (key << Dim) | step.digit;
    state = step.next;
  }
  return key;
}

}  // namespace

std::uint64_t hilbert_key_2d_reference(std::uint32_t x, std::uint32_t y) {
  return reference_key<2>({x, y}, kBits2d);
}

std::uint64_t hilbert_key_3d_reference(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  return reference_key<3>({x, y, z}, kBits3d);
}

}  // namespace hpart::geometry
