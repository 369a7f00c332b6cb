#pragma once
// Test graphs built in place: an nx x ny 4-neighbour grid graph distributed in uneven blocks of
// rows (rank 0 holds none at np >= 3), with coordinates and optional multi-constraint weights.
#include <vector>

#include "hpart/graph.hpp"
#include "test_points.hpp"

namespace hpart::testing {

inline hpart::GraphFile grid_graph(std::int64_t nx, std::int64_t ny, int rank, int ranks, int ncon = 0) {
  hpart::GraphFile f;
  f.vtxdist.assign(static_cast<std::size_t>(ranks) + 1, 0);
  for (int r = 0; r < ranks; ++r) {
    const auto [b, e] = uneven_block(ny, r, ranks);
    f.vtxdist[static_cast<std::size_t>(r) + 1] = e * nx;
    (void)b;
  }
  const gid_t lo = f.vtxdist[static_cast<std::size_t>(rank)], hi = f.vtxdist[static_cast<std::size_t>(rank) + 1];
  f.xadj.push_back(0);
  f.dim = 2;
  f.ncon = ncon == 0 ? 1 : ncon;
  for (gid_t v = lo; v < hi; ++v) {
    const std::int64_t x = v % nx, y = v / nx;
    if (x > 0) f.adjncy.push_back(v - 1);
    if (x + 1 < nx) f.adjncy.push_back(v + 1);
    if (y > 0) f.adjncy.push_back(v - nx);
    if (y + 1 < ny) f.adjncy.push_back(v + nx);
    f.xadj.push_back(static_cast<std::int64_t>(f.adjncy.size()));
    f.coords.push_back(static_cast<double>(x));
    f.coords.push_back(static_cast<double>(y));
    for (int c = 0; c < ncon; ++c)  // deterministic weights in 1..5, different per constraint
      f.vwgt.push_back(1 + static_cast<std::int64_t>(mix(static_cast<std::uint64_t>(v) * 7 + static_cast<std::uint64_t>(c)) % 5));
  }
  f.global_vertices = nx * ny;
  f.global_edges = (nx - 1) * ny + nx * (ny - 1);
  return f;
}

// A graph with every array lent at 32 bits (ids, offsets, vertex and edge weights), as a caller
// with int32 arrays (ParMETIS idx_t, Fortran, numpy int32) lends it: hpart reads them in place.
struct All32 {
  std::vector<std::int32_t> xadj, adjncy, vwgt, adjwgt;
  Graph g;
  explicit All32(const GraphFile& f)
      : xadj(f.xadj.begin(), f.xadj.end()), adjncy(f.adjncy.begin(), f.adjncy.end()), vwgt(f.vwgt.begin(), f.vwgt.end()),
        adjwgt(f.adjwgt.begin(), f.adjwgt.end()) {
    g.vtxdist = f.vtxdist;
    g.xadj = xadj;
    g.adjncy32 = adjncy;
    g.vwgt = vwgt;
    g.adjwgt = adjwgt;
    g.ncon = f.ncon;
    g.coords = f.coords;
    g.dim = f.dim;
  }
  All32(const All32&) = delete;  // g views the vectors above
  All32& operator=(const All32&) = delete;
};

}  // namespace hpart::testing
