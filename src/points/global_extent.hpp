#pragma once
// The global bounding box the curve keys of a point set are computed in, and its largest first
// weight: one allreduce over the ranks' scans. The partition and the partition map (assign)
// both take it from here, so a map's keys are the partition's keys bit for bit.
#include "core/validate.hpp"
#include "hpart/comm.hpp"
#include "kernels/bounding_box.hpp"

namespace hpart::sfc {

struct GlobalExtent {
  geometry::BoundingBox box;  // a zero box when there is no point anywhere
  double max_weight = 0.0;
};

// Collective: one MIN-allreduce for the box corners and the largest first weight.
GlobalExtent global_extent(const Comm& comm, const detail::PointScan& scan);

}  // namespace hpart::sfc
