#include "core/validate.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "core/memory_budget.hpp"

namespace hpart::detail {

namespace {

// Branch-free scans that the compiler vectorises; the loops with the exact message run only
// when one of these finds a problem. An IEEE double is inf or NaN when its exponent is all ones.
bool all_finite(std::span<const double> v) {
  std::uint64_t bad = 0;
  for (const double x : v) bad |= (std::bit_cast<std::uint64_t>(x) & 0x7ff0000000000000ULL) == 0x7ff0000000000000ULL;
  return bad == 0;
}
bool all_finite_nonnegative(std::span<const double> v) {
  std::uint64_t bad = 0;
  for (const double x : v)
    bad |= ((std::bit_cast<std::uint64_t>(x) & 0x7ff0000000000000ULL) == 0x7ff0000000000000ULL) | (x < 0.0);
  return bad == 0;
}
bool all_nonnegative(IntSpan ids) {
  return ids.visit([](auto v) {
    gid_t acc = 0;
    for (const gid_t x : v) acc |= x;  // the sign bit survives the OR
    return acc >= 0;
  });
}

}  // namespace

std::string check_parts(int parts) {
  if (parts < 1) return "parts must be >= 1 (got " + std::to_string(parts) + ")";
  if (parts > (1 << 30)) return "parts must be <= 2^30 (got " + std::to_string(parts) + ")";
  return {};
}

std::string check_targets(std::span<const double> targets, int parts) {
  if (targets.empty()) return {};
  if (targets.size() != static_cast<std::size_t>(parts))
    return "target_sizes has " + std::to_string(targets.size()) + " values but parts = " + std::to_string(parts) +
           ": give one relative size per part, or none for equal parts";
  for (std::size_t p = 0; p < targets.size(); ++p)
    if (!(targets[p] > 0.0) || !std::isfinite(targets[p]))
      return "target_sizes[" + std::to_string(p) + "] = " + std::to_string(targets[p]) +
             ": every target size must be finite and > 0";
  return {};
}

std::string check_weights(std::span<const double> weights, std::size_t n, int ncon) {
  if (ncon < 1) return "ncon (weights per object) must be >= 1 (got " + std::to_string(ncon) + ")";
  if (weights.empty()) return {};
  const std::size_t expected = n * static_cast<std::size_t>(ncon);
  if (weights.size() != expected)
    return "weights has " + std::to_string(weights.size()) + " values but " + std::to_string(n) + " objects x ncon " +
           std::to_string(ncon) + " need " + std::to_string(expected);
  if (all_finite_nonnegative(weights)) return {};
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const double w = weights[i];
    if (!std::isfinite(w) || w < 0.0)
      return "weight " + std::to_string(i % ncon) + " of local object " + std::to_string(i / ncon) + " is " +
             std::to_string(w) + ": weights must be finite and >= 0";
  }
  return {};
}


std::string check_point_shape(const PointSet& points) {
  if (points.dim != 2 && points.dim != 3) return "dim must be 2 or 3 (got " + std::to_string(points.dim) + ")";
  const auto dim = static_cast<std::size_t>(points.dim);
  if (points.coords.size() % dim != 0)
    return "coords has " + std::to_string(points.coords.size()) + " values, not a multiple of dim " +
           std::to_string(points.dim) + ": pass interleaved x y [z] per point";
  return {};
}

PointScan scan_points(const PointSet& points) {
  const int dim = points.dim;
  const auto n = static_cast<std::ptrdiff_t>(points.size());
  const double inf = std::numeric_limits<double>::infinity();
  double lo0 = inf, lo1 = inf, lo2 = inf, hi0 = -inf, hi1 = -inf, hi2 = -inf;
  std::uint64_t bad = 0;
  const double* c = points.coords.data();
  constexpr std::uint64_t kExp = 0x7ff0000000000000ULL;
#pragma omp parallel for schedule(static) reduction(min : lo0, lo1, lo2) reduction(max : hi0, hi1, hi2) reduction(| : bad)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const double* p = c + i * dim;
    bad |= (std::bit_cast<std::uint64_t>(p[0]) & kExp) == kExp;
    bad |= (std::bit_cast<std::uint64_t>(p[1]) & kExp) == kExp;
    lo0 = std::min(lo0, p[0]);
    hi0 = std::max(hi0, p[0]);
    lo1 = std::min(lo1, p[1]);
    hi1 = std::max(hi1, p[1]);
    if (dim == 3) {
      bad |= (std::bit_cast<std::uint64_t>(p[2]) & kExp) == kExp;
      lo2 = std::min(lo2, p[2]);
      hi2 = std::max(hi2, p[2]);
    }
  }
  PointScan scan;
  scan.lo[0] = lo0, scan.lo[1] = lo1, scan.lo[2] = lo2;
  scan.hi[0] = hi0, scan.hi[1] = hi1, scan.hi[2] = hi2;
  scan.coords_finite = bad == 0;
  scan.weights_valid = all_finite_nonnegative(points.weights);
  const auto stride = static_cast<std::size_t>(std::max(points.ncon, 1));
  double wmax = 0.0;
  if (scan.weights_valid && points.weights.size() == points.size() * stride)
    for (std::size_t i = 0; i < points.size(); ++i) wmax = std::max(wmax, points.weights[i * stride]);
  scan.max_weight = wmax;
  return scan;
}

std::string check_points(const PointSet& points, const PointScan* scan) {
  if (std::string shape = check_point_shape(points); !shape.empty()) return shape;
  const auto dim = static_cast<std::size_t>(points.dim);
  const std::size_t n = points.coords.size() / dim;
  const bool finite = scan ? scan->coords_finite : all_finite(points.coords);
  for (std::size_t i = 0; !finite && i < points.coords.size(); ++i)
    if (!std::isfinite(points.coords[i]))
      return "coordinate " + std::to_string(i % dim) + " of local point " + std::to_string(i / dim) + " is " +
             std::to_string(points.coords[i]) + ": coordinates must be finite";
  if (!points.ids.empty()) {
    if (points.ids.size() != n)
      return "ids has " + std::to_string(points.ids.size()) + " values for " + std::to_string(n) +
             " points: give one id per point, or none";
    const bool nonnegative = all_nonnegative(points.ids);
    for (std::size_t i = 0; !nonnegative && i < n; ++i)
      if (points.ids[i] < 0)
        return "id of local point " + std::to_string(i) + " is " + std::to_string(points.ids[i]) +
               ": ids must be >= 0";
  }
  // A valid scan stands for the value checks; the lengths are still checked here.
  if (scan && scan->weights_valid && points.ncon >= 1 &&
      (points.weights.empty() || points.weights.size() == n * static_cast<std::size_t>(points.ncon)))
    return {};
  return check_weights(points.weights, n, points.ncon);
}

void replicate_point_shape(Replicated& args, const PointSet& points) {
  const bool none = points.size() == 0;  // also when coords are malformed (fewer values than dim)
  args.value("dim", static_cast<long long>(points.dim))
      .value("ncon", static_cast<long long>(points.ncon))
      .given("weights", !points.weights.empty(), none)
      .given("ids", !points.ids.empty(), none);
}

std::string check_part_memory(long long parts, double bytes_per_part, std::size_t local_objects,
                              double bytes_per_object) {
  const double bytes = static_cast<double>(parts) * bytes_per_part + static_cast<double>(local_objects) * bytes_per_object;
  return check_memory(bytes, "partitioning into " + std::to_string(parts) + " parts",
                      "every rank keeps per-part tables of ~" + format_bytes(bytes_per_part) +
                          " a part; use fewer parts (or more memory per rank)");
}

std::vector<double> normalised_targets(std::span<const double> targets, int parts) {
  std::vector<double> t(static_cast<std::size_t>(parts), 1.0 / parts);
  if (targets.empty()) return t;
  double sum = 0.0;
  for (double v : targets) sum += v;
  for (std::size_t p = 0; p < t.size(); ++p) t[p] = targets[p] / sum;
  return t;
}

}  // namespace hpart::detail
