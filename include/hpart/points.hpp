#pragma once
// Point sets: distributed space-filling-curve partitioning. The objects are points with
// coordinates and optional weights and ids (PointSet); the result is the common Partition.
// Incremental repartitioning of points is the Rebalancer's (rebalance.hpp).
#include <span>

#include "hpart/comm.hpp"
#include "hpart/partition.hpp"
#include "hpart/point_set.hpp"

namespace hpart {

// The space-filling curve a method orders its objects along (points, grid cells, patches).
enum class Curve {
  hilbert,  // Hilbert-curve order: the best locality of the curves; the default
  morton,   // Morton (Z) order: cheaper keys, somewhat larger part boundaries
};

struct PointOptions {
  int parts = 1;  // K >= 1, independent of the number of ranks; K > N gives empty parts
  Curve curve = Curve::hilbert;
  // Allowed imbalance of the first weight: max part weight / target - 1. The splitter search
  // refines until every cut is within half of it, or until a cut sits between two objects.
  double imbalance = 0.001;
  // Optional relative target size per part (K values, positive; normalised by hpart).
  // Empty means equal parts.
  std::span<const double> target_sizes;

  // fast: Morton keys and 1% imbalance (fewer splitter rounds); standard: the defaults;
  // strong: Hilbert keys and 0.01% imbalance (more splitter rounds, where the weights allow).
  static PointOptions preset(Preset p, int parts);
};

// Collective. Orders the points along a Hilbert or Morton curve of their global bounding box
// and cuts the curve into opts.parts ranges of balanced first weight, without gathering or
// sorting keys globally. The same global input gives the same partition for any number of
// ranks and threads. Throws hpart::Error (on every rank) for invalid input.
Partition partition_points(const Comm& comm, const PointSet& points, const PointOptions& opts);

const char* to_string(Curve c);
Curve curve_from_string(const char* name);  // throws hpart::Error for an unknown name

}  // namespace hpart
