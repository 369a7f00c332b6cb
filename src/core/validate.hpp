#pragma once
// Local validation helpers shared by every public entry point. Each returns an empty string
// when the input is fine, or an actionable message; callers pass the verdict to Comm::agree.
#include <span>
#include <string>
#include <vector>

#include "core/agreement.hpp"
#include "hpart/point_set.hpp"
#include "hpart/types.hpp"

namespace hpart::detail {

std::string check_parts(int parts);
std::string check_targets(std::span<const double> targets, int parts);
// Weights: length n * ncon (or empty), every value finite and >= 0.
std::string check_weights(std::span<const double> weights, std::size_t n, int ncon);
// One fused, OpenMP-parallel pass over the coordinates and first weights: the local bounding box,
// the largest first weight, and whether all values are valid. Partitioners need the box anyway;
// handing the scan to check_points spares the validation its own passes over the data.
// Requires dim 2 or 3 and coords.size() a multiple of dim (check_points' shape checks).
struct PointScan {
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};  // +inf / -inf when there is no point
  double max_weight = 0.0;
  bool coords_finite = true;
  bool weights_valid = true;  // finite and >= 0 (all ncon weights)
};
PointScan scan_points(const PointSet& points);

// Dimension, coordinate array length, finite coordinates, ids length and sign, weights. With a
// scan of the same points, the value checks it already made are not repeated.
std::string check_points(const PointSet& points, const PointScan* scan = nullptr);
// Shape of the point set only (dim, coords length): what scan_points requires.
std::string check_point_shape(const PointSet& points);

// What every rank must pass alike about a point set: dim, ncon, and whether weights and ids are
// given (ranks without points do not vote on those two).
void replicate_point_shape(Replicated& args, const PointSet& points);

// The memory of the per-part tables a K-part result and its search keep on every rank (weights,
// sizes, targets, splitters: ~`bytes_per_part` per part) and of `bytes_per_object` per local
// object: an actionable verdict (see memory_budget.hpp), empty when it fits.
std::string check_part_memory(long long parts, double bytes_per_part, std::size_t local_objects,
                              double bytes_per_object);

// Relative targets normalised to sum 1 (equal parts when `targets` is empty).
std::vector<double> normalised_targets(std::span<const double> targets, int parts);

}  // namespace hpart::detail
