#include "repart/point_diffusion.hpp"

#include <mpi.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

#include "core/log.hpp"
#include "repart/part_contacts.hpp"

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

}  // namespace

PointDiffusion::PointDiffusion(const Comm& comm, const PointSet& points, std::vector<part_t> parts, int num_parts,
                               double target, double stop, const double* lo, const double* hi)
    : comm_(comm), points_(points), parts_(std::move(parts)), k_(num_parts), dim_(points.dim), target_(target),
      stop_(std::max(stop, target)) {
  measure(lo, hi);
  surface_ = contacts();
  solve_flows();
  for (double f : flow_) flow_total_ += std::abs(f);
}

void PointDiffusion::measure(const double* lo, const double* hi) {
  const detail::Stopwatch clock;
  const std::size_t K = static_cast<std::size_t>(k_), D = static_cast<std::size_t>(dim_);
  const std::size_t n = parts_.size();
  std::vector<double> sums(K * (2 + D), 0.0);  // weight, count, coordinate sums
  const bool first = bitmap_.empty();
  if (first) {
    // The contact grid spans the global box: reduce it, then fix the grid and each object's cell.
    std::array<double, 6> ext{};  // -lo, hi
    for (std::size_t d = 0; d < D; ++d) ext[d] = -lo[d], ext[3 + d] = hi[d];
    MPI_Allreduce(MPI_IN_PLACE, ext.data(), 6, MPI_DOUBLE, MPI_MAX, comm_.get());
    for (std::size_t d = 0; d < D; ++d) {
      lo_[d] = -ext[d], hi_[d] = ext[3 + d];
      if (!(lo_[d] <= hi_[d])) lo_[d] = hi_[d] = 0.0;  // no object anywhere
    }
    long long count = static_cast<long long>(n);
    MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_LONG_LONG, MPI_SUM, comm_.get());
    grid_ = make_contact_grid(dim_, lo_.data(), hi_.data(), k_, static_cast<double>(count));
    bitmap_.assign(grid_.words_per_part() * K, 0);
    cell_.resize(n);
  }
  // One pass: part sums and the occupancy bitmap (the first call also finds the cells; objects
  // do not move in space between rounds).
  const std::size_t wpp = grid_.words_per_part();
  if (!first) std::fill(bitmap_.begin(), bitmap_.end(), 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto p = static_cast<std::size_t>(parts_[i]);
    sums[p] += w(i);
    sums[K + p] += 1.0;
    const double* x = &points_.coords[i * D];
    for (std::size_t d = 0; d < D; ++d) sums[2 * K + p * D + d] += x[d];
    if (first) cell_[i] = static_cast<std::int32_t>(grid_.cell_of(x));
    const auto u = static_cast<std::size_t>(cell_[i]);
    bitmap_[p * wpp + u / 64] |= std::uint64_t{1} << (u % 64);
  }
  MPI_Request req[2];
  MPI_Iallreduce(MPI_IN_PLACE, sums.data(), static_cast<int>(sums.size()), MPI_DOUBLE, MPI_SUM, comm_.get(), &req[0]);
  MPI_Iallreduce(MPI_IN_PLACE, bitmap_.data(), static_cast<int>(bitmap_.size()), MPI_UINT64_T, MPI_BOR, comm_.get(),
                 &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  weight_.assign(sums.begin(), sums.begin() + static_cast<std::ptrdiff_t>(K));
  count_.assign(sums.begin() + static_cast<std::ptrdiff_t>(K), sums.begin() + static_cast<std::ptrdiff_t>(2 * K));
  objects_ = std::accumulate(sums.begin() + static_cast<std::ptrdiff_t>(K), sums.begin() + static_cast<std::ptrdiff_t>(2 * K), 0.0);
  centroid_.assign(K * D, 0.0);
  for (std::size_t p = 0; p < K; ++p)
    for (std::size_t d = 0; d < D; ++d) {
      const double count = sums[K + p];
      centroid_[p * D + d] = count > 0 ? sums[2 * K + p * D + d] / count : 0.0;
    }
  phase_[0] += clock.seconds();
}

double PointDiffusion::contacts() {
  const detail::Stopwatch clock;
  PartContacts pc = part_contacts(grid_, k_, bitmap_);
  edges_ = std::move(pc.edges);
  // Per cell: its only part, -1 when empty, -2 when shared; a cell is on the boundary when a
  // cell within kRings face steps has another part. The near test of an object is then a few
  // bit tests in the receiving part's bitmap row, only for objects in boundary cells.
  const std::int64_t ncell = grid_.num_cells();
  const std::size_t wpp = grid_.words_per_part();
  std::vector<std::int32_t>& owner = owner_;
  owner.assign(static_cast<std::size_t>(ncell), -1);
  for (std::size_t p = 0; p < static_cast<std::size_t>(k_); ++p)
    for (std::size_t w = 0; w < wpp; ++w)
      for (std::uint64_t bits = bitmap_[p * wpp + w]; bits; bits &= bits - 1) {
        std::int32_t& o = owner[w * 64 + static_cast<std::size_t>(std::countr_zero(bits))];
        o = o == -1 ? static_cast<std::int32_t>(p) : -2;
      }
  ring_.clear();
  const int rz = dim_ == 3 ? kRings : 0;
  for (int dz = -rz; dz <= rz; ++dz)
    for (int dy = -kRings; dy <= kRings; ++dy)
      for (int dx = -kRings; dx <= kRings; ++dx)
        if (std::abs(dx) + std::abs(dy) + std::abs(dz) <= kRings) ring_.push_back({dx, dy, dz});
  boundary_.assign(static_cast<std::size_t>(ncell), 0);
  const int sx = grid_.cells[0], sy = grid_.cells[1], sz = dim_ == 3 ? grid_.cells[2] : 1;
  for (int z = 0; z < sz; ++z)
    for (int y = 0; y < sy; ++y)
      for (int x = 0; x < sx; ++x) {
        const std::size_t c = static_cast<std::size_t>(x + sx * (y + sy * z));
        const std::int32_t o = owner[c];
        bool b = o == -2;
        for (std::size_t r = 0; r < ring_.size() && !b; ++r) {
          const int X = x + ring_[r][0], Y = y + ring_[r][1], Z = z + ring_[r][2];
          if (X < 0 || Y < 0 || Z < 0 || X >= sx || Y >= sy || Z >= sz) continue;
          const std::int32_t on = owner[static_cast<std::size_t>(X + sx * (Y + sy * Z))];
          b = on != -1 && on != o;
        }
        boundary_[c] = b ? 1 : 0;
      }
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

  // The candidates, gathered in the one pass over all objects: per object whose cell has another
  // part near, one entry per flow out of its part towards such a part, with its projection on
  // the flow's direction. Entries of one object are consecutive.
  struct Entry {
    std::uint32_t i;
    std::int32_t arc;
    double t;  // depth below the top of the arc's range, x kBins
  };
  std::vector<Entry> ent;
  ent.reserve(parts_.size() / 4);
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
  std::vector<double> remaining(A), moved(A, 0.0), hist(A * nb, 0.0);
  const std::size_t n = parts_.size();
  const std::size_t wpp = grid_.words_per_part();
  const int sx = grid_.cells[0], sy = grid_.cells[1], sz = dim_ == 3 ? grid_.cells[2] : 1;
  // The near test depends on the cell and the arc only: computed once per cell of a single
  // owner (cells hold several objects), per object elsewhere. near_at[c]: offset into `near`
  // of the flags of the arcs out of the cell's owner, -1 = not yet.
  std::vector<std::int32_t> near_at(boundary_.size(), -1);
  std::vector<std::uint8_t> near;
  for (std::size_t i = 0; i < n; ++i) {
    const auto p = static_cast<std::size_t>(parts_[i]);
    if (first[p] == first[p + 1]) continue;
    const auto c = static_cast<std::size_t>(cell_[i]);
    if (!boundary_[c]) continue;
    const double* x = &points_.coords[i * D];
    const int cx = static_cast<int>(c % static_cast<std::size_t>(sx));
    const int cy = static_cast<int>((c / static_cast<std::size_t>(sx)) % static_cast<std::size_t>(sy));
    const int cz = static_cast<int>(c / (static_cast<std::size_t>(sx) * static_cast<std::size_t>(sy)));
    auto near_to = [&](std::size_t k) {  // the receiver of arc k holds a cell within kRings
      const std::uint64_t* row = bitmap_.data() + static_cast<std::size_t>(arcs[k].to) * wpp;
      for (const auto& r : ring_) {
        const int X = cx + r[0], Y = cy + r[1], Z = cz + r[2];
        if (X < 0 || Y < 0 || Z < 0 || X >= sx || Y >= sy || Z >= sz) continue;
        const auto u = static_cast<std::size_t>(X + sx * (Y + sy * Z));
        if ((row[u / 64] >> (u % 64)) & 1u) return true;
      }
      return false;
    };
    const bool memo = owner_[c] == static_cast<std::int32_t>(p);
    if (memo && near_at[c] < 0) {
      near_at[c] = static_cast<std::int32_t>(near.size());
      for (std::size_t k = first[p]; k < first[p + 1]; ++k) near.push_back(near_to(k) ? 1 : 0);
    }
    for (std::size_t k = first[p]; k < first[p + 1]; ++k) {
      if (!(memo ? near[static_cast<std::size_t>(near_at[c]) + (k - first[p])] != 0 : near_to(k))) continue;
      double sp = 0.0;
      for (std::size_t d = 0; d < D; ++d) sp += arcs[k].dir[d] * (x[d] - centroid_[p * D + d]);
      const double t = std::clamp((arcs[k].top - sp) * arcs[k].inv_width, 0.0, 1.0 - 1e-12) * kBins;
      ent.push_back({static_cast<std::uint32_t>(i), static_cast<std::int32_t>(k), t});
      hist[k * nb + static_cast<std::size_t>(t)] += w(i);  // the first selection's histogram
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
    // carry flow: measure afresh.
    measure();
    contacts();
    solve_flows();
  }
  return rounds;
}

}  // namespace hpart::repart
