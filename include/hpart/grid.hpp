#pragma once
// Structured grids: cells are objects with implicit coordinates (never materialised), with an
// optional distributed per-cell cost. Every method returns the common Partition for the cells a
// rank holds, plus one box per part and a locator that answers "which part owns cell c" for any
// cell without communication.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "hpart/box.hpp"
#include "hpart/comm.hpp"
#include "hpart/partition.hpp"
#include "hpart/points.hpp"

namespace hpart {

using Cell = std::array<std::int64_t, kMaxBoxDim>;

struct Grid {
  int dim = 2;  // 2 or 3
  // Cells per dimension: up to 2^31 in 2D, 2^21 in 3D (the curve key resolution).
  std::array<std::int64_t, 3> extent{1, 1, 1};
  // The cells this rank holds: their costs, and their entries in Partition::parts, row-major with
  // x fastest. The ranks' boxes must be disjoint and together cover the grid; a rank may hold
  // none (an empty box). Costs: local.volume() values (finite, >= 0), or empty for unit cost.
  Box local;
  std::span<const double> cost;

  [[nodiscard]] Box domain() const {
    return Box::from_extent(dim, {extent[0], extent[1], extent[2], 1});
  }
};

enum class GridMethod {
  sfc,      // Hilbert/Morton ranges of cells, balanced by cost; parts are not boxes
  blocks,   // recursive bisection: box-shaped, near-cubic parts, each box cut on its own
  tensor,   // a strict Px x Py (x Pz) tensor product, each dimension balanced on its own
  uniform,  // tensor product of equal widths, cost ignored (the naive split, for reference)
};

struct GridOptions {
  int parts = 1;
  GridMethod method = GridMethod::blocks;
  Curve curve = Curve::hilbert;    // sfc: the curve
  double imbalance = 0.001;        // sfc: splitter tolerance (blocks cut at the best cell layer)
  // tensor/uniform: parts per dimension; all 0 = chosen to keep blocks near-cubic. Product = parts.
  std::array<int, 3> shape{0, 0, 0};
  // sfc, blocks: optional relative part sizes (parts values > 0); empty = equal parts.
  std::span<const double> target_sizes;

  // fast: sfc on Morton keys at 1% (no box shapes, the cheapest keys); standard: blocks, the
  // defaults; strong: blocks too (their cut is already at the best cell layer).
  static GridOptions preset(Preset p, int parts);
};

namespace detail {
struct GridLocator;  // how a method maps cells to parts (curve splitters, cut tree, cut lists)
}

// The Partition of the rank's local cells (parts row-major over grid.local), plus:
struct GridPartition : Partition {
  std::vector<Box> boxes;  // per part: its box (box-shaped methods) or the bounding box of its
                           // cells (sfc); an empty part has an empty box
  bool box_shaped = true;  // each part is exactly its box
  std::array<int, 3> shape{0, 0, 0};  // tensor/uniform: the parts per dimension used

  // The part of any cell of the grid, on any rank, without communication.
  [[nodiscard]] part_t part_of(const Cell& cell) const;

  std::shared_ptr<const detail::GridLocator> locator;
};

// Collective. Validates (extents, boxes disjoint and covering, cost length and values, parts)
// and throws the same hpart::Error on every rank.
GridPartition partition_grid(const Comm& comm, const Grid& grid, const GridOptions& opts);

// Rebalancing a blocks partition when the costs have moved, by moving its cut planes (cf.
// Zoltan's RCB_REUSE): the cut tree stays (every box is cut along the same axis into the same
// parts, so part ids keep their place), and a plane moves only when the two sides of its box
// have left their share of the tolerance, to the cell layer that balances them again. A drift
// then moves only the cells between old and new planes, and the planes it does not unbalance not
// at all. Falls back to a fresh blocks partition when the tree no longer fits the grid. Parts are
// balanced to equal sizes (a partition made with target_sizes is rebalanced to equal ones).
struct GridRepartOptions {
  int parts = 1;            // the previous partition's parts
  // Imbalance (max / mean - 1) that kept planes may add to what balanced planes reach, shared
  // over the levels of the tree: a plane stays while its worse side is within (1 + imbalance)^(1 /
  // depth) - 1 of the balanced layer's.
  double imbalance = 0.02;
};

// The new partition (locator, boxes, the local cells' parts); migrated.weight is the cost of the
// cells whose part changed (unit cost: cells), steps the cut planes moved, from_scratch whether
// the tree no longer fitted (a fresh blocks partition).
using GridRepartition = Repartition<GridPartition>;

// Collective. grid: the cells and their current costs, held by the ranks in any distribution;
// previous: a blocks partition of a grid of the same extent into opts.parts parts (from
// partition_grid or an earlier repartition_grid). Validates like partition_grid, plus previous
// and the options, and throws the same hpart::Error on every rank.
GridRepartition repartition_grid(const Comm& comm, const Grid& grid, const GridPartition& previous,
                                 const GridRepartOptions& opts);

// Contact between two parts: the parts q != p whose cells lie within `halo` cells of p
// (corners included), the cells of q in p's halo (what a stencil code receives from q), and the
// kind of contact (1 face, 2 edge, 3 corner: the number of dimensions in which they only touch).
struct PartNeighbour {
  part_t part = 0;
  std::int64_t halo_cells = 0;
  int contact = 1;
};

struct GridNeighbours {
  std::vector<std::vector<PartNeighbour>> of_part;  // per part, sorted by neighbour id
  std::int64_t halo_volume = 0;  // total cells received over all parts (comm volume, halo width h)
};

// Collective (box-shaped partitions: computed from the boxes alone, identical on every rank).
GridNeighbours grid_neighbours(const Comm& comm, const Grid& grid, const GridPartition& p, int halo = 1);

// The near-cubic tensor shape for `parts` blocks of a grid (minimises the block surface).
std::array<int, 3> tensor_shape(int dim, const std::array<std::int64_t, 3>& extent, int parts);

const char* to_string(GridMethod m);
GridMethod grid_method_from_string(const char* name);  // throws hpart::Error for an unknown name

}  // namespace hpart
