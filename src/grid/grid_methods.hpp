#pragma once
// The grid methods, each on validated input (grid_input.hpp). Each returns the part of every
// local cell, the per-part boxes and the locator; partition_grid adds the shared metrics.
#include <memory>
#include <vector>

#include "grid/grid_input.hpp"
#include "grid/grid_locator.hpp"

namespace hpart::grid {

struct MethodResult {
  std::vector<part_t> parts;  // per local cell
  std::vector<Box> boxes;     // per part (sfc: filled later from the cells)
  bool box_shaped = true;
  std::array<int, 3> shape{0, 0, 0};
  std::shared_ptr<const detail::GridLocator> locator;
};

// Collective: the bounding box of each part's cells (an empty box for an empty part).
std::vector<Box> part_bounding_boxes(const Comm& comm, const GridInput& in, const std::vector<part_t>& parts, int K);

MethodResult sfc_cells(const Comm& comm, const GridInput& in, const GridOptions& opts);
MethodResult bisection_blocks(const Comm& comm, const GridInput& in, const GridOptions& opts);
MethodResult tensor_blocks(const Comm& comm, const GridInput& in, const GridOptions& opts, bool balanced);

// The cut tree of an earlier blocks partition (`old`, of `parts` parts, equal targets) on new
// costs: every node cut along its old axis into its old parts; a node's plane stays while its
// worse side is within (1 + tolerance)^(1/depth) - 1 of what the balanced layer reaches, else it
// moves to the balanced layer.
// ok = false when the tree no longer fits (a box too thin for its old axis or its parts); the
// result is then incomplete. Identical on every rank.
struct ReusedBlocks {
  MethodResult result;
  bool ok = true;
  int planes = 0, planes_moved = 0;
};
ReusedBlocks reuse_blocks(const Comm& comm, const GridInput& in, const TreeLocator& old, int parts, double tolerance);

}  // namespace hpart::grid
