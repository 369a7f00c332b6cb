#pragma once
// Exact weight sums: weights are scaled by a power of two 2^-e and truncated to integers, with e
// chosen from the global maximum weight and object count so that every sum stays below 2^62.
// Integer sums are associative, so results do not depend on the number of ranks or threads.
//
// Range and resolution: any finite weight >= 0 is accepted, denormals and 1e308 included (the
// exponent is taken from the maximum weight and the count separately, so their product never
// overflows, and the scale is applied as two powers of two, each finite). A weight counts in the
// balance with a resolution of 2^-62 x (max weight x N) rounded up to a power of two: with
// N = 10^6 and a largest weight of 1, weights below ~2.4e-13 count as 0 (they are still reported
// in Partition::part_weights as doubles). All-zero weights balance object counts instead.
#include <cmath>
#include <cstdint>

namespace hpart::detail {

// Exponent e such that N weights of at most wmax, each scaled by 2^-e, sum below 2^62.
inline int fixed_point_exponent(double wmax, long long global_n) {
  int ew = 0, en = 0;
  std::frexp(wmax, &ew);                            // wmax < 2^ew
  std::frexp(static_cast<double>(global_n), &en);  // N < 2^en
  return ew + en - 62;
}

// 2^-e as two finite factors: e spans about -1140 (denormal weights) to 1090 (1e308 x 2^63),
// beyond one double's exponent range. Multiplying by powers of two is exact.
struct FixedPoint {
  double scale = 1.0, scale2 = 1.0;
  explicit FixedPoint(int exponent)
      : scale(std::ldexp(1.0, -exponent / 2)), scale2(std::ldexp(1.0, -exponent + exponent / 2)) {}
  [[nodiscard]] std::int64_t operator()(double w) const { return static_cast<std::int64_t>(w * scale * scale2); }
};

}  // namespace hpart::detail
