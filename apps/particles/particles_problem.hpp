#pragma once
// The physics and the moving load of hpart-particles (2D, unit square, reflecting walls).
//
// Particles repel each other with a soft short-range force a = k (1 - r/rc)^2 along the line of
// centres (SPH-like pressure), found with a cell list of side rc. A flow field carries a dense
// blob across the domain: the velocity relaxes (rate `drag`) towards
//   u(x, t) = w(x, t) (V + kappa (c(t) - x)),  w = exp(-|x - c(t)|^2 / (2 sigma_flow^2)),
// whose centre c(t) moves from `from` to `to` with velocity V over the run: the core moves with
// the blob centre and is held together against its own pressure. A particle's work per step is
// the number of particles in the 3x3 cells around its own (the distance tests of the cell
// list), so the blob, tens of times denser than the background, is where the time goes.
#include <array>
#include <cmath>
#include <cstdint>

#include "hpart/types.hpp"

namespace hpart_particles {

struct ParticlesProblem {
  long long n = 60000;      // particles
  int cells = 128;          // cell list: cells x cells, side rc = 1 / cells
  int steps = 400;
  double blob_fraction = 0.6;  // of the particles, in a Gaussian blob at `from`
  double blob_sigma = 0.06;
  double sigma_flow = 0.1;
  double kappa = 0.0015;    // pull towards the blob centre, per step
  double drag = 0.3;        // velocity relaxation per step
  double repulsion = 1e-5;  // k: acceleration of a touching pair, per step^2
  int work = 1;             // force evaluations per pair (a knob for the compute/communication ratio)
  std::array<double, 2> from{0.22, 0.25}, to{0.78, 0.75};

  [[nodiscard]] double cutoff() const { return 1.0 / cells; }
  // Blob centre during step s: linear along the path.
  [[nodiscard]] std::array<double, 2> centre(int s) const {
    const double t = steps > 1 ? static_cast<double>(s) / static_cast<double>(steps - 1) : 0.0;
    return {from[0] + t * (to[0] - from[0]), from[1] + t * (to[1] - from[1])};
  }
  [[nodiscard]] std::array<double, 2> drift() const {
    const double d = steps > 1 ? 1.0 / (steps - 1) : 0.0;
    return {(to[0] - from[0]) * d, (to[1] - from[1]) * d};
  }
  // Initial position of particle `id`: a function of the id alone, so any rank count starts
  // from the same set.
  [[nodiscard]] std::array<double, 2> initial(hpart::gid_t id) const;
  // Cell of a position, clamped into the grid.
  [[nodiscard]] std::int32_t cell_of(double x, double y) const {
    const auto clampi = [this](double v) {
      const auto c = static_cast<int>(v * cells);
      return c < 0 ? 0 : (c >= cells ? cells - 1 : c);
    };
    return clampi(y) * cells + clampi(x);
  }
};

}  // namespace hpart_particles
