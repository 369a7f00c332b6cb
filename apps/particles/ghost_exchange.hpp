#pragma once
// Ghost particles: every particle within one cell (the cutoff) of a cell another rank owns is
// sent there as a ghost (its position), each step. Which ranks see a cell is read from the owner
// map once per ownership change.
#include <span>
#include <vector>

#include "cell_ownership.hpp"
#include "hpart/comm.hpp"
#include "particle.hpp"

namespace hpart_particles {

class GhostExchange {
 public:
  GhostExchange() = default;
  GhostExchange(const hpart::Comm& comm, const ParticlesProblem& p, const CellOwnership& cells);
  // Collective: the ghosts this rank needs, x y interleaved.
  [[nodiscard]] std::vector<double> run(const hpart::Comm& comm, std::span<const Particle> owned) const;

 private:
  ParticlesProblem p_;
  int ranks_ = 1;
  // For every cell: the other ranks owning a cell among its 8 neighbours, at
  // viewers_[start_[c] .. start_[c + 1]).
  std::vector<int> start_, viewers_;
};

}  // namespace hpart_particles
