#pragma once
// Incremental repartitioning of a distributed point set by diffusion between neighbouring parts:
// the part graph comes from a coarse occupancy grid (part_contacts), a greedy min-cost transport
// flow limited per edge by the weight of the source's boundary layer removes the excess
// (diffusion_flow), and each flow p -> q is realised by moving the objects of p that lie furthest
// towards q (largest projection on centroid_q - centroid_p) among those within two cells of q.
// The candidates are gathered in one pass; selections over them (two-level weighted histograms
// across ranks, exact fixed-point sums of what moved) realise each flow, and the new part weights
// follow from the sums: one round normally suffices. A further round, from a fresh measurement,
// runs only when a boundary layer could not carry its flow.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "hpart/comm.hpp"
#include "hpart/point_set.hpp"
#include "hpart/types.hpp"
#include "repart/diffusion_flow.hpp"
#include "repart/part_contacts.hpp"

namespace hpart::repart {

class PointDiffusion {
 public:
  // Collective. parts: the current part of each local object, in [0, num_parts) (validated by the
  // caller). Measures the parts, their contacts and the first round's flow towards `target`
  // imbalance (max / mean - 1); rounds stop once the imbalance is within `stop` (>= target).
  // lo, hi: the box of the local points (+inf / -inf when none), e.g. from detail::scan_points.
  PointDiffusion(const Comm& comm, const PointSet& points, std::vector<part_t> parts, int num_parts, double target,
                 double stop, const double* lo, const double* hi);

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
  std::vector<part_t> take_parts() { return std::move(parts_); }

 private:
  // Part weights, centroids, boxes and the occupancy bitmap: one pass, overlapped allreduces
  // (the first call also fixes the contact grid and each object's cell).
  void measure(const double* lo = nullptr, const double* hi = nullptr);
  double contacts();  // part contacts and near parts from the bitmap; returns the surface
  void solve_flows();  // rank 0's flows and centroids, and its verdict on the imbalance, broadcast
  void move_along_flows();  // one round; updates the part weights from the histograms
  [[nodiscard]] double w(std::size_t i) const {
    return points_.weights.empty() ? 1.0 : points_.weights[i * static_cast<std::size_t>(points_.ncon)];
  }

  Comm comm_;
  const PointSet& points_;
  std::vector<part_t> parts_;
  int k_;
  int dim_;
  std::vector<double> weight_, count_, centroid_;
  std::vector<PartEdge> edges_;
  ContactGrid grid_;
  std::vector<std::int32_t> cell_;  // contact-grid cell of each local object
  std::vector<std::uint64_t> bitmap_;  // occupancy, K rows of grid_.words_per_part() words
  std::vector<std::int32_t> owner_;  // per cell: its only part, -1 empty, -2 shared
  std::vector<char> boundary_;  // per cell: another part within kRings face steps
  std::vector<std::array<int, 3>> ring_;  // cell offsets within kRings face steps
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
