#include "particles_problem.hpp"

namespace hpart_particles {
namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
double unit(hpart::gid_t id, int stream) {
  return static_cast<double>(mix(static_cast<std::uint64_t>(id) * 4 + static_cast<std::uint64_t>(stream)) >> 11) *
         0x1.0p-53;
}

}  // namespace

std::array<double, 2> ParticlesProblem::initial(hpart::gid_t id) const {
  const double inside = 1e-9, limit = 1.0 - 1e-9;
  const auto clamp = [&](double v) { return v < inside ? inside : (v > limit ? limit : v); };
  if (unit(id, 0) >= blob_fraction) return {unit(id, 1), unit(id, 2)};
  // Box-Muller: a Gaussian blob around `from`.
  const double r = blob_sigma * std::sqrt(-2.0 * std::log(1.0 - unit(id, 1)));
  const double a = 6.283185307179586 * unit(id, 2);
  return {clamp(from[0] + r * std::cos(a)), clamp(from[1] + r * std::sin(a))};
}

}  // namespace hpart_particles
