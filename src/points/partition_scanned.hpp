#pragma once
// hpart::partition for callers that have validated the points already (the Rebalancer's
// from-scratch path: its validation scan is also its measuring pass), so that the points are
// not read a second time for the same checks.
#include "core/validate.hpp"
#include "hpart/comm.hpp"
#include "hpart/partition.hpp"
#include "hpart/point_set.hpp"

namespace hpart::sfc {

// Collective. The same partition as hpart::partition_points(comm, points, opts). Requires: points
// passed detail::check_point_shape and detail::check_points(points, &scan) on every rank (the
// caller agreed on it), scan is detail::scan_points(points) or an equivalent scan (local box,
// largest first weight). The options and the local size are still checked, on every rank.
Partition partition_scanned(const Comm& comm, const PointSet& points, const PointOptions& opts,
                            const detail::PointScan& scan);

}  // namespace hpart::sfc
