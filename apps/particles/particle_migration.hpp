#pragma once
// Moving particles to the owners of their cells with hpart::Migration: only the particles that
// leave are in the plan (the others stay in place), and each travels as a variable-size record
// through a hpart::Serialiser: the fixed fields, then its owner trail's used entries.
#include <vector>

#include "cell_ownership.hpp"
#include "hpart/comm.hpp"
#include "particle.hpp"

namespace hpart_particles {

struct MigrationCount {
  long long particles = 0;  // that changed rank, all ranks
  long long bytes = 0;      // that left their rank, all ranks
};

// Collective. check_ids: let Migration verify that no id is given twice (an extra exchange of
// the leavers' ids; --check does it).
MigrationCount migrate_particles(const hpart::Comm& comm, const ParticlesProblem& p, const CellOwnership& cells,
                                 std::vector<Particle>& ps, bool check_ids);

}  // namespace hpart_particles
