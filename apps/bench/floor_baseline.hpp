#pragma once
// The floor: the cheapest pass any SFC partitioner must make over the same data, one Morton key
// per point (21 bits per axis, bit spreading) written to an array, OpenMP parallel. hpart's time
// divided by this one says how close to the machine limit it is.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "point_generators.hpp"

namespace hpart_bench {

using hpart_apps::LocalPoints;
using hpart_apps::PointCase;

struct FloorBox {
  double lo[3] = {0, 0, 0};
  double scale[3] = {0, 0, 0};  // (2^21 - 1) / extent, 0 for a flat axis
};

// Collective (untimed setup): the global bounding box of the points, by allreduce.
FloorBox floor_box(MPI_Comm comm, const LocalPoints& pts);

// Timed part: keys[i] = Morton key of point i. `keys` must already have pts.size() entries.
void floor_morton_keys(const LocalPoints& pts, const FloorBox& box, std::vector<std::uint64_t>& keys);

}  // namespace hpart_bench
