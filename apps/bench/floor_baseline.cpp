#include "floor_baseline.hpp"

#include <algorithm>
#include <limits>

namespace hpart_bench {
namespace {

// Spreads the low 21 bits of v so that bit b lands at bit 3b.
inline std::uint64_t spread3(std::uint64_t v) {
  v &= 0x1fffffULL;
  v = (v | (v << 32)) & 0x1f00000000ffffULL;
  v = (v | (v << 16)) & 0x1f0000ff0000ffULL;
  v = (v | (v << 8)) & 0x100f00f00f00f00fULL;
  v = (v | (v << 4)) & 0x10c30c30c30c30c3ULL;
  v = (v | (v << 2)) & 0x1249249249249249ULL;
  return v;
}

}  // namespace

FloorBox floor_box(MPI_Comm comm, const LocalPoints& pts) {
  const double inf = std::numeric_limits<double>::infinity();
  double v[6] = {inf, inf, inf, inf, inf, inf};  // lo[3], -hi[3]
  for (std::size_t i = 0; i < pts.size(); ++i)
    for (int a = 0; a < 3; ++a) {
      v[a] = std::min(v[a], pts.coords[i * 3 + static_cast<std::size_t>(a)]);
      v[3 + a] = std::min(v[3 + a], -pts.coords[i * 3 + static_cast<std::size_t>(a)]);
    }
  MPI_Allreduce(MPI_IN_PLACE, v, 6, MPI_DOUBLE, MPI_MIN, comm);
  FloorBox b;
  for (int a = 0; a < 3; ++a) {
    const double extent = -v[3 + a] - v[a];
    b.lo[a] = extent >= 0.0 ? v[a] : 0.0;
    b.scale[a] = extent > 0.0 ? static_cast<double>((1u << 21) - 1) / extent : 0.0;
  }
  return b;
}

void floor_morton_keys(const LocalPoints& pts, const FloorBox& box, std::vector<std::uint64_t>& keys) {
  const auto n = static_cast<std::ptrdiff_t>(pts.size());
  const double* c = pts.coords.data();
  std::uint64_t* k = keys.data();
  const double lo0 = box.lo[0], lo1 = box.lo[1], lo2 = box.lo[2];
  const double s0 = box.scale[0], s1 = box.scale[1], s2 = box.scale[2];
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const double* p = c + 3 * i;
    const auto x = static_cast<std::uint64_t>((p[0] - lo0) * s0);
    const auto y = static_cast<std::uint64_t>((p[1] - lo1) * s1);
    const auto z = static_cast<std::uint64_t>((p[2] - lo2) * s2);
    k[i] = spread3(x) | (spread3(y) << 1) | (spread3(z) << 2);
  }
}

}  // namespace hpart_bench
