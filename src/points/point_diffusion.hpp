#pragma once
// Incremental repartitioning of a distributed point set by diffusion between neighbouring parts:
// the part graph comes from a coarse occupancy grid (part_contacts), a greedy min-cost transport
// flow limited per edge by the weight of the source's boundary layer removes the excess
// (diffusion_flow), and each flow p -> q is realised by moving the objects of p that lie furthest
// towards q among those within two cells of q: the largest projection on the interface normal
// (from the mean cell of p's band near q to that of q's band near p; the centroids' line where
// the bands are empty), tilted by ~3 degrees so that a lattice layer is taken in order along it.
// The candidates are gathered from the cells of p within two cells of q only (the objects are
// indexed by cell; q's bitmap row, dilated, marks those cells); selections over them (two-level
// weighted histograms across ranks, exact fixed-point sums of what moved) realise each flow, and
// the new part weights follow from the sums: one round normally suffices. A further round runs
// only when a boundary layer could not carry its flow; it updates the measurement from the
// objects that moved instead of measuring afresh.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/validate.hpp"
#include "hpart/comm.hpp"
#include "hpart/point_set.hpp"
#include "hpart/types.hpp"
#include "kernels/diffusion_flow.hpp"
#include "points/part_contacts.hpp"

namespace hpart::repart {

// What a Rebalancer keeps between incremental rebalances: the contact grid, each object's cell,
// the local objects indexed by cell, and the buffers of the per-call passes (on this VM a fresh
// large allocation costs a page fault per 4 KiB). Everything in it follows from the coordinates
// alone: every call recomputes the cells in its measuring pass and rebuilds the grid when the
// global box, the object count or K differ, the index when any object's cell differs. So the
// cache never changes a result, only how fast it comes; an empty cache gives the same partition.
struct DiffusionCache {
  // What the grid was made for: dim, parts, the global box (-lo, hi) and the global object count.
  int dim = 0, num_parts = 0;
  std::array<double, 6> box{};
  double objects = -1.0;
  ContactGrid grid;
  GridMasks masks;
  std::vector<std::int32_t> cell;  // contact-grid cell of each local object
  std::vector<std::int32_t> cell_start, by_cell;  // CSR: the local objects of each cell, ascending
  bool indexed = false;  // cell_start / by_cell match `cell`
  long long index_builds = 0;  // times the index was built (tests check that calls reuse it)
  // Buffers, kept for their capacity.
  std::vector<part_t> parts;
  std::vector<std::uint64_t> local_bits, bits, near_rows, scratch;
  // A measuring pass made ahead by scan_and_measure (with the validation scan), on `grid`:
  // taken by the next PointDiffusion unless the grid changes. sums: K weights, K counts, K x dim
  // coordinate sums; local_bits: this rank's occupancy.
  bool premeasured = false, premeasured_same_cells = false;
  std::vector<double> sums;
  std::vector<std::int32_t> owner;  // part_contacts' per-cell buffer (K > ContactTable::kMaxParts)
  ContactTable contacts;  // of the bitmap `contact_bits`, updated from it to each new bitmap
  std::vector<std::uint64_t> contact_bits;
  struct Candidate {
    std::uint32_t i;
    std::int32_t arc;
    double t;  // depth below the top of the arc's projection range, x the histogram bins
  };
  std::vector<Candidate> candidates;
  std::vector<std::uint32_t> moved;  // objects moved in the current round
  std::vector<std::uint32_t> moved_all;  // ... and in every round of the call (an object may repeat)
  std::vector<part_t> moved_from;
};

// The points' validation scan (what detail::scan_points gives: the local box, finite
// coordinates, valid weights) fused with the measuring pass of the next PointDiffusion over the
// same points and parts, on the cache's grid: the coordinates are then read once per call. Falls
// back to detail::scan_points (and no pass) when the cache has no grid for these points yet or
// the points have several weights per object. The pass also checks the parts' range (so the
// caller need not, when it ran). Local, no MPI. Requires the shape checks
// (detail::check_point_shape) passed and parts.size() == points.size().
struct MeasuredScan {
  detail::PointScan scan;
  bool parts_checked = false;  // the pass ran, and checked every part against [0, num_parts)
  bool parts_valid = true;     // ... and found them all inside (when checked)
};
MeasuredScan scan_and_measure(const PointSet& points, std::span<const part_t> parts, int num_parts,
                              DiffusionCache& cache);

class PointDiffusion {
 public:
  // Collective. parts: the current part of each local object, in [0, num_parts) (validated by the
  // caller). Measures the parts, their contacts and the first round's flow towards `target`
  // imbalance (max / mean - 1); rounds stop once the imbalance is within `stop` (>= target).
  // lo, hi: the box of the local points (+inf / -inf when none), e.g. from detail::scan_points.
  // cache: kept by the caller between calls (borrowed for the lifetime of this object).
  PointDiffusion(const Comm& comm, const PointSet& points, std::span<const part_t> parts, int num_parts,
                 double target, double stop, const double* lo, const double* hi, DiffusionCache& cache);

  [[nodiscard]] double surface() const { return surface_; }          // contact estimate
  [[nodiscard]] double flow_total() const { return flow_total_; }    // sum |flow| of round 1
  [[nodiscard]] const std::vector<double>& part_weights() const { return weight_; }
  [[nodiscard]] double imbalance() const;

  // Collective: diffusion rounds (each aiming at the target) until the imbalance is <= stop or
  // max_rounds were run; returns the rounds run (0: already within stop).
  int run(int max_rounds);
  // Fraction of the planned flow the rounds realised (1 = exact), and seconds per phase
  // (measure, contacts, flows, select), both summed over the rounds.
  [[nodiscard]] double realised_fraction() const { return planned_ > 0 ? realised_ / planned_ : 1.0; }
  [[nodiscard]] const std::array<double, 4>& phase_seconds() const { return phase_; }
  [[nodiscard]] const std::vector<part_t>& parts() const { return parts_; }

  // Collective, after run(): the global part weights and sizes of parts() and what moved from
  // `before` (the parts given to the constructor), from the first measurement and the objects
  // the rounds moved: no pass over all objects. Uses the first weight of each object.
  struct Summary {
    std::vector<double> part_weights;
    std::vector<long long> part_sizes;
    double moved_weight = 0.0;
    long long moved_objects = 0;
  };
  [[nodiscard]] Summary summary(std::span<const part_t> before) const;

 private:
  // Part weights, centroids and the occupancy bitmap: one pass over the objects, which also
  // checks each object's cell against the cache, and overlapped allreduces.
  void measure(const double* lo, const double* hi);
  // The same after a round, from the objects it moved only.
  void update_measure();
  double contacts();  // part contacts from the bitmap; returns the surface
  void solve_flows();  // rank 0's flows and centroids, and its verdict on the imbalance, broadcast
  void move_along_flows();  // one round; updates the part weights from the histograms
  [[nodiscard]] double w(std::size_t i) const {
    return points_.weights.empty() ? 1.0 : points_.weights[i * static_cast<std::size_t>(points_.ncon)];
  }

  Comm comm_;
  const PointSet points_;  // a view (spans) of the caller's arrays: copied, so a temporary view may be passed
  DiffusionCache& cache_;
  std::vector<part_t>& parts_;  // the cache's buffer
  int k_;
  int dim_;
  std::vector<double> weight_, count_, centroid_;
  std::vector<double> weight0_, count0_;  // global part weights and counts of the first measurement
  std::vector<double> coord_sum_;  // global, K x dim: the centroids' numerators
  std::vector<PartEdge> edges_;
  const ContactGrid& grid_;  // the cache's
  // Occupancy, K rows of grid_.words_per_part() words: this rank's objects, and all ranks'.
  std::vector<std::uint64_t>& local_bits_;
  std::vector<std::uint64_t>& bitmap_;
  std::vector<double> flow_;
  double surface_ = 0.0, flow_total_ = 0.0;
  double objects_ = 0.0;  // global object count
  bool done_ = false;  // rank 0's verdict on the imbalance, broadcast with the flows
  double target_ = 0.0, stop_ = 0.0;
  std::array<double, 3> lo_{}, hi_{};  // global box of the points
  double unit_ = 1.0;  // fixed-point scale of weights for exact sums (rank 0's, broadcast)
  double planned_ = 0.0, realised_ = 0.0;
  std::array<double, 4> phase_{};
};

}  // namespace hpart::repart
