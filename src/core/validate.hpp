#pragma once
// Local validation helpers shared by every public entry point. Each returns an empty string
// when the input is fine, or an actionable message; callers pass the verdict to Comm::agree.
#include <span>
#include <string>
#include <vector>

#include "hpart/point_set.hpp"

namespace hpart::detail {

std::string check_parts(int parts);
std::string check_targets(std::span<const double> targets, int parts);
// Weights: length n * ncon (or empty), every value finite and >= 0.
std::string check_weights(std::span<const double> weights, std::size_t n, int ncon);
// Dimension, coordinate array length, finite coordinates, ids length and sign.
std::string check_points(const PointSet& points);

// Relative targets normalised to sum 1 (equal parts when `targets` is empty).
std::vector<double> normalised_targets(std::span<const double> targets, int parts);

}  // namespace hpart::detail
