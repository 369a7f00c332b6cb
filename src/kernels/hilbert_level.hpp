#pragma once
// One level of the Hilbert curve in n = 2 or 3 dimensions, after Hamilton, "Compact Hilbert
// Indices" (Dalhousie CS-2006-07). The curve inside the current sub-cube is described by an
// entry corner e and an intra-cube direction d; one step maps the n bits a point has at this
// level (bit j = axis j) to its n-bit Hilbert digit and the (e, d) of the chosen child.
//
// This is the definition of our Hilbert curve: the slow reference keys loop over it one level
// at a time, and the fast keys walk tables generated from it at compile time. Internal header.
#include <cstdint>

namespace hpart::geometry::hilbert {

struct LevelState {
  std::uint32_t entry = 0;      // entry corner of the sub-cube, n bits
  std::uint32_t direction = 0;  // axis along which the curve leaves the entry corner, 0..n-1
  friend constexpr bool operator==(const LevelState&, const LevelState&) = default;
};

struct LevelStep {
  std::uint32_t digit = 0;  // n-bit Hilbert digit of this level
  LevelState next;          // orientation of the child sub-cube
};

namespace detail {
constexpr std::uint32_t low_mask(std::uint32_t n) { return (1u << n) - 1u; }
constexpr std::uint32_t rotate_right(std::uint32_t v, std::uint32_t r, std::uint32_t n) {
  r %= n;
  if (r == 0) return v;
  return ((v >> r) | (v << (n - r))) & low_mask(n);
}
constexpr std::uint32_t rotate_left(std::uint32_t v, std::uint32_t r, std::uint32_t n) {
  r %= n;
  if (r == 0) return v;
  return ((v << r) | (v >> (n - r))) & low_mask(n);
}
constexpr std::uint32_t gray(std::uint32_t i) { return i ^ (i >> 1); }
constexpr std::uint32_t gray_inverse(std::uint32_t g) {
  std::uint32_t i = g;
  for (std::uint32_t s = g >> 1; s != 0; s >>= 1) i ^= s;
  return i;
}
constexpr std::uint32_t trailing_ones(std::uint32_t i) {
  std::uint32_t count = 0;
  for (; (i & 1u) != 0; i >>= 1) ++count;
  return count;
}
// Entry corner and direction of the w-th child in the standard orientation (Hamilton 2.9-2.10).
constexpr std::uint32_t child_entry(std::uint32_t w) { return w == 0 ? 0 : gray(2 * ((w - 1) / 2)); }
constexpr std::uint32_t child_direction(std::uint32_t w, std::uint32_t n) {
  if (w == 0) return 0;
  return ((w & 1u) == 0 ? trailing_ones(w - 1) : trailing_ones(w)) % n;
}
}  // namespace detail

// `octant` holds the point's bit of this level for each axis (bit j = axis j).
constexpr LevelStep level_step(LevelState s, std::uint32_t octant, std::uint32_t n) {
  // Bring the octant into the standard orientation, where the curve is the Gray code order.
  const std::uint32_t standard = detail::rotate_right(octant ^ s.entry, s.direction + 1, n);
  const std::uint32_t w = detail::gray_inverse(standard);
  LevelStep step;
  step.digit = w;
  step.next.entry = s.entry ^ detail::rotate_left(detail::child_entry(w), s.direction + 1, n);
  step.next.direction = (s.direction + detail::child_direction(w, n) + 1) % n;
  return step;
}

}  // namespace hpart::geometry::hilbert
