// The measuring phases of PointDiffusion: the part weights, centroids and occupancy (one pass
// over the objects, fused with the points' validation scan when the cache allows; after a round,
// from the objects it moved only), and the part contacts of the occupancy.
#include <mpi.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <numeric>
#include <type_traits>

#include "core/log.hpp"
#include "core/validate.hpp"
#include "points/part_contacts.hpp"
#include "points/point_diffusion.hpp"

namespace hpart::repart {

namespace {

// The measuring pass over the local objects: per part its weight, count and coordinate sums
// (sums: K weights, K counts, K x Dim coordinate sums), each object's cell (stored into `cell`;
// returns whether none changed) and the occupancy bits; parts_valid is cleared when a part lies
// outside [0, K) (that object is then counted in part 0). With Scan, it is also the points'
// validation scan (what detail::scan_points finds, for unit or single weights), so the
// coordinates are read once. Cells and checks come first, a block at a time, in a loop free of
// branches (so the compiler keeps it in vector registers); the sums then follow the runs of one
// part (long along a curve or a grid line) in registers, carried across blocks: adding into
// sums[p] object by object would chain every add through memory.
template <int Dim, bool Scan>
bool measure_pass(const PointSet& points, std::span<const part_t> parts, const ContactGrid& grid, std::size_t K,
                  std::vector<double>& sums, std::vector<std::int32_t>& cell, std::vector<std::uint64_t>& bits,
                  detail::PointScan* scan, bool& parts_valid) {
  const std::size_t n = parts.size(), wpp = grid.words_per_part();
  const double* coords = points.coords.data();
  const double* weights = points.weights.empty() ? nullptr : points.weights.data();
  const auto stride = static_cast<std::size_t>(points.ncon);
  const double inf = std::numeric_limits<double>::infinity();
  constexpr std::uint64_t kExp = 0x7ff0000000000000ULL;  // all ones: inf or NaN
  double lo[Dim], hi[Dim], origin[Dim], top[Dim], wmax = 0.0;
  std::int32_t step[Dim];
  std::int32_t s = 1;
  for (int d = 0; d < Dim; ++d) {
    const auto u = static_cast<std::size_t>(d);
    lo[d] = inf, hi[d] = -inf;
    origin[d] = grid.lo[u];
    top[d] = static_cast<double>(grid.cells[u] - 1);
    step[d] = s;
    s *= grid.cells[u];
  }
  const double inv = grid.inv_cell;
  std::uint64_t bad = 0, wbad = 0;
  std::int32_t changed = 0;
  // The run being summed.
  part_t part = -1;
  std::uint64_t* row = nullptr;
  double wsum = 0.0, xs[Dim] = {}, count = 0.0;
  std::int32_t last = -1;
  auto flush = [&] {
    if (part < 0) return;
    const auto p = static_cast<std::size_t>(part);
    sums[p] += wsum;
    sums[K + p] += count;
    for (int d = 0; d < Dim; ++d) sums[2 * K + p * Dim + static_cast<std::size_t>(d)] += xs[d];
  };
  constexpr std::size_t kBlock = 512;
  for (std::size_t b0 = 0; b0 < n; b0 += kBlock) {
    const std::size_t b1 = std::min(n, b0 + kBlock);
    for (std::size_t j = b0; j < b1; ++j) {
      const double* x = coords + j * Dim;
      std::int32_t u = 0;
      for (int d = 0; d < Dim; ++d) {
        if constexpr (Scan) {
          lo[d] = std::min(lo[d], x[d]), hi[d] = std::max(hi[d], x[d]);
          bad |= static_cast<std::uint64_t>((std::bit_cast<std::uint64_t>(x[d]) & kExp) == kExp);
        }
        // Clamped before the conversion: a NaN (which fails the validation) lands in cell 0.
        const double t = std::min(top[d], std::max(0.0, (x[d] - origin[d]) * inv));
        u += static_cast<std::int32_t>(t) * step[d];
      }
      changed |= cell[j] ^ u;
      cell[j] = u;
    }
    for (std::size_t j = b0; j < b1; ++j) {
      if (parts[j] != part) {
        flush();
        part = parts[j];
        // A part outside [0, K) fails the call's validation; counted as part 0 meanwhile.
        if (static_cast<std::size_t>(static_cast<std::make_unsigned_t<part_t>>(part)) >= K) parts_valid = false, part = 0;
        row = bits.data() + static_cast<std::size_t>(part) * wpp;
        wsum = 0.0, count = 0.0, last = -1;
        for (int d = 0; d < Dim; ++d) xs[d] = 0.0;
      }
      const double* x = coords + j * Dim;
      const double wj = weights ? weights[j * stride] : 1.0;
      if constexpr (Scan) {
        wbad |= static_cast<std::uint64_t>(!(wj >= 0.0 && wj <= std::numeric_limits<double>::max()));
        wmax = std::max(wmax, wj);
      }
      wsum += wj;
      count += 1.0;
      for (int d = 0; d < Dim; ++d) xs[d] += x[d];
      const std::int32_t u = cell[j];
      if (u != last) {  // neighbours along a run mostly share a cell
        row[static_cast<std::size_t>(u) / 64] |= std::uint64_t{1} << (static_cast<std::size_t>(u) % 64);
        last = u;
      }
    }
  }
  flush();
  if constexpr (Scan) {
    for (int d = 0; d < Dim; ++d) scan->lo[d] = lo[d], scan->hi[d] = hi[d];
    scan->coords_finite = bad == 0;
    scan->weights_valid = wbad == 0;
    scan->max_weight = wbad == 0 && weights ? wmax : 0.0;
  }
  return changed == 0;
}

// measure_pass for the points' dimension; marks the objects-by-cell index stale when a cell
// changed (even if the call then fails its validation, the cells are stored).
bool measure_objects(const PointSet& points, std::span<const part_t> parts, DiffusionCache& c, bool& parts_valid,
                     detail::PointScan* scan = nullptr) {
  const std::size_t K = static_cast<std::size_t>(c.num_parts);
  bool same;
  if (points.dim == 3)
    same = scan ? measure_pass<3, true>(points, parts, c.grid, K, c.sums, c.cell, c.local_bits, scan, parts_valid)
                : measure_pass<3, false>(points, parts, c.grid, K, c.sums, c.cell, c.local_bits, nullptr, parts_valid);
  else
    same = scan ? measure_pass<2, true>(points, parts, c.grid, K, c.sums, c.cell, c.local_bits, scan, parts_valid)
                : measure_pass<2, false>(points, parts, c.grid, K, c.sums, c.cell, c.local_bits, nullptr, parts_valid);
  if (!same) c.indexed = false;
  return same;
}

// Clears the measurement buffers of the cache for a pass over n objects and K parts.
void start_pass(DiffusionCache& c, std::size_t n, std::size_t K, std::size_t D) {
  if (c.cell.size() != n) c.cell.assign(n, -1), c.indexed = false;
  c.sums.assign(K * (2 + D), 0.0);
  c.local_bits.assign(c.grid.words_per_part() * K, 0);
}

}  // namespace

void PointDiffusion::measure(const double* lo, const double* hi) {
  const detail::Stopwatch clock;
  const std::size_t K = static_cast<std::size_t>(k_), D = static_cast<std::size_t>(dim_);
  const std::size_t n = parts_.size();
  DiffusionCache& c = cache_;
  // The contact grid spans the global box: reduce it (and the object count); a cache made for
  // another box, count or K starts over.
  std::array<double, 6> ext{};  // -lo, hi
  for (std::size_t d = 0; d < D; ++d) ext[d] = -lo[d], ext[3 + d] = hi[d];
  MPI_Allreduce(MPI_IN_PLACE, ext.data(), 6, MPI_DOUBLE, MPI_MAX, comm_.get());
  for (std::size_t d = 0; d < D; ++d) {
    lo_[d] = -ext[d], hi_[d] = ext[3 + d];
    if (!(lo_[d] <= hi_[d])) lo_[d] = hi_[d] = 0.0, ext[d] = ext[3 + d] = 0.0;  // no object anywhere
  }
  long long count = static_cast<long long>(n);
  MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_LONG_LONG, MPI_SUM, comm_.get());
  if (c.dim != dim_ || c.num_parts != k_ || c.box != ext || c.objects != static_cast<double>(count)) {
    c.dim = dim_, c.num_parts = k_, c.box = ext, c.objects = static_cast<double>(count);
    c.grid = make_contact_grid(dim_, lo_.data(), hi_.data(), k_, static_cast<double>(count));
    c.masks = grid_masks(c.grid);
    c.indexed = false;
    c.contacts.invalidate();
    c.premeasured = false;  // made on another grid
  }
  // One pass: part sums, each object's cell (checked against the cache) and the occupancy;
  // made already with the validation scan (scan_and_measure) when the grid was the same.
  std::vector<double>& sums = c.sums;
  bool same_cells = c.premeasured_same_cells;
  if (!c.premeasured || c.cell.size() != n) {
    start_pass(c, n, K, D);
    bool valid = true;  // the caller validated the parts
    same_cells = measure_objects(points_, parts_, c, valid);
  }
  c.premeasured = false;
  bitmap_.resize(local_bits_.size());
  MPI_Request req[2];
  MPI_Iallreduce(MPI_IN_PLACE, sums.data(), static_cast<int>(sums.size()), MPI_DOUBLE, MPI_SUM, comm_.get(), &req[0]);
  MPI_Iallreduce(local_bits_.data(), bitmap_.data(), static_cast<int>(bitmap_.size()), MPI_UINT64_T, MPI_BOR,
                 comm_.get(), &req[1]);
  if (!same_cells || !c.indexed) {
    // The objects by cell (counting sort, ascending within a cell), while the reductions run.
    const auto ncell = static_cast<std::size_t>(grid_.num_cells());
    c.cell_start.assign(ncell + 1, 0);
    for (std::size_t i = 0; i < n; ++i) ++c.cell_start[static_cast<std::size_t>(c.cell[i]) + 1];
    for (std::size_t u = 0; u < ncell; ++u) c.cell_start[u + 1] += c.cell_start[u];
    c.by_cell.resize(n);
    std::vector<std::int32_t> fill(c.cell_start.begin(), c.cell_start.end() - 1);
    for (std::size_t i = 0; i < n; ++i)
      c.by_cell[static_cast<std::size_t>(fill[static_cast<std::size_t>(c.cell[i])]++)] = static_cast<std::int32_t>(i);
    c.indexed = true;
    ++c.index_builds;
  }
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  weight_.assign(sums.begin(), sums.begin() + static_cast<std::ptrdiff_t>(K));
  count_.assign(sums.begin() + static_cast<std::ptrdiff_t>(K), sums.begin() + static_cast<std::ptrdiff_t>(2 * K));
  coord_sum_.assign(sums.begin() + static_cast<std::ptrdiff_t>(2 * K), sums.end());
  objects_ = std::accumulate(count_.begin(), count_.end(), 0.0);
  if (weight0_.empty()) weight0_ = weight_, count0_ = count_;  // the first measurement of the call
  centroid_.assign(K * D, 0.0);
  for (std::size_t p = 0; p < K; ++p)
    for (std::size_t d = 0; d < D; ++d) centroid_[p * D + d] = count_[p] > 0 ? coord_sum_[p * D + d] / count_[p] : 0.0;
  phase_[0] += clock.seconds();
}

MeasuredScan scan_and_measure(const PointSet& points, std::span<const part_t> parts, int num_parts,
                              DiffusionCache& cache) {
  cache.premeasured = false;
  const std::size_t n = points.size(), K = static_cast<std::size_t>(num_parts);
  const bool fits = cache.dim == points.dim && cache.num_parts == num_parts && parts.size() == n &&
                    (points.weights.empty() || (points.ncon == 1 && points.weights.size() == n));
  MeasuredScan out;
  if (!fits) {
    out.scan = detail::scan_points(points);
    return out;
  }
  start_pass(cache, n, K, static_cast<std::size_t>(points.dim));
  cache.premeasured_same_cells = measure_objects(points, parts, cache, out.parts_valid, &out.scan);
  out.parts_checked = true;
  cache.premeasured = out.parts_valid;  // a measurement of invalid parts is of no use
  return out;
}

void PointDiffusion::update_measure() {
  // The weights already follow from the round's exact sums; counts, centroids and the occupancy
  // change only where objects moved.
  const detail::Stopwatch clock;
  const std::size_t K = static_cast<std::size_t>(k_), D = static_cast<std::size_t>(dim_);
  const std::size_t wpp = grid_.words_per_part();
  const DiffusionCache& c = cache_;
  std::vector<double> delta(K * (1 + D), 0.0);  // count, coordinate sums
  for (std::size_t m = 0; m < c.moved.size(); ++m) {
    const std::size_t i = c.moved[m];
    const auto f = static_cast<std::size_t>(c.moved_from[m]), t = static_cast<std::size_t>(parts_[i]);
    delta[f] -= 1.0, delta[t] += 1.0;
    const double* x = &points_.coords[i * D];
    for (std::size_t d = 0; d < D; ++d) delta[K + f * D + d] -= x[d], delta[K + t * D + d] += x[d];
    const auto u = static_cast<std::size_t>(c.cell[i]);
    local_bits_[t * wpp + u / 64] |= std::uint64_t{1} << (u % 64);
  }
  // The source keeps a cell while any local object of it is left there.
  for (std::size_t m = 0; m < c.moved.size(); ++m) {
    const auto u = static_cast<std::size_t>(c.cell[c.moved[m]]);
    const part_t f = c.moved_from[m];
    bool kept = false;
    for (auto j = c.cell_start[u]; j < c.cell_start[u + 1] && !kept; ++j)
      kept = parts_[static_cast<std::size_t>(c.by_cell[static_cast<std::size_t>(j)])] == f;
    if (!kept) local_bits_[static_cast<std::size_t>(f) * wpp + u / 64] &= ~(std::uint64_t{1} << (u % 64));
  }
  MPI_Request req[2];
  MPI_Iallreduce(MPI_IN_PLACE, delta.data(), static_cast<int>(delta.size()), MPI_DOUBLE, MPI_SUM, comm_.get(), &req[0]);
  MPI_Iallreduce(local_bits_.data(), bitmap_.data(), static_cast<int>(bitmap_.size()), MPI_UINT64_T, MPI_BOR,
                 comm_.get(), &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  for (std::size_t p = 0; p < K; ++p) {
    count_[p] += delta[p];
    for (std::size_t d = 0; d < D; ++d) {
      coord_sum_[p * D + d] += delta[K + p * D + d];
      centroid_[p * D + d] = count_[p] > 0 ? coord_sum_[p * D + d] / count_[p] : 0.0;
    }
  }
  phase_[0] += clock.seconds();
}

double PointDiffusion::contacts() {
  const detail::Stopwatch clock;
  DiffusionCache& c = cache_;
  PartContacts pc;
  if (k_ <= ContactTable::kMaxParts) {
    if (!c.contacts.update(c.contact_bits, bitmap_)) c.contacts.rebuild(grid_, k_, bitmap_);
    c.contact_bits.assign(bitmap_.begin(), bitmap_.end());
    pc = c.contacts.contacts();
  } else {
    pc = part_contacts(grid_, k_, bitmap_, &c.owner);
  }
  edges_ = std::move(pc.edges);
  phase_[1] += clock.seconds();
  return pc.surface;
}

}  // namespace hpart::repart
