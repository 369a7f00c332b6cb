// PointDiffusion: setting up a call (measure, contacts, flows), the rounds and the summary. The
// phases live apart: point_diffusion_measure.cpp measures the parts and their contacts,
// point_diffusion_candidates.cpp and point_diffusion_select.cpp run one round's moves.
#include "points/point_diffusion.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>

#include "core/log.hpp"
#include "points/point_diffusion_round.hpp"

namespace hpart::repart {

namespace {

// Cells of the source's boundary layer per contact (a contact is a pair of cells, shared or
// face-adjacent, holding the two parts), with a margin: the edge limit of the flow.
constexpr double kBandCells = 0.7;

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
  using namespace diffusion;
  const detail::Stopwatch clock;
  const std::size_t K = static_cast<std::size_t>(k_), D = static_cast<std::size_t>(dim_);
  const double avg = std::accumulate(weight_.begin(), weight_.end(), 0.0) / k_;
  std::vector<Arc> arcs = arcs_from_flows(edges_, flow_, centroid_, D, avg);
  const std::size_t A = arcs.size();
  const std::vector<std::size_t> first = arcs_by_source(arcs, K);
  DiffusionCache& c = cache_;
  c.candidates.clear();
  c.moved.clear();
  c.moved_from.clear();
  std::vector<double> moved(A, 0.0), hist(A * kBinCount, 0.0);
  const NearRows near = near_rows(grid_, bitmap_, arcs, K, c);
  orient_arcs(arcs, grid_, bitmap_, near, centroid_, lo_.data(), hi_.data(), D, c);
  gather_candidates(arcs, first, near, bitmap_, grid_.words_per_part(), parts_, points_, centroid_, c, hist);
  select_and_move(comm_, arcs, hist, parts_, points_, unit_, c, moved);
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
