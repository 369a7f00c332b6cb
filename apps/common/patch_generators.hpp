#pragma once
// Generated AMR levels for the benchmarks and demos: the patch boxes and costs of one refinement
// level, as a block-structured AMR code would hand them to partition_patches.
#include <cstdint>
#include <vector>

#include "hpart/box.hpp"

namespace hpart_apps {

struct PatchLevel {
  int dim = 2;
  std::int64_t side = 0;  // the level's domain is side^dim cells
  std::vector<hpart::Box> boxes;
  std::vector<double> cost;
};

// amr2d: a 2D level tracking a circular front (radius 0.3 side around (0.45, 0.55)). The level
// covers a band of 1/16 side on each side of the front with quadtree patches of 128^2 cells,
// refined to 64^2 and 32^2 where they come within their own size of the front line (as a
// clustering algorithm would tag them). Cost = cells x (1 + 9 exp(-(d / w)^2)), d the distance of
// the patch centre to the front and w = side / 128 (chemistry at the front), times a seeded
// +-20% noise. side 4096 gives ~1,500 patches of 1k-16k cells whose costs differ 100-fold.
PatchLevel amr2d_level(std::int64_t side, unsigned seed = 1);

}  // namespace hpart_apps
