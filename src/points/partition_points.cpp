// hpart::partition for point sets: curve keys, distributed splitter search, part assignment.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/fixed_point.hpp"
#include "core/log.hpp"
#include "metrics/partition_metrics.hpp"
#include "core/unique_ids.hpp"
#include "core/validate.hpp"
#include "kernels/sfc_keys.hpp"
#include "core/huge_pages.hpp"
#include "hpart/points.hpp"
#include "points/global_extent.hpp"
#include "points/partition_scanned.hpp"
#include "points/splitter_search.hpp"

namespace hpart {
namespace {

std::string check_options(const PointOptions& opts) {
  std::string problem = detail::check_parts(opts.parts);
  if (problem.empty()) problem = detail::check_targets(opts.target_sizes, opts.parts);
  if (problem.empty() && !(opts.imbalance >= 0.0 && std::isfinite(opts.imbalance)))
    problem = "imbalance must be a finite value >= 0 (got " + std::to_string(opts.imbalance) + "); 0.001 means 0.1%";
  return problem;
}

// The splitter search indexes local objects with 32 bits (it keeps them in 24-byte records).
std::string check_size(const PointSet& points) {
  if (points.size() <= 0xffffffffULL) return {};
  return std::to_string(points.size()) + " local points on one rank; at most 2^32 - 1 are supported: use more ranks";
}

// Per part: targets, cut targets and tolerances, splitters (16 bytes), the chains kernel's
// segment weights, the result's weights (ncon) and sizes. Per object: key, part, search record.
std::string check_memory(const PointSet& points, const PointOptions& opts) {
  const double per_part = 8.0 * (13 + std::max(points.ncon, 1));  // measured: ~101 bytes at ncon 1
  return detail::check_part_memory(opts.parts, per_part, points.size(), 40.0);
}

// Options and point shape that every rank must pass alike, and the local verdict, in one allreduce.
void agree_on_input(const Comm& comm, const PointSet& points, const PointOptions& opts, std::string problem) {
  if (problem.empty()) problem = check_size(points);
  if (problem.empty()) problem = check_memory(points, opts);
  detail::Replicated args;
  args.value("parts", static_cast<long long>(opts.parts))
      .value("curve", static_cast<long long>(opts.curve))
      .value("imbalance", opts.imbalance)
      .values("target_sizes", opts.target_sizes);
  detail::replicate_point_shape(args, points);
  detail::agree(comm, args, problem.empty() ? ErrorCode::ok : ErrorCode::invalid_input, problem);
}

Partition partition_checked(const Comm& comm, const PointSet& points, const PointOptions& opts,
                            const detail::PointScan& scan, const detail::Stopwatch& clock);

}  // namespace

Partition partition_points(const Comm& comm, const PointSet& points, const PointOptions& opts) {
  const detail::Stopwatch clock;
  std::string problem = check_options(opts);
  if (problem.empty()) problem = detail::check_point_shape(points);
  detail::PointScan scan;
  if (problem.empty()) {
    scan = detail::scan_points(points);
    problem = detail::check_points(points, &scan);
  }
  agree_on_input(comm, points, opts, problem);
  return partition_checked(comm, points, opts, scan, clock);
}

Partition sfc::partition_scanned(const Comm& comm, const PointSet& points, const PointOptions& opts,
                                 const detail::PointScan& scan) {
  const detail::Stopwatch clock;
  agree_on_input(comm, points, opts, check_options(opts));
  return partition_checked(comm, points, opts, scan, clock);
}

namespace {

Partition partition_checked(const Comm& comm, const PointSet& points, const PointOptions& opts,
                            const detail::PointScan& scan, const detail::Stopwatch& clock) {
  const std::size_t n = points.size();
  // Global count and ranks that give ids, then the count of objects before this rank.
  long long counts[3] = {static_cast<long long>(n), points.ids.empty() ? 0 : 1, 0};
  comm.sum(std::span<long long>(counts, 2));
  // Ids break ties between equal keys: a repeated id would tie for good (identical points with
  // one id all land in one part), so repeats are refused, naming the id.
  if (counts[1] > 0) detail::require_unique_ids(comm, points.ids, "hpart::partition");
  counts[2] = comm.exscan_sum(static_cast<long long>(n));

  const sfc::GlobalExtent extent = sfc::global_extent(comm, scan);
  const detail::Stopwatch key_clock;
  // Written in full by compute_keys: no zero fill (a whole extra pass over fresh pages). Huge-page
  // storage, reused across calls while a Rebalancer holds a pool scope (see huge_pages.hpp).
  graphk::HugeVector<std::uint64_t> key_buffer(n);
  const std::span<std::uint64_t> keys(key_buffer.data(), n);
  geometry::compute_keys(points.coords, points.dim, extent.box,
                         opts.curve == Curve::morton ? geometry::Curve::morton : geometry::Curve::hilbert, keys);
  const double key_seconds = key_clock.seconds();

  sfc::CurveObjects objects;
  objects.keys = keys;
  objects.ids = points.ids;
  objects.first_id = counts[2];
  // All-zero weights carry no balance information: balance object counts instead.
  if (!points.weights.empty() && extent.max_weight > 0.0) {
    objects.weights = points.weights;
    objects.stride = points.ncon;
    objects.set_weight_exponent(detail::fixed_point_exponent(extent.max_weight, counts[0]));
  }

  sfc::SplitterSearchOptions search;
  search.parts = opts.parts;
  search.targets = detail::normalised_targets(opts.target_sizes, opts.parts);
  search.imbalance = opts.imbalance;
  const detail::Stopwatch search_clock;
  const std::vector<sfc::Order> splitters = sfc::find_splitters(comm, objects, search);
  const double search_seconds = search_clock.seconds();

  std::vector<part_t> parts = graphk::huge_advised_vector<part_t>(n);
  sfc::assign_parts(objects, splitters, search.first_bits, parts);

  Partition result = detail::summarise_partition(comm, std::move(parts), opts.parts, points.weights, points.ncon,
                                                 opts.target_sizes);
  const double seconds = detail::seconds_max(comm, clock);
  result.metrics.seconds = seconds;
  detail::record_tolerance(result, opts.imbalance);
  detail::log(comm, 1,
              std::string("partition ") + to_string(opts.curve) + ": " + std::to_string(counts[0]) + " points, " +
                  std::to_string(opts.parts) + " parts, keys " + std::to_string(key_seconds) + " s, search " +
                  std::to_string(search_seconds) + " s, total " + std::to_string(seconds) + " s, imbalance " +
                  std::to_string(result.metrics.imbalance.empty() ? 0.0 : result.metrics.imbalance[0]));
  return result;
}

}  // namespace

}  // namespace hpart
