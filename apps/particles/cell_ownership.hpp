#pragma once
// Who owns which cell of the cell list. The cells are the objects the partitioner sees (points
// at the cell centres, weighted by their work); a rank owns the particles in its cells. Any rank
// can name the owner of any cell without communication (a particle that crosses into a cell knows
// its new owner at once, and the ghost plan reads the neighbours'): before the first partition by
// the slab rule, after a partition into curve ranges (partition_points, a fresh partition of the
// Rebalancer) from the partition's hpart::PartitionMap (O(ranks) memory, built once per
// rebalance); only after an incremental rebalance, whose parts are not curve ranges, from a
// gathered owner table (cells^2 ints).
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "hpart/assign.hpp"
#include "hpart/comm.hpp"
#include "hpart/partition.hpp"
#include "hpart/point_set.hpp"
#include "hpart/types.hpp"
#include "particles_problem.hpp"

namespace hpart_particles {

struct CellOwnership {
  std::vector<hpart::gid_t> mine;  // this rank's cells, as the partitioner's objects
  int rows = 0, ranks = 1;         // cells per side; ranks (part r is rank r)
  std::optional<hpart::PartitionMap> map;  // the last partition's map, when it has one
  std::vector<int> table;                  // else (and not slabs): owner rank of every cell
  bool slabs = true;                       // the layout before the first partition

  // Owner rank of any cell (y * rows + x).
  [[nodiscard]] int owner(std::int64_t cell) const;
  // Centres of this rank's cells, x y interleaved (the partitioner's points).
  [[nodiscard]] std::vector<double> centres(const ParticlesProblem& p) const;
};

// Collective: rows of cells in equal slabs, the layout before the first partition.
CellOwnership slab_cells(const hpart::Comm& comm, const ParticlesProblem& p);

// Collective: moves each of this rank's cells to the rank `part` names (part r = rank r) and
// sets how owners are found: the map of `part` when it is a partition of `points` (this rank's
// cells, before the move) into ranges of `curve`, else a gathered owner table. Returns the
// number of cells that changed owner (all ranks).
long long reassign_cells(const hpart::Comm& comm, CellOwnership& cells, const hpart::PointSet& points,
                         const hpart::Partition& part, hpart::Curve curve);

}  // namespace hpart_particles
