#pragma once
// Exact weight sums: weights are scaled by a power of two 2^-e and truncated to integers, with e
// chosen from the global maximum weight and object count so that every sum stays below 2^62.
// Integer sums are associative, so results do not depend on the number of ranks or threads.
#include <cmath>
#include <cstdint>

namespace hpart::detail {

// Exponent e such that N weights of at most wmax, each scaled by 2^-e, sum below 2^62.
inline int fixed_point_exponent(double wmax, long long global_n) {
  int exponent = 0;
  std::frexp(wmax * static_cast<double>(global_n), &exponent);
  return exponent - 62;
}

struct FixedPoint {
  double scale = 1.0;  // 2^-e: scaling by a power of two is exact
  explicit FixedPoint(int exponent) : scale(std::ldexp(1.0, -exponent)) {}
  [[nodiscard]] std::int64_t operator()(double w) const { return static_cast<std::int64_t>(w * scale); }
};

}  // namespace hpart::detail
