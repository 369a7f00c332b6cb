#pragma once
// Deterministic generated point sets, shared by hpart-bench and `hpart generate`. Point i (global index) is drawn from a counter-based hash
// of (seed, i), so the global input is the same for any number of ranks; each rank generates its
// contiguous block of global indices.
#include <cstdint>
#include <string>
#include <vector>

#include "hpart/types.hpp"

namespace hpart_apps {

enum class PointCase { uniform3d, clusters3d, plane, uniform2d, clusters2d };

const char* to_string(PointCase c);
// Returns false for an unknown name.
bool point_case_from_string(const std::string& name, PointCase& out);
const char* point_case_names();  // "uniform3d, clusters3d, plane, uniform2d, clusters2d"
int case_dim(PointCase c);        // 2 or 3

struct LocalPoints {
  int dim = 3;
  long long global_n = 0;
  long long first_index = 0;     // global index of this rank's first point
  std::vector<double> coords;    // n * dim, interleaved
  std::vector<double> weights;   // empty for unit-weight cases
  std::vector<hpart::gid_t> ids; // global index of each point

  [[nodiscard]] std::size_t size() const { return ids.size(); }
  [[nodiscard]] std::size_t bytes() const {
    return coords.size() * sizeof(double) + weights.size() * sizeof(double) + ids.size() * sizeof(hpart::gid_t);
  }
};

// Global indices [first, first + count) of `rank`'s block of n points over `ranks` ranks.
void block_range(long long n, int rank, int ranks, long long& first, long long& count);

// This rank's block of the case's n points.
//   uniform3d:  uniform in the unit cube, unit weights.
//   clusters3d: 20 Gaussian clusters (centres, sigmas and populations fixed by the seed), Pareto
//               weights (alpha 2.5, minimum 1) clipped at kMaxClusterWeight.
//   plane:      uniform in the unit square at z = 0.5, unit weights.
//   uniform2d, clusters2d: the same in 2D (the clusters' x, y and weights as in 3D).
LocalPoints generate_points(PointCase c, long long n, int rank, int ranks, std::uint64_t seed);

inline constexpr double kMaxClusterWeight = 50.0;

}  // namespace hpart_apps
