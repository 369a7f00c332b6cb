#include "graph_generators.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>

namespace hpart_apps {
namespace {

std::vector<hpart::gid_t> block_vtxdist(const hpart::Comm& comm, std::int64_t units, std::int64_t per_unit) {
  std::vector<hpart::gid_t> d(static_cast<std::size_t>(comm.size()) + 1);
  for (int r = 0; r <= comm.size(); ++r) d[static_cast<std::size_t>(r)] = units * r / comm.size() * per_unit;
  return d;
}

// splitmix64: the per-point random numbers, a pure function of (seed, point, stream).
double uniform(std::uint64_t seed, std::uint64_t i, int stream) {
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ULL + i * 0xBF58476D1CE4E5B9ULL + static_cast<std::uint64_t>(stream) * 0x94D049BB133111EBULL;
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBULL;
  x ^= x >> 31;
  return static_cast<double>(x >> 11) * 0x1.0p-53;
}

}  // namespace

hpart::GraphFile grid_graph_3d(const hpart::Comm& comm, std::int64_t side) {
  hpart::GraphFile f;
  f.vtxdist = block_vtxdist(comm, side, side * side);
  f.dim = 3;
  const hpart::gid_t lo = f.vtxdist[static_cast<std::size_t>(comm.rank())], hi = f.vtxdist[static_cast<std::size_t>(comm.rank()) + 1];
  for (hpart::gid_t v = lo; v < hi; ++v) {
    const std::int64_t x = v % side, y = (v / side) % side, z = v / (side * side);
    const std::int64_t c[3] = {x, y, z};
    for (int d = 0; d < 3; ++d)
      for (int s : {-1, 1}) {
        std::int64_t o[3] = {x, y, z};
        o[d] += s;
        if (o[d] < 0 || o[d] >= side) continue;
        f.adjncy.push_back(o[0] + side * (o[1] + side * o[2]));
      }
    f.xadj.push_back(static_cast<std::int64_t>(f.adjncy.size()));
    for (int d = 0; d < 3; ++d) f.coords.push_back(static_cast<double>(c[d]) + 0.5);
  }
  f.xadj.insert(f.xadj.begin(), 0);
  f.global_vertices = side * side * side;
  f.global_edges = 3 * side * side * (side - 1);
  return f;
}

hpart::GraphFile random_geometric_2d(const hpart::Comm& comm, std::int64_t cells, int per_cell, std::uint64_t seed) {
  hpart::GraphFile f;
  const std::int64_t k = per_cell;
  f.vtxdist = block_vtxdist(comm, cells, cells * k);
  f.dim = 2;
  const double h = 1.0 / static_cast<double>(cells);
  const auto point = [&](hpart::gid_t v, double& x, double& y) {
    const std::int64_t cell = v / k;
    x = (static_cast<double>(cell % cells) + uniform(seed, static_cast<std::uint64_t>(v), 0)) * h;
    y = (static_cast<double>(cell / cells) + uniform(seed, static_cast<std::uint64_t>(v), 1)) * h;
  };
  const hpart::gid_t lo = f.vtxdist[static_cast<std::size_t>(comm.rank())], hi = f.vtxdist[static_cast<std::size_t>(comm.rank()) + 1];
  f.xadj.push_back(0);
  std::int64_t degree_sum = 0;
  for (hpart::gid_t v = lo; v < hi; ++v) {
    double x = 0, y = 0;
    point(v, x, y);
    const std::int64_t cx = (v / k) % cells, cy = (v / k) / cells;
    for (std::int64_t ny = std::max<std::int64_t>(0, cy - 1); ny <= std::min(cells - 1, cy + 1); ++ny)
      for (std::int64_t nx = std::max<std::int64_t>(0, cx - 1); nx <= std::min(cells - 1, cx + 1); ++nx)
        for (std::int64_t j = 0; j < k; ++j) {
          const hpart::gid_t u = (ny * cells + nx) * k + j;
          if (u == v) continue;
          double ux = 0, uy = 0;
          point(u, ux, uy);
          if ((ux - x) * (ux - x) + (uy - y) * (uy - y) < h * h) f.adjncy.push_back(u);
        }
    f.xadj.push_back(static_cast<std::int64_t>(f.adjncy.size()));
    f.coords.push_back(x);
    f.coords.push_back(y);
  }
  degree_sum = static_cast<std::int64_t>(f.adjncy.size());
  MPI_Allreduce(MPI_IN_PLACE, &degree_sum, 1, MPI_INT64_T, MPI_SUM, comm.get());
  f.global_vertices = cells * cells * k;
  f.global_edges = degree_sum / 2;
  return f;
}

}  // namespace hpart_apps
