// The first phases of a diffusion round: the arcs (flows to realise), their directions and the
// candidates that may move along them.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "points/point_diffusion_round.hpp"

namespace hpart::repart::diffusion {

namespace {

// Mean centre of the cells set in both bit rows a and b, over the words [w0, w1) of the grid;
// returns how many there are (0: out untouched).
double mean_cell_centre(const ContactGrid& g, const std::uint64_t* a, const std::uint64_t* b, std::size_t w0,
                        std::size_t w1, double* out) {
  const std::int64_t sx = g.cells[0], sy = g.cells[1];
  const double h = 1.0 / g.inv_cell;
  double sum[3] = {0, 0, 0}, count = 0.0;
  for (std::size_t wi = w0; wi < w1; ++wi)
    for (std::uint64_t bits = a[wi] & b[wi]; bits; bits &= bits - 1) {
      const auto u = static_cast<std::int64_t>(wi * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
      const std::int64_t k[3] = {u % sx, (u / sx) % sy, u / (sx * sy)};
      for (int d = 0; d < g.dim; ++d) sum[d] += static_cast<double>(k[d]);
      count += 1.0;
    }
  if (count == 0.0) return 0.0;
  for (int d = 0; d < g.dim; ++d) out[d] = g.lo[static_cast<std::size_t>(d)] + (sum[d] / count + 0.5) * h;
  return count;
}

// Turns the unit vector n (dimension D) by about 3 degrees, towards a lateral direction that
// mixes the two lateral axes in the golden ratio in 3D, and renormalises it.
void tilt(double* n, std::size_t D) {
  constexpr double kTilt = 0.05, kGolden = 0.6180339887498949;
  double m[3] = {0, 0, 0};
  if (D == 2) {
    m[0] = -n[1], m[1] = n[0];
  } else if (D == 3) {
    // Lateral axes: n x e (e the axis least aligned with n) and n x (n x e).
    std::size_t axis = 0;
    for (std::size_t d = 1; d < 3; ++d)
      if (std::abs(n[d]) < std::abs(n[axis])) axis = d;
    double e[3] = {0, 0, 0};
    e[axis] = 1.0;
    const auto cross = [](const double* a, const double* b) {
      return std::array<double, 3>{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    };
    const std::array<double, 3> u = cross(n, e), v = cross(n, u.data());
    const double lu = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (std::size_t d = 0; d < 3; ++d) m[d] = (u[d] + kGolden * v[d]) / lu;
  } else {
    return;  // 1D: no lateral direction, a layer is one object
  }
  double len = 0.0;
  for (std::size_t d = 0; d < D; ++d) n[d] += kTilt * m[d], len += n[d] * n[d];
  len = std::sqrt(len);
  for (std::size_t d = 0; d < D; ++d) n[d] /= len;
}

}  // namespace

std::vector<Arc> arcs_from_flows(std::span<const PartEdge> edges, std::span<const double> flow,
                                 std::span<const double> centroid, std::size_t D, double avg) {
  std::vector<Arc> arcs;
  for (std::size_t e = 0; e < edges.size(); ++e) {
    if (!(std::abs(flow[e]) > 1e-9 * avg)) continue;
    Arc a;
    a.from = flow[e] > 0 ? edges[e].p : edges[e].q;
    a.to = flow[e] > 0 ? edges[e].q : edges[e].p;
    a.amount = std::abs(flow[e]);
    const auto f = static_cast<std::size_t>(a.from), t = static_cast<std::size_t>(a.to);
    double len = 0.0;
    for (std::size_t d = 0; d < D; ++d) {
      a.dir[d] = centroid[t * D + d] - centroid[f * D + d];
      len += a.dir[d] * a.dir[d];
    }
    if (!(len > 0.0)) continue;
    len = std::sqrt(len);
    for (std::size_t d = 0; d < D; ++d) a.dir[d] /= len;
    arcs.push_back(a);
  }
  std::stable_sort(arcs.begin(), arcs.end(), [](const Arc& a, const Arc& b) { return a.from < b.from; });
  return arcs;
}

std::vector<std::size_t> arcs_by_source(std::span<const Arc> arcs, std::size_t K) {
  std::vector<std::size_t> first(K + 1, 0);
  for (const Arc& a : arcs) ++first[static_cast<std::size_t>(a.from) + 1];
  for (std::size_t p = 0; p < K; ++p) first[p + 1] += first[p];
  return first;
}

NearRows near_rows(const ContactGrid& grid, std::span<const std::uint64_t> bitmap, std::span<const Arc> arcs,
                   std::size_t K, DiffusionCache& cache) {
  const std::size_t wpp = grid.words_per_part();
  NearRows near;
  near.row.assign(K, -1);
  std::size_t rows = 0;
  for (const Arc& a : arcs)
    for (const int e : {a.to, a.from})
      if (near.row[static_cast<std::size_t>(e)] < 0) near.row[static_cast<std::size_t>(e)] = static_cast<std::int32_t>(rows++);
  cache.near_rows.resize(rows * wpp);
  near.word_begin.assign(K, 0);
  near.word_end.assign(K, 0);
  std::vector<std::uint64_t> dilated;
  for (std::size_t q = 0; q < K; ++q) {
    if (near.row[q] < 0) continue;
    const std::uint64_t* own = bitmap.data() + q * wpp;
    std::size_t b = 0, e = wpp;
    while (b < e && own[b] == 0) ++b;
    while (e > b && own[e - 1] == 0) --e;
    near.word_begin[q] = b, near.word_end[q] = e;
    dilate_row(grid, cache.masks, bitmap.subspan(q * wpp, wpp), kRings, dilated, cache.scratch);
    std::copy(dilated.begin(), dilated.end(),
              cache.near_rows.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(near.row[q]) * wpp));
  }
  near.of_arc.resize(arcs.size());
  for (std::size_t k = 0; k < arcs.size(); ++k)
    near.of_arc[k] = cache.near_rows.data() + static_cast<std::size_t>(near.row[static_cast<std::size_t>(arcs[k].to)]) * wpp;
  return near;
}

void orient_arcs(std::span<Arc> arcs, const ContactGrid& grid, std::span<const std::uint64_t> bitmap,
                 const NearRows& near, std::span<const double> centroid, const double* lo_box, const double* hi_box,
                 std::size_t D, const DiffusionCache& cache) {
  const std::size_t wpp = grid.words_per_part();
  auto near_of = [&](int part) {
    return cache.near_rows.data() + static_cast<std::size_t>(near.row[static_cast<std::size_t>(part)]) * wpp;
  };
  // Each flow moves along the normal of its interface: from the centre of the source's cells
  // near the receiver to the centre of the receiver's cells near the source (the line between
  // the centroids instead cuts an interface between offset parts at a slant, and the surface
  // then grew faster: drift3d's faces 1.33x a fresh partition's at the end, against 1.23x).
  // The bitmap is the same on every rank, so are the directions. The centroids' line remains
  // where the two bands are empty or share their centre.
  for (std::size_t k = 0; k < arcs.size(); ++k) {
    Arc& a = arcs[k];
    const auto p = static_cast<std::size_t>(a.from), q = static_cast<std::size_t>(a.to);
    double cp[3] = {0, 0, 0}, cq[3] = {0, 0, 0};
    if (mean_cell_centre(grid, bitmap.data() + p * wpp, near.of_arc[k], near.word_begin[p], near.word_end[p], cp) ==
            0.0 ||
        mean_cell_centre(grid, bitmap.data() + q * wpp, near_of(a.from), near.word_begin[q], near.word_end[q], cq) ==
            0.0)
      continue;
    double dir[3] = {0, 0, 0}, len = 0.0;
    for (std::size_t d = 0; d < D; ++d) dir[d] = cq[d] - cp[d], len += dir[d] * dir[d];
    if (!(len > 0.0)) continue;
    len = std::sqrt(len);
    for (std::size_t d = 0; d < D; ++d) a.dir[d] = dir[d] / len;
  }
  // A slight tilt (~3 degrees, along an irrational mix of the two lateral axes in 3D) orders the
  // objects of one layer by their place along the interface: on a lattice a layer normal to an
  // axis otherwise shares one depth, and a flow smaller than the layer could take none of it
  // (the test grid's last 3% stalled so). A contiguous run of the layer moves first instead.
  for (Arc& a : arcs) tilt(a.dir.data(), D);
  // Depths are measured over the projection of the global box, the same on every rank without
  // a reduction; 4096 steps over it resolve far below the object spacing.
  for (Arc& a : arcs) {
    const auto f = static_cast<std::size_t>(a.from);
    double lo = 0.0, hi = 0.0;
    for (std::size_t d = 0; d < D; ++d) {
      const double u = a.dir[d] * (lo_box[d] - centroid[f * D + d]), v = a.dir[d] * (hi_box[d] - centroid[f * D + d]);
      lo += std::min(u, v), hi += std::max(u, v);
    }
    a.top = hi;
    a.width = hi > lo ? hi - lo : 1.0;
    a.inv_width = 1.0 / a.width;
  }
}

// The candidates: per object of a part with flows out, one entry per such flow whose receiver
// holds a cell within kRings of the object's cell, with its projection on the flow's direction.
// The receivers' bitmap rows, dilated by kRings, answer "near?" per cell, so only the cells of the
// sources near their receivers are visited, through the objects-by-cell index. Entries of one
// object are consecutive.
void gather_candidates(std::span<const Arc> arcs, std::span<const std::size_t> first, const NearRows& near,
                       std::span<const std::uint64_t> bitmap, std::size_t wpp, std::span<const part_t> parts,
                       const PointSet& points, std::span<const double> centroid, DiffusionCache& cache,
                       std::vector<double>& hist) {
  const std::size_t K = first.size() - 1, D = static_cast<std::size_t>(points.dim);
  const std::vector<const std::uint64_t*>& row_of = near.of_arc;
  std::vector<Candidate>& ent = cache.candidates;
  std::vector<std::size_t> near_arcs;
  for (std::size_t p = 0; p < K; ++p) {
    if (first[p] == first[p + 1]) continue;
    const auto part = static_cast<part_t>(p);
    const std::uint64_t* own = bitmap.data() + p * wpp;
    for (std::size_t wi = 0; wi < wpp; ++wi) {
      if (own[wi] == 0) continue;
      std::uint64_t any = 0;  // cells of this word near some receiver of p
      for (std::size_t k = first[p]; k < first[p + 1]; ++k) any |= row_of[k][wi];
      for (std::uint64_t bits = own[wi] & any; bits; bits &= bits - 1) {
        const std::size_t u = wi * 64 + static_cast<std::size_t>(std::countr_zero(bits));
        near_arcs.clear();
        for (std::size_t k = first[p]; k < first[p + 1]; ++k)
          if ((row_of[k][wi] >> (u % 64)) & 1u) near_arcs.push_back(k);
        for (auto j = cache.cell_start[u]; j < cache.cell_start[u + 1]; ++j) {
          const auto i = static_cast<std::size_t>(cache.by_cell[static_cast<std::size_t>(j)]);
          if (parts[i] != part) continue;
          const double* x = &points.coords[i * D];
          for (const std::size_t k : near_arcs) {
            double sp = 0.0;
            for (std::size_t d = 0; d < D; ++d) sp += arcs[k].dir[d] * (x[d] - centroid[p * D + d]);
            const double t = std::clamp((arcs[k].top - sp) * arcs[k].inv_width, 0.0, 1.0 - 1e-12) * kBins;
            ent.push_back({static_cast<std::uint32_t>(i), static_cast<std::int32_t>(k), t});
            hist[k * kBinCount + static_cast<std::size_t>(t)] += object_weight(points, i);
          }
        }
      }
    }
  }
}

}  // namespace hpart::repart::diffusion
