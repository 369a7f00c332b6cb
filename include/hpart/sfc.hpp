#pragma once
// Distributed space-filling-curve partitioning of point sets.
#include "hpart/comm.hpp"
#include "hpart/options.hpp"
#include "hpart/partition.hpp"
#include "hpart/point_set.hpp"

namespace hpart {

// Collective. Orders the points along a Hilbert or Morton curve of their global bounding box
// and cuts the curve into opts.parts ranges of balanced first weight, without gathering or
// sorting keys globally. The same global input gives the same partition for any number of
// ranks and threads. Throws hpart::Error (on every rank) for invalid input.
Partition partition(const Comm& comm, const PointSet& points, const Options& opts);

}  // namespace hpart
