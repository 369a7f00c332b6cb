#include "force_kernel.hpp"

#include <cmath>

namespace hpart_particles {

ForceKernel::ForceKernel(const ParticlesProblem& p) : p_(p) {}

long long ForceKernel::run(std::span<const Particle> owned, std::span<const double> ghosts,
                           std::vector<std::array<double, 2>>& acc, std::vector<double>& cell_work) {
  const int G = p_.cells;
  const std::size_t n_owned = owned.size(), n = n_owned + ghosts.size() / 2;
  cell_.resize(n);
  cell_start_.assign(static_cast<std::size_t>(G) * static_cast<std::size_t>(G) + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const double x = i < n_owned ? owned[i].x[0] : ghosts[2 * (i - n_owned)];
    const double y = i < n_owned ? owned[i].x[1] : ghosts[2 * (i - n_owned) + 1];
    cell_[i] = p_.cell_of(x, y);
    ++cell_start_[static_cast<std::size_t>(cell_[i]) + 1];
  }
  for (std::size_t c = 1; c < cell_start_.size(); ++c) cell_start_[c] += cell_start_[c - 1];
  sx_.resize(n);
  sy_.resize(n);
  sorted_owned_.resize(n);
  std::vector<int> fill(cell_start_.begin(), cell_start_.end() - 1);
  for (std::size_t i = 0; i < n; ++i) {
    const auto s = static_cast<std::size_t>(fill[static_cast<std::size_t>(cell_[i])]++);
    sx_[s] = i < n_owned ? owned[i].x[0] : ghosts[2 * (i - n_owned)];
    sy_[s] = i < n_owned ? owned[i].x[1] : ghosts[2 * (i - n_owned) + 1];
    sorted_owned_[s] = i < n_owned ? static_cast<int>(i) : -1;
  }

  acc.assign(n_owned, {0.0, 0.0});
  const double rc = p_.cutoff(), rc2 = rc * rc, k = p_.repulsion / p_.work;
  long long tests = 0;
  for (std::size_t s = 0; s < n; ++s) {
    const int i = sorted_owned_[s];
    if (i < 0) continue;
    const int c = cell_[static_cast<std::size_t>(i)], cx = c % G, cy = c / G;
    double ax = 0, ay = 0;
    long long mine = 0;
    for (int ny = cy - 1; ny <= cy + 1; ++ny) {
      if (ny < 0 || ny >= G) continue;
      const int lo = cell_start_[static_cast<std::size_t>(ny * G + (cx > 0 ? cx - 1 : 0))];
      const int hi = cell_start_[static_cast<std::size_t>(ny * G + (cx < G - 1 ? cx + 1 : cx)) + 1];
      mine += hi - lo;
      for (int t = lo; t < hi; ++t) {
        const double dx = sx_[s] - sx_[static_cast<std::size_t>(t)], dy = sy_[s] - sy_[static_cast<std::size_t>(t)];
        const double r2 = dx * dx + dy * dy;
        if (r2 >= rc2 || static_cast<std::size_t>(t) == s) continue;
        const double r = std::sqrt(r2) + 1e-12 * rc;
        for (int w = 0; w < p_.work; ++w) {  // --work: the same force, evaluated again
          const double q = 1.0 - r / rc, f = k * q * q / r;
          ax += f * dx;
          ay += f * dy;
        }
      }
    }
    acc[static_cast<std::size_t>(i)] = {ax, ay};
    cell_work[static_cast<std::size_t>(c)] += static_cast<double>(mine);
    tests += mine;
  }
  return tests;
}

void integrate(const ParticlesProblem& p, int step, std::span<const std::array<double, 2>> acc, std::span<Particle> ps) {
  const auto c = p.centre(step);
  const auto V = p.drift();
  const double two_s2 = 2.0 * p.sigma_flow * p.sigma_flow;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    Particle& q = ps[i];
    const double rx = c[0] - q.x[0], ry = c[1] - q.x[1];
    const double w = std::exp(-(rx * rx + ry * ry) / two_s2);
    const double ux = w * (V[0] + p.kappa * rx), uy = w * (V[1] + p.kappa * ry);
    q.v[0] += acc[i][0] + p.drag * (ux - q.v[0]);
    q.v[1] += acc[i][1] + p.drag * (uy - q.v[1]);
    for (std::size_t d = 0; d < 2; ++d) {
      q.x[d] += q.v[d];
      if (q.x[d] < 0) q.x[d] = -q.x[d], q.v[d] = -q.v[d];
      if (q.x[d] >= 1) q.x[d] = 2.0 - q.x[d] - 1e-12, q.v[d] = -q.v[d];
    }
  }
}

}  // namespace hpart_particles
