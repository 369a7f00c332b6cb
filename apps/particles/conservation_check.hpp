#pragma once
// --check: what migrations must conserve, counted over all ranks. The id set (count, sum and a
// hash sum of the ids), the total of the particles' hop counters (which must equal the
// migrations counted by hpart::Migration), owner trails that end at the current owner, and
// particles that sit in a cell of their own rank.
#include <vector>

#include "cell_ownership.hpp"
#include "hpart/comm.hpp"
#include "particle.hpp"

namespace hpart_particles {

struct Census {
  long long count = 0, id_sum = 0;
  unsigned long long id_hash = 0;
  long long hops = 0;
  long long bad_trails = 0;  // trail empty, too long, or not ending at this rank
  long long misplaced = 0;   // in a cell another rank owns
};

// Collective.
Census take_census(const hpart::Comm& comm, const ParticlesProblem& p, const CellOwnership& cells,
                   const std::vector<Particle>& ps);

}  // namespace hpart_particles
