#pragma once
// The short-range forces of one step on one rank: a cell list over the owned particles and the
// ghosts, the soft repulsion of every pair closer than the cutoff, and the work per cell (the
// distance tests of its particles), which is what the partitioner balances. No MPI.
#include <span>
#include <vector>

#include "particle.hpp"
#include "particles_problem.hpp"

namespace hpart_particles {

class ForceKernel {
 public:
  explicit ForceKernel(const ParticlesProblem& p);
  // acc[i] for each owned particle; cell_work[c] += the distance tests of the owned particles
  // in cell c (cell_work has cells^2 entries). ghosts: x y interleaved. Returns the tests.
  long long run(std::span<const Particle> owned, std::span<const double> ghosts, std::vector<std::array<double, 2>>& acc,
                std::vector<double>& cell_work);

 private:
  ParticlesProblem p_;
  std::vector<int> cell_start_;  // counting sort of owned + ghosts by cell
  std::vector<double> sx_, sy_;  // positions in cell order
  std::vector<int> sorted_owned_;  // index of the owned particle at each sorted slot, -1 for a ghost
  std::vector<int> cell_;
};

// Advances velocities and positions by one step (the flow field, drag, reflecting walls).
void integrate(const ParticlesProblem& p, int step, std::span<const std::array<double, 2>> acc, std::span<Particle> ps);

}  // namespace hpart_particles
