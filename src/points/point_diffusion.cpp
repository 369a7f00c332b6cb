#include "points/point_diffusion.hpp"

#include <mpi.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <type_traits>

#include "core/log.hpp"
#include "core/validate.hpp"
#include "points/part_contacts.hpp"

namespace hpart::repart {

namespace {

constexpr int kBins = 64;  // per level of the projection histograms: 64 x 64 = 4096 steps per flow
// Objects may move to a part up to this many coarse cells away: a band deep enough to carry one
// event's flow across most interfaces in one round (cells hold ~4-8 objects).
constexpr int kRings = 2;
// Selections over the boundary candidates per round: each takes the remaining flow of every arc,
// so an object claimed by two flows costs the loser one more selection, not a measurement.
constexpr int kSelections = 4;
// Cells of the source's boundary layer per contact (a contact is a pair of cells, shared or
// face-adjacent, holding the two parts), with a margin: the edge limit of the flow.
constexpr double kBandCells = 0.7;

// One flow of load to realise: objects of part `from` move to part `to`, those with the largest
// projection on `dir` first.
struct Arc {
  int from = 0, to = 0;
  double amount = 0.0;
  std::array<double, 3> dir{};
  double top = 0.0, inv_width = 0.0, width = 0.0;  // projection range of the global box
  int cut_bin = kBins;   // level-1 bin holding the threshold (kBins: every candidate moves; -1: none)
  int cut_sub = kBins - 1;  // last level-2 sub-bin of cut_bin that moves
  double need = 0.0;     // weight still wanted inside cut_bin
};

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

// Clears the measurement buffers of the cache for a pass over n objects and K parts.
void start_pass(DiffusionCache& c, std::size_t n, std::size_t K, std::size_t D) {
  if (c.cell.size() != n) c.cell.assign(n, -1), c.indexed = false;
  c.sums.assign(K * (2 + D), 0.0);
  c.local_bits.assign(c.grid.words_per_part() * K, 0);
}

}  // namespace

PointDiffusion::PointDiffusion(const Comm& comm, const PointSet& points, std::span<const part_t> parts, int num_parts,
                               double target, double stop, const double* lo, const double* hi, DiffusionCache& cache)
    : comm_(comm), points_(points), cache_(cache), parts_(cache.parts), k_(num_parts), dim_(points.dim),
      grid_(cache.grid), local_bits_(cache.local_bits), bitmap_(cache.bits), target_(target),
      stop_(std::max(stop, target)) {
  parts_.assign(parts.begin(), parts.end());
  cache.moved_all.clear();
  measure(lo, hi);
  surface_ = contacts();
  solve_flows();
  for (double f : flow_) flow_total_ += std::abs(f);
}

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

double PointDiffusion::imbalance() const {
  const double total = std::accumulate(weight_.begin(), weight_.end(), 0.0);
  if (!(total > 0.0)) return 0.0;
  return *std::max_element(weight_.begin(), weight_.end()) / (total / k_) - 1.0;
}

void PointDiffusion::solve_flows() {
  // Rank 0 solves and broadcasts, with its centroids and its verdict: every rank then selects
  // against the same flows and directions even if reductions rounded differently on different ranks.
  const detail::Stopwatch clock;
  const std::size_t K = static_cast<std::size_t>(k_), D = static_cast<std::size_t>(dim_);
  std::vector<double> buf(edges_.size() + K * D + 2);
  if (comm_.rank() == 0) {
    // Only the weight above the cap has to move (that is what the lower bound counts): parts
    // above it are the sources, parts below the average the sinks, each taking a share of the
    // total excess proportional to its deficit, so no sink ends above the average. Balancing to
    // the mean instead would move several times more on a slow drift.
    const double avg = std::accumulate(weight_.begin(), weight_.end(), 0.0) / k_;
    const double cap = (1.0 + target_) * avg;
    double over = 0.0, under = 0.0;
    for (std::size_t p = 0; p < K; ++p) over += std::max(0.0, weight_[p] - cap), under += std::max(0.0, avg - weight_[p]);
    std::vector<double> excess(K, 0.0);
    for (std::size_t p = 0; p < K; ++p)
      excess[p] = std::max(0.0, weight_[p] - cap) - (under > 0.0 ? over * std::max(0.0, avg - weight_[p]) / under : 0.0);
    // Each flow is carried by the boundary layer of its source (objects within kRings cells of
    // the receiver): about kBandCells cells per contact. Limiting each edge to that keeps one
    // round enough; flow with no room left anywhere is routed regardless.
    const double per_cell = objects_ / static_cast<double>(std::max<std::int64_t>(1, grid_.num_cells()));
    std::vector<double> cap_pq(edges_.size()), cap_qp(edges_.size());
    for (std::size_t e = 0; e < edges_.size(); ++e) {
      const auto p = static_cast<std::size_t>(edges_[e].p), q = static_cast<std::size_t>(edges_[e].q);
      const double band = kBandCells * edges_[e].capacity * per_cell;
      cap_pq[e] = band * (count_[p] > 0 ? weight_[p] / count_[p] : 0.0);
      cap_qp[e] = band * (count_[q] > 0 ? weight_[q] / count_[q] : 0.0);
    }
    const std::vector<double> f = transport_flow(k_, edges_, excess, cap_pq, cap_qp);
    std::copy(f.begin(), f.end(), buf.begin());
    std::copy(centroid_.begin(), centroid_.end(), buf.begin() + static_cast<std::ptrdiff_t>(edges_.size()));
    buf[buf.size() - 2] = imbalance() <= stop_ ? 1.0 : 0.0;
    const double total = avg * k_;
    buf.back() = total > 0.0 ? std::ldexp(1.0, 40) / total : 1.0;  // fixed-point unit of weight
  }
  MPI_Bcast(buf.data(), static_cast<int>(buf.size()), MPI_DOUBLE, 0, comm_.get());
  flow_.assign(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(edges_.size()));
  centroid_.assign(buf.begin() + static_cast<std::ptrdiff_t>(edges_.size()), buf.end() - 2);
  done_ = buf[buf.size() - 2] != 0.0;
  unit_ = buf.back();
  phase_[2] += clock.seconds();
}

void PointDiffusion::move_along_flows() {
  const detail::Stopwatch clock;
  const std::size_t K = static_cast<std::size_t>(k_), D = static_cast<std::size_t>(dim_);
  const double avg = std::accumulate(weight_.begin(), weight_.end(), 0.0) / k_;
  std::vector<Arc> arcs;
  for (std::size_t e = 0; e < edges_.size(); ++e) {
    if (!(std::abs(flow_[e]) > 1e-9 * avg)) continue;
    Arc a;
    a.from = flow_[e] > 0 ? edges_[e].p : edges_[e].q;
    a.to = flow_[e] > 0 ? edges_[e].q : edges_[e].p;
    a.amount = std::abs(flow_[e]);
    const auto f = static_cast<std::size_t>(a.from), t = static_cast<std::size_t>(a.to);
    double len = 0.0;
    for (std::size_t d = 0; d < D; ++d) {
      a.dir[d] = centroid_[t * D + d] - centroid_[f * D + d];
      len += a.dir[d] * a.dir[d];
    }
    if (!(len > 0.0)) continue;
    len = std::sqrt(len);
    for (std::size_t d = 0; d < D; ++d) a.dir[d] /= len;
    arcs.push_back(a);
  }
  std::stable_sort(arcs.begin(), arcs.end(), [](const Arc& a, const Arc& b) { return a.from < b.from; });
  const std::size_t A = arcs.size();
  std::vector<std::size_t> first(K + 1, 0);
  for (const Arc& a : arcs) ++first[static_cast<std::size_t>(a.from) + 1];
  for (std::size_t p = 0; p < K; ++p) first[p + 1] += first[p];
  const std::size_t nb = static_cast<std::size_t>(kBins);

  // The candidates: per object of a part with flows out, one entry per such flow whose receiver
  // holds a cell within kRings of the object's cell, with its projection on the flow's
  // direction. The receivers' bitmap rows, dilated by kRings, answer "near?" per cell, so only
  // the cells of the sources near their receivers are visited, through the objects-by-cell
  // index. Entries of one object are consecutive.
  using Entry = DiffusionCache::Candidate;
  DiffusionCache& c = cache_;
  std::vector<Entry>& ent = c.candidates;
  ent.clear();
  c.moved.clear();
  c.moved_from.clear();
  std::vector<double> remaining(A), moved(A, 0.0), hist(A * nb, 0.0);
  const std::size_t wpp = grid_.words_per_part();
  // Per part on either end of a flow: its bitmap row dilated by kRings (the cells near it) and
  // the range of words its own row occupies.
  std::vector<std::int32_t> near_row(K, -1);
  std::size_t rows = 0;
  for (const Arc& a : arcs)
    for (const int e : {a.to, a.from})
      if (near_row[static_cast<std::size_t>(e)] < 0) near_row[static_cast<std::size_t>(e)] = static_cast<std::int32_t>(rows++);
  c.near_rows.resize(rows * wpp);
  std::vector<std::size_t> w_begin(K, 0), w_end(K, 0);
  std::vector<std::uint64_t> dilated;
  for (std::size_t q = 0; q < K; ++q) {
    if (near_row[q] < 0) continue;
    const std::uint64_t* own = bitmap_.data() + q * wpp;
    std::size_t b = 0, e = wpp;
    while (b < e && own[b] == 0) ++b;
    while (e > b && own[e - 1] == 0) --e;
    w_begin[q] = b, w_end[q] = e;
    dilate_row(grid_, c.masks, std::span<const std::uint64_t>(bitmap_).subspan(q * wpp, wpp), kRings, dilated, c.scratch);
    std::copy(dilated.begin(), dilated.end(), c.near_rows.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(near_row[q]) * wpp));
  }
  auto near_of = [&](int part) { return c.near_rows.data() + static_cast<std::size_t>(near_row[static_cast<std::size_t>(part)]) * wpp; };
  std::vector<const std::uint64_t*> row_of(A);
  for (std::size_t k = 0; k < A; ++k) row_of[k] = near_of(arcs[k].to);
  // Each flow moves along the normal of its interface: from the centre of the source's cells
  // near the receiver to the centre of the receiver's cells near the source (the line between
  // the centroids instead cuts an interface between offset parts at a slant, and the surface
  // then grew faster: drift3d's faces 1.33x a fresh partition's at the end, against 1.23x).
  // The bitmap is the same on every rank, so are the directions. The centroids' line remains
  // where the two bands are empty or share their centre.
  for (std::size_t k = 0; k < A; ++k) {
    Arc& a = arcs[k];
    const auto p = static_cast<std::size_t>(a.from), q = static_cast<std::size_t>(a.to);
    double cp[3] = {0, 0, 0}, cq[3] = {0, 0, 0};
    if (mean_cell_centre(grid_, bitmap_.data() + p * wpp, row_of[k], w_begin[p], w_end[p], cp) == 0.0 ||
        mean_cell_centre(grid_, bitmap_.data() + q * wpp, near_of(a.from), w_begin[q], w_end[q], cq) == 0.0)
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
      const double u = a.dir[d] * (lo_[d] - centroid_[f * D + d]), v = a.dir[d] * (hi_[d] - centroid_[f * D + d]);
      lo += std::min(u, v), hi += std::max(u, v);
    }
    a.top = hi;
    a.width = hi > lo ? hi - lo : 1.0;
    a.inv_width = 1.0 / a.width;
  }
  std::vector<std::size_t> near_arcs;
  for (std::size_t p = 0; p < K; ++p) {
    if (first[p] == first[p + 1]) continue;
    const auto part = static_cast<part_t>(p);
    const std::uint64_t* own = bitmap_.data() + p * wpp;
    for (std::size_t wi = 0; wi < wpp; ++wi) {
      if (own[wi] == 0) continue;
      std::uint64_t any = 0;  // cells of this word near some receiver of p
      for (std::size_t k = first[p]; k < first[p + 1]; ++k) any |= row_of[k][wi];
      for (std::uint64_t bits = own[wi] & any; bits; bits &= bits - 1) {
        const std::size_t u = wi * 64 + static_cast<std::size_t>(std::countr_zero(bits));
        near_arcs.clear();
        for (std::size_t k = first[p]; k < first[p + 1]; ++k)
          if ((row_of[k][wi] >> (u % 64)) & 1u) near_arcs.push_back(k);
        for (auto j = c.cell_start[u]; j < c.cell_start[u + 1]; ++j) {
          const auto i = static_cast<std::size_t>(c.by_cell[static_cast<std::size_t>(j)]);
          if (parts_[i] != part) continue;
          const double* x = &points_.coords[i * D];
          for (const std::size_t k : near_arcs) {
            double sp = 0.0;
            for (std::size_t d = 0; d < D; ++d) sp += arcs[k].dir[d] * (x[d] - centroid_[p * D + d]);
            const double t = std::clamp((arcs[k].top - sp) * arcs[k].inv_width, 0.0, 1.0 - 1e-12) * kBins;
            ent.push_back({static_cast<std::uint32_t>(i), static_cast<std::int32_t>(k), t});
            hist[k * nb + static_cast<std::size_t>(t)] += w(i);  // the first selection's histogram
          }
        }
      }
    }
  }

  // Selections: each finds, per arc, the depth down to which the arc's remaining flow lies
  // (two-level histogram), then every unmoved candidate within some arc's depth follows the
  // arc it passes by most. What each arc moved is summed exactly (fixed point, scaled by rank
  // 0's unit), so every rank agrees on the remaining flows and on when to stop.
  for (std::size_t k = 0; k < A; ++k) remaining[k] = arcs[k].amount;
  std::vector<std::int64_t> fixed(A);
  auto alive = [&](const Entry& e) { return parts_[e.i] == arcs[static_cast<std::size_t>(e.arc)].from; };
  for (int sel = 0; sel < kSelections; ++sel) {
    std::vector<char> active(A);
    for (std::size_t k = 0; k < A; ++k) {
      active[k] = remaining[k] > 1e-3 * arcs[k].amount ? 1 : 0;
      arcs[k].cut_bin = active[k] ? kBins : -1;
      arcs[k].cut_sub = kBins - 1;
      arcs[k].need = 0.0;
    }
    if (sel > 0) {
      std::fill(hist.begin(), hist.end(), 0.0);
      for (const Entry& e : ent) {
        const auto k = static_cast<std::size_t>(e.arc);
        if (active[k] && alive(e)) hist[k * nb + static_cast<std::size_t>(e.t)] += w(e.i);
      }
    }
    MPI_Allreduce(MPI_IN_PLACE, hist.data(), static_cast<int>(hist.size()), MPI_DOUBLE, MPI_SUM, comm_.get());
    for (std::size_t k = 0; k < A; ++k) {
      if (!active[k]) continue;
      double cum = 0.0;
      for (int b = 0; b < kBins; ++b) {
        const double h = hist[k * nb + static_cast<std::size_t>(b)];
        if (cum + h >= remaining[k]) {
          arcs[k].cut_bin = b;
          arcs[k].need = remaining[k] - cum;
          break;
        }
        cum += h;
      }
    }
    if (sel == 0) {
      // Later selections only go a little deeper: keep the entries above four times each flow.
      std::vector<int> keep(A, kBins);
      for (std::size_t k = 0; k < A; ++k) {
        double cum = 0.0;
        for (int b = 0; b < kBins; ++b)
          if ((cum += hist[k * nb + static_cast<std::size_t>(b)]) >= 4.0 * arcs[k].amount) {
            keep[k] = b;
            break;
          }
      }
      std::erase_if(ent, [&](const Entry& e) { return static_cast<int>(e.t) > keep[static_cast<std::size_t>(e.arc)]; });
    }
    std::fill(hist.begin(), hist.end(), 0.0);
    for (const Entry& e : ent) {
      const auto k = static_cast<std::size_t>(e.arc);
      const auto b = static_cast<int>(e.t);
      if (b != arcs[k].cut_bin || !alive(e)) continue;
      hist[k * nb + std::min(nb - 1, static_cast<std::size_t>((e.t - b) * kBins))] += w(e.i);
    }
    MPI_Allreduce(MPI_IN_PLACE, hist.data(), static_cast<int>(hist.size()), MPI_DOUBLE, MPI_SUM, comm_.get());
    for (std::size_t k = 0; k < A; ++k) {
      if (arcs[k].cut_bin < 0 || arcs[k].cut_bin == kBins) continue;
      double cum = 0.0;
      for (int j = 0; j < kBins; ++j) {
        const double h = hist[k * nb + static_cast<std::size_t>(j)];
        if (cum + h >= arcs[k].need) {
          // Take the sub-bin that crosses the target only when that lands nearer to it.
          arcs[k].cut_sub = (cum + h - arcs[k].need <= arcs[k].need - cum) ? j : j - 1;
          break;
        }
        cum += h;
      }
    }
    std::fill(fixed.begin(), fixed.end(), 0);
    for (std::size_t g = 0; g < ent.size();) {
      std::size_t h = g;
      while (h < ent.size() && ent[h].i == ent[g].i) ++h;
      const std::uint32_t i = ent[g].i;
      double best = 0.0;
      int to = -1;
      std::size_t arc = 0;
      for (std::size_t e = g; e < h && alive(ent[g]); ++e) {
        const auto k = static_cast<std::size_t>(ent[e].arc);
        const Arc& a = arcs[k];
        if (a.cut_bin < 0) continue;
        const double t = ent[e].t;
        const auto b = static_cast<int>(t);
        double limit;  // depth (in level-1 bins) down to which objects move
        if (a.cut_bin == kBins) {
          limit = kBins;
        } else {
          limit = a.cut_bin + (a.cut_sub + 1.0) / kBins;
          const bool moves = b < a.cut_bin || (b == a.cut_bin &&
                                               static_cast<int>(std::min<double>(kBins - 1, (t - b) * kBins)) <= a.cut_sub);
          if (!moves) continue;
        }
        const double margin = (limit - t) * a.width + 1e-300;
        if (margin > best) best = margin, to = a.to, arc = k;
      }
      if (to >= 0) {
        c.moved_all.push_back(i);
        c.moved.push_back(i);
        c.moved_from.push_back(parts_[i]);
        parts_[i] = static_cast<part_t>(to);
        fixed[arc] += std::llround(w(i) * unit_);
      }
      g = h;
    }
    MPI_Allreduce(MPI_IN_PLACE, fixed.data(), static_cast<int>(A), MPI_INT64_T, MPI_SUM, comm_.get());
    bool more = false;
    for (std::size_t k = 0; k < A; ++k) {
      const double m = static_cast<double>(fixed[k]) / unit_;
      moved[k] += m;
      remaining[k] -= m;
      if (fixed[k] > 0 && remaining[k] > 0.01 * arcs[k].amount) more = true;
    }
    if (detail::verbosity() >= 3) {
      double rem = 0.0;
      int exhausted = 0;
      for (std::size_t k = 0; k < A; ++k) rem += std::max(0.0, remaining[k]), exhausted += arcs[k].cut_bin == kBins;
      detail::log(comm_, 3, "  selection " + std::to_string(sel) + ": remaining " + std::to_string(rem) + ", " +
                                std::to_string(exhausted) + " arcs used up their candidates");
    }
    if (!more) break;
  }
  double planned = 0.0, realised = 0.0;
  for (std::size_t k = 0; k < A; ++k) {
    planned += arcs[k].amount;
    realised += moved[k];
    weight_[static_cast<std::size_t>(arcs[k].from)] -= moved[k];
    weight_[static_cast<std::size_t>(arcs[k].to)] += moved[k];
  }
  planned_ += planned;
  realised_ += realised;
  phase_[3] += clock.seconds();
  detail::log(comm_, 2, "diffusion round: " + std::to_string(A) + " arcs, planned " + std::to_string(planned) +
                            ", moved " + std::to_string(realised) + ", imbalance now " + std::to_string(imbalance()));
}

PointDiffusion::Summary PointDiffusion::summary(std::span<const part_t> before) const {
  const std::size_t K = static_cast<std::size_t>(k_);
  // An object may have moved in several rounds: each counts once, by where it ended.
  std::vector<std::uint32_t> moved = cache_.moved_all;
  std::sort(moved.begin(), moved.end());
  moved.erase(std::unique(moved.begin(), moved.end()), moved.end());
  std::vector<double> buf(2 * K + 2, 0.0);  // weight and count changes per part, moved weight, moved objects
  for (const std::uint32_t i : moved) {
    const auto from = static_cast<std::size_t>(before[i]), to = static_cast<std::size_t>(parts_[i]);
    if (from == to) continue;
    const double wi = w(i);
    buf[from] -= wi, buf[to] += wi;
    buf[K + from] -= 1.0, buf[K + to] += 1.0;
    buf[2 * K] += wi, buf[2 * K + 1] += 1.0;
  }
  MPI_Allreduce(MPI_IN_PLACE, buf.data(), static_cast<int>(buf.size()), MPI_DOUBLE, MPI_SUM, comm_.get());
  Summary out;
  out.part_weights.resize(K);
  out.part_sizes.resize(K);
  for (std::size_t p = 0; p < K; ++p) {
    out.part_weights[p] = weight0_[p] + buf[p];
    out.part_sizes[p] = std::llround(count0_[p] + buf[K + p]);
  }
  out.moved_weight = buf[2 * K];
  out.moved_objects = std::llround(buf[2 * K + 1]);
  return out;
}

int PointDiffusion::run(int max_rounds) {
  int rounds = 0;
  while (!done_ && rounds < max_rounds) {
    move_along_flows();
    ++rounds;
    // The weights after the round follow from the histograms; rank 0's verdict decides.
    int done = comm_.rank() == 0 ? (imbalance() <= stop_ ? 1 : 0) : 0;
    MPI_Bcast(&done, 1, MPI_INT, 0, comm_.get());
    done_ = done != 0;
    if (done_ || rounds >= max_rounds) break;
    // A flow whose boundary layer was used up continues one layer deeper, and new contacts
    // carry flow: measure again.
    update_measure();
    contacts();
    solve_flows();
  }
  return rounds;
}

}  // namespace hpart::repart
