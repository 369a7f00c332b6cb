// The last phase of a diffusion round: selections over the candidates. Each finds, per arc, the
// depth down to which the arc's remaining flow lies (two-level histogram), then every unmoved
// candidate within some arc's depth follows the arc it passes by most. What each arc moved is
// summed exactly (fixed point, scaled by rank 0's unit), so every rank agrees on the remaining
// flows and on when to stop.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "core/log.hpp"
#include "points/point_diffusion_round.hpp"

namespace hpart::repart::diffusion {

namespace {

// Whether the candidate's object is still in its arc's source (no earlier selection moved it).
bool alive(std::span<const part_t> parts, std::span<const Arc> arcs, const Candidate& e) {
  return parts[e.i] == arcs[static_cast<std::size_t>(e.arc)].from;
}

// Marks the arcs with flow left as active and resets their cuts (inactive ones take nothing).
std::vector<char> start_selection(std::span<Arc> arcs, std::span<const double> remaining) {
  std::vector<char> active(arcs.size());
  for (std::size_t k = 0; k < arcs.size(); ++k) {
    active[k] = remaining[k] > 1e-3 * arcs[k].amount ? 1 : 0;
    arcs[k].cut_bin = active[k] ? kBins : -1;
    arcs[k].cut_sub = kBins - 1;
    arcs[k].need = 0.0;
  }
  return active;
}

// The level-1 histogram of the active arcs' live candidates (after the first selection, whose
// histogram the gathering made).
void level1_histogram(std::span<const Candidate> ent, std::span<const Arc> arcs, std::span<const part_t> parts,
                      const PointSet& points, const std::vector<char>& active, std::vector<double>& hist) {
  std::fill(hist.begin(), hist.end(), 0.0);
  for (const Candidate& e : ent) {
    const auto k = static_cast<std::size_t>(e.arc);
    if (active[k] && alive(parts, arcs, e)) hist[k * kBinCount + static_cast<std::size_t>(e.t)] += object_weight(points, e.i);
  }
}

// Per active arc, the level-1 bin where the cumulated weight reaches its remaining flow, and the
// weight still wanted inside it (no such bin: every candidate moves).
void find_cut_bins(std::span<Arc> arcs, const std::vector<double>& hist, std::span<const double> remaining,
                   const std::vector<char>& active) {
  for (std::size_t k = 0; k < arcs.size(); ++k) {
    if (!active[k]) continue;
    double cum = 0.0;
    for (int b = 0; b < kBins; ++b) {
      const double h = hist[k * kBinCount + static_cast<std::size_t>(b)];
      if (cum + h >= remaining[k]) {
        arcs[k].cut_bin = b;
        arcs[k].need = remaining[k] - cum;
        break;
      }
      cum += h;
    }
  }
}

// After the first selection: later selections only go a little deeper, so keep the entries above
// four times each flow.
void trim_candidates(std::vector<Candidate>& ent, std::span<const Arc> arcs, const std::vector<double>& hist) {
  std::vector<int> keep(arcs.size(), kBins);
  for (std::size_t k = 0; k < arcs.size(); ++k) {
    double cum = 0.0;
    for (int b = 0; b < kBins; ++b)
      if ((cum += hist[k * kBinCount + static_cast<std::size_t>(b)]) >= 4.0 * arcs[k].amount) {
        keep[k] = b;
        break;
      }
  }
  std::erase_if(ent, [&](const Candidate& e) { return static_cast<int>(e.t) > keep[static_cast<std::size_t>(e.arc)]; });
}

// The level-2 histogram: the live candidates inside their arc's cut bin, by sub-bin.
void level2_histogram(std::span<const Candidate> ent, std::span<const Arc> arcs, std::span<const part_t> parts,
                      const PointSet& points, std::vector<double>& hist) {
  std::fill(hist.begin(), hist.end(), 0.0);
  for (const Candidate& e : ent) {
    const auto k = static_cast<std::size_t>(e.arc);
    const auto b = static_cast<int>(e.t);
    if (b != arcs[k].cut_bin || !alive(parts, arcs, e)) continue;
    hist[k * kBinCount + std::min(kBinCount - 1, static_cast<std::size_t>((e.t - b) * kBins))] += object_weight(points, e.i);
  }
}

// Per arc cut inside a bin, the last sub-bin that moves.
void find_cut_subs(std::span<Arc> arcs, const std::vector<double>& hist) {
  for (std::size_t k = 0; k < arcs.size(); ++k) {
    if (arcs[k].cut_bin < 0 || arcs[k].cut_bin == kBins) continue;
    double cum = 0.0;
    for (int j = 0; j < kBins; ++j) {
      const double h = hist[k * kBinCount + static_cast<std::size_t>(j)];
      if (cum + h >= arcs[k].need) {
        // Take the sub-bin that crosses the target only when that lands nearer to it.
        arcs[k].cut_sub = (cum + h - arcs[k].need <= arcs[k].need - cum) ? j : j - 1;
        break;
      }
      cum += h;
    }
  }
}

// Moves every live candidate within some arc's cut to the receiver of the arc it passes by most
// (recorded in the cache's moved lists); fixed[k]: the weight arc k moved, in units of 1 / unit.
void move_candidates(std::span<const Arc> arcs, std::span<const Candidate> ent, std::span<part_t> parts,
                     const PointSet& points, double unit, DiffusionCache& c, std::vector<std::int64_t>& fixed) {
  std::fill(fixed.begin(), fixed.end(), 0);
  for (std::size_t g = 0; g < ent.size();) {
    std::size_t h = g;
    while (h < ent.size() && ent[h].i == ent[g].i) ++h;
    const std::uint32_t i = ent[g].i;
    double best = 0.0;
    int to = -1;
    std::size_t arc = 0;
    for (std::size_t e = g; e < h && alive(parts, arcs, ent[g]); ++e) {
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
      c.moved_from.push_back(parts[i]);
      parts[i] = static_cast<part_t>(to);
      fixed[arc] += std::llround(object_weight(points, i) * unit);
    }
    g = h;
  }
}

// Adds what each arc moved (fixed, summed over the ranks) to moved and takes it from remaining;
// returns whether another selection may move more (some arc moved and still lacks 1% of its flow).
bool settle(std::span<const Arc> arcs, std::span<const std::int64_t> fixed, double unit, std::span<double> moved,
            std::span<double> remaining) {
  bool more = false;
  for (std::size_t k = 0; k < arcs.size(); ++k) {
    const double m = static_cast<double>(fixed[k]) / unit;
    moved[k] += m;
    remaining[k] -= m;
    if (fixed[k] > 0 && remaining[k] > 0.01 * arcs[k].amount) more = true;
  }
  return more;
}

void log_selection(const Comm& comm, int sel, std::span<const Arc> arcs, std::span<const double> remaining) {
  if (detail::verbosity() < 3) return;
  double rem = 0.0;
  int exhausted = 0;
  for (std::size_t k = 0; k < arcs.size(); ++k) rem += std::max(0.0, remaining[k]), exhausted += arcs[k].cut_bin == kBins;
  detail::log(comm, 3, "  selection " + std::to_string(sel) + ": remaining " + std::to_string(rem) + ", " +
                           std::to_string(exhausted) + " arcs used up their candidates");
}

}  // namespace

void select_and_move(const Comm& comm, std::span<Arc> arcs, std::vector<double>& hist, std::span<part_t> parts,
                     const PointSet& points, double unit, DiffusionCache& cache, std::span<double> moved) {
  const std::size_t A = arcs.size();
  std::vector<Candidate>& ent = cache.candidates;
  std::vector<double> remaining(A);
  for (std::size_t k = 0; k < A; ++k) remaining[k] = arcs[k].amount;
  std::vector<std::int64_t> fixed(A);
  for (int sel = 0; sel < kSelections; ++sel) {
    const std::vector<char> active = start_selection(arcs, remaining);
    if (sel > 0) level1_histogram(ent, arcs, parts, points, active, hist);
    MPI_Allreduce(MPI_IN_PLACE, hist.data(), static_cast<int>(hist.size()), MPI_DOUBLE, MPI_SUM, comm.get());
    find_cut_bins(arcs, hist, remaining, active);
    if (sel == 0) trim_candidates(ent, arcs, hist);
    level2_histogram(ent, arcs, parts, points, hist);
    MPI_Allreduce(MPI_IN_PLACE, hist.data(), static_cast<int>(hist.size()), MPI_DOUBLE, MPI_SUM, comm.get());
    find_cut_subs(arcs, hist);
    move_candidates(arcs, ent, parts, points, unit, cache, fixed);
    MPI_Allreduce(MPI_IN_PLACE, fixed.data(), static_cast<int>(A), MPI_INT64_T, MPI_SUM, comm.get());
    const bool more = settle(arcs, fixed, unit, moved, remaining);
    log_selection(comm, sel, arcs, remaining);
    if (!more) break;
  }
}

}  // namespace hpart::repart::diffusion
