#pragma once
// The local objects of a distributed curve, as the splitter search sees them: a total order
// value (curve key, then global id) and an exact integer weight per object.
#include <cmath>
#include <cstdint>
#include <span>

#include "core/fixed_point.hpp"
#include "hpart/int_span.hpp"
#include "hpart/types.hpp"

namespace hpart::sfc {

// Key in the high 64 bits, global id (non-negative) in the low 64 bits: ordering by this value
// orders by key and breaks ties by id, so equal keys (coincident points) still split evenly and
// deterministically. No object reaches kNoSplitter because ids stay below 2^63.
__extension__ typedef unsigned __int128 Order;  // __extension__: GCC/Clang built-in, not ISO
inline constexpr Order kNoSplitter = ~static_cast<Order>(0);

inline Order make_order(std::uint64_t key, gid_t id) {
  return (static_cast<Order>(key) << 64) | static_cast<std::uint64_t>(id);
}

// Weights are balanced in fixed point (w * 2^-weight_exponent, truncated to an integer) so that
// every sum is exact: the search then does not depend on the number of ranks or threads that
// added the weights up, which floating-point sums would.
struct CurveObjects {
  std::span<const std::uint64_t> keys;
  IntSpan ids;  // the caller's, at either width; empty: ids are first_id + local index
  gid_t first_id = 0;
  std::span<const double> weights;  // empty: unit weights
  int stride = 1;                   // weights per object; the first is balanced
  int weight_exponent = 0;
  detail::FixedPoint weight_scale{0};  // 2^-weight_exponent (core/fixed_point.hpp: range, resolution)

  void set_weight_exponent(int e) {
    weight_exponent = e;
    weight_scale = detail::FixedPoint(e);
  }

  [[nodiscard]] std::size_t size() const { return keys.size(); }
  [[nodiscard]] Order order(std::size_t i) const {
    return make_order(keys[i], ids.empty() ? first_id + static_cast<gid_t>(i) : ids[i]);
  }
  [[nodiscard]] std::int64_t weight(std::size_t i) const {
    if (weights.empty()) return 1;
    return weight_scale(weights[i * static_cast<std::size_t>(stride)]);
  }
};

}  // namespace hpart::sfc
