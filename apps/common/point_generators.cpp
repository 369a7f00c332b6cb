#include "point_generators.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace hpart_apps {
namespace {

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL;

constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// A splitmix64 stream seeded from (seed, index): the k-th draw depends only on seed, index and k.
class CounterRng {
 public:
  CounterRng(std::uint64_t seed, std::uint64_t index) : state_(mix64(seed ^ mix64(index + kGolden))) {}
  std::uint64_t next() {
    state_ += kGolden;
    return mix64(state_);
  }
  // Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform in (0, 1].
  double uniform_open0() { return (static_cast<double>(next() >> 11) + 1.0) * 0x1.0p-53; }
  // Standard normal pair (Box-Muller).
  std::array<double, 2> normal2() {
    const double r = std::sqrt(-2.0 * std::log(uniform_open0()));
    const double t = 2.0 * std::numbers::pi * uniform();
    return {r * std::cos(t), r * std::sin(t)};
  }

 private:
  std::uint64_t state_;
};

constexpr int kClusters = 20;
constexpr double kParetoAlpha = 2.5;

struct Cluster {
  std::array<double, 3> centre{};
  double sigma = 0.0;
  double cumulative = 0.0;  // cumulative selection probability, last one is 1
};

// Fixed by the seed alone (stream index ~0 keeps it apart from the point streams).
std::array<Cluster, kClusters> make_clusters(std::uint64_t seed) {
  std::array<Cluster, kClusters> cl{};
  CounterRng rng(seed, ~0ULL);
  double total = 0.0;
  for (auto& c : cl) {
    for (double& x : c.centre) x = 0.1 + 0.8 * rng.uniform();
    c.sigma = 0.005 * std::pow(10.0, rng.uniform());  // log-uniform in [0.005, 0.05)
    c.cumulative = 0.2 + rng.uniform();                // relative population
    total += c.cumulative;
  }
  double run = 0.0;
  for (auto& c : cl) {
    run += c.cumulative / total;
    c.cumulative = run;
  }
  cl.back().cumulative = 1.0;
  return cl;
}

}  // namespace

const char* to_string(PointCase c) {
  switch (c) {
    case PointCase::uniform3d: return "uniform3d";
    case PointCase::clusters3d: return "clusters3d";
    case PointCase::plane: return "plane";
    case PointCase::uniform2d: return "uniform2d";
    case PointCase::clusters2d: return "clusters2d";
  }
  return "?";
}

bool point_case_from_string(const std::string& name, PointCase& out) {
  for (PointCase c : {PointCase::uniform3d, PointCase::clusters3d, PointCase::plane, PointCase::uniform2d,
                      PointCase::clusters2d})
    if (name == to_string(c)) {
      out = c;
      return true;
    }
  return false;
}

const char* point_case_names() { return "uniform3d, clusters3d, plane, uniform2d, clusters2d"; }

int case_dim(PointCase c) { return c == PointCase::uniform2d || c == PointCase::clusters2d ? 2 : 3; }

void block_range(long long n, int rank, int ranks, long long& first, long long& count) {
  first = n / ranks * rank + std::min<long long>(rank, n % ranks);
  count = n / ranks + (rank < n % ranks ? 1 : 0);
}

LocalPoints generate_points(PointCase kind, long long n, int rank, int ranks, std::uint64_t seed) {
  LocalPoints p;
  p.dim = case_dim(kind);
  const auto dim = static_cast<std::size_t>(p.dim);
  p.global_n = n;
  long long count = 0;
  block_range(n, rank, ranks, p.first_index, count);
  const auto m = static_cast<std::size_t>(count);
  p.coords.resize(m * dim);
  p.ids.resize(m);
  const bool clustered = kind == PointCase::clusters3d || kind == PointCase::clusters2d;
  if (clustered) p.weights.resize(m);
  const std::uint64_t case_seed = mix64(seed + static_cast<std::uint64_t>(kind) * kGolden);
  const auto clusters = make_clusters(case_seed);
  const auto sm = static_cast<std::ptrdiff_t>(m);

#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t j = 0; j < sm; ++j) {
    const auto i = static_cast<std::size_t>(j);
    const long long g = p.first_index + j;
    p.ids[i] = g;
    CounterRng rng(case_seed, static_cast<std::uint64_t>(g));
    double* x = &p.coords[i * dim];
    switch (kind) {
      case PointCase::uniform3d:
      case PointCase::uniform2d:
        for (std::size_t a = 0; a < dim; ++a) x[a] = rng.uniform();
        break;
      case PointCase::plane:
        x[0] = rng.uniform();
        x[1] = rng.uniform();
        x[2] = 0.5;
        break;
      case PointCase::clusters3d:
      case PointCase::clusters2d: {
        const double u = rng.uniform();
        int c = 0;
        while (c + 1 < kClusters && u >= clusters[static_cast<std::size_t>(c)].cumulative) ++c;
        const Cluster& cl = clusters[static_cast<std::size_t>(c)];
        const auto n01 = rng.normal2();
        const auto n23 = rng.normal2();
        x[0] = cl.centre[0] + cl.sigma * n01[0];
        x[1] = cl.centre[1] + cl.sigma * n01[1];
        if (dim == 3) x[2] = cl.centre[2] + cl.sigma * n23[0];
        // Pareto(alpha, x_m = 1) by inversion, clipped.
        p.weights[i] = std::min(kMaxClusterWeight, std::pow(rng.uniform_open0(), -1.0 / kParetoAlpha));
        break;
      }
    }
  }
  return p;
}

}  // namespace hpart_apps
