#pragma once
// Who owns which cell of the cell list. The cells are the objects the partitioner sees (points
// at the cell centres, weighted by their work); a rank owns the particles in its cells. Every
// rank keeps the whole owner map (cells^2 ints, small next to the particles): a particle that
// crosses into a cell knows its new owner at once, and the ghost plan reads the neighbours'.
#include <cstdint>
#include <span>
#include <vector>

#include "hpart/comm.hpp"
#include "hpart/types.hpp"
#include "particles_problem.hpp"

namespace hpart_particles {

struct CellOwnership {
  std::vector<hpart::gid_t> mine;  // this rank's cells, as the partitioner's objects
  std::vector<int> owner;          // owner rank of every cell, cells^2

  // Centres of this rank's cells, x y interleaved (the partitioner's points).
  [[nodiscard]] std::vector<double> centres(const ParticlesProblem& p) const;
};

// Collective: rows of cells in equal slabs, the layout before the first partition.
CellOwnership slab_cells(const hpart::Comm& comm, const ParticlesProblem& p);

// Collective: moves each of this rank's cells to the rank `parts` names (part r = rank r) and
// rebuilds the owner map. Returns the number of cells that changed owner (all ranks).
long long reassign_cells(const hpart::Comm& comm, CellOwnership& cells, std::span<const hpart::part_t> parts);

}  // namespace hpart_particles
