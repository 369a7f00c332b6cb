#pragma once
// One particle as a rank holds it. The owner trail (the ranks that held it, newest last, at
// most kTrailCapacity) is stored in a fixed slot but travels with only its used entries: the
// variable-size part of a migration (particle_migration.cpp).
#include <array>
#include <cstdint>

#include "hpart/types.hpp"

namespace hpart_particles {

inline constexpr int kTrailCapacity = 8;

struct Particle {
  hpart::gid_t id = 0;
  std::array<double, 2> x{}, v{};
  std::int32_t hops = 0;       // migrations so far (rebalances and crossings)
  std::int32_t trail_size = 0;
  std::array<std::int32_t, kTrailCapacity> trail{};

  void arrive(int rank) {
    ++hops;
    if (trail_size == kTrailCapacity) {
      for (int k = 1; k < kTrailCapacity; ++k) trail[static_cast<std::size_t>(k - 1)] = trail[static_cast<std::size_t>(k)];
      --trail_size;
    }
    trail[static_cast<std::size_t>(trail_size++)] = rank;
  }
};

}  // namespace hpart_particles
