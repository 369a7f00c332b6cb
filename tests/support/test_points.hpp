#pragma once
// Deterministic test inputs: point i of a global set depends only on (seed, i), so the same
// global set can be spread over any number of ranks.
#include <cmath>
#include <cstdint>
#include <vector>

#include "hpart/types.hpp"

namespace hpart::testing {

inline std::uint64_t mix(std::uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
inline double unit(std::uint64_t seed, std::uint64_t i, int stream) {
  return static_cast<double>(mix(seed * 0x100000001b3ULL + i * 8 + static_cast<std::uint64_t>(stream)) >> 11) * 0x1.0p-53;
}

enum class Shape { uniform, clusters, plane, line, identical };

struct LocalPoints {
  int dim = 3;
  std::vector<double> coords, weights;
  std::vector<gid_t> ids;
};

// Points [begin, end) of a global set. Weighted sets get heavy-tailed weights (Pareto 2.5).
inline LocalPoints make_points(Shape shape, int dim, long long begin, long long end, bool weighted,
                               std::uint64_t seed = 7) {
  LocalPoints p;
  p.dim = dim;
  for (long long g = begin; g < end; ++g) {
    const auto i = static_cast<std::uint64_t>(g);
    double x[3] = {unit(seed, i, 0), unit(seed, i, 1), unit(seed, i, 2)};
    if (shape == Shape::clusters) {
      const auto c = mix(seed + i) % 5;
      for (int a = 0; a < 3; ++a) x[a] = 0.2 * static_cast<double>(c) + 0.03 * x[a];
    } else if (shape == Shape::plane) {
      x[dim - 1] = 0.5;
    } else if (shape == Shape::line) {
      for (int a = 1; a < 3; ++a) x[a] = 0.25;
    } else if (shape == Shape::identical) {
      x[0] = x[1] = x[2] = 0.125;
    }
    for (int a = 0; a < dim; ++a) p.coords.push_back(x[a]);
    if (weighted) p.weights.push_back(std::pow(1.0 - unit(seed, i, 3), -1.0 / 2.5));
    p.ids.push_back(g);
  }
  return p;
}

// An uneven block split of [0, n) over `ranks` ranks: rank 0 gets the least (none when
// ranks >= 3), so tests always meet empty and unequal ranks.
inline std::pair<long long, long long> uneven_block(long long n, int rank, int ranks) {
  if (ranks == 1) return {0, n};
  std::vector<long long> start(static_cast<std::size_t>(ranks) + 1, 0);
  long long total_shares = 0;
  for (int r = 0; r < ranks; ++r) total_shares += (ranks >= 3 && r == 0) ? 0 : r + 1;
  long long acc = 0;
  for (int r = 0; r < ranks; ++r) {
    acc += (ranks >= 3 && r == 0) ? 0 : r + 1;
    start[static_cast<std::size_t>(r) + 1] = n * acc / total_shares;
  }
  return {start[static_cast<std::size_t>(rank)], start[static_cast<std::size_t>(rank) + 1]};
}

}  // namespace hpart::testing
