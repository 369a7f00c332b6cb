// Cases points.hilbert (a fresh partition of clustered, weighted points) and
// repart_points.incremental (a drifted load repartitioned from the current parts, then the points
// moved to their new owners).
#include <cmath>
#include <optional>

#include "hpart/migration.hpp"
#include "hpart/points.hpp"
#include "hpart/rebalance.hpp"
#include "parts_checksum.hpp"
#include "point_generators.hpp"
#include "scaling_case.hpp"

namespace hpart_scaling {
namespace {

constexpr std::uint64_t kSeed = 20240611;

hpart::PointSet view_of(const hpart_apps::LocalPoints& p) {
  return {.coords = p.coords, .dim = p.dim, .weights = p.weights, .ncon = 1, .ids = p.ids};
}

class PointsCase final : public ScalingCase {
 public:
  PointsCase(const hpart::Comm& comm, const Sizes& s)
      : ScalingCase("points", "hilbert", s.points, s.parts),
        comm_(comm),
        pts_(hpart_apps::generate_points(hpart_apps::PointCase::clusters3d, s.points, comm.rank(), comm.size(), kSeed)) {
    opts_.parts = s.parts;
    opts_.curve = hpart::Curve::hilbert;
  }
  void prepare() override { result_.reset(); }
  void call() override { result_.emplace(hpart::partition_points(comm_, view_of(pts_), opts_)); }
  Figures figures() override {
    Figures f;
    f.imbalance = result_->metrics.imbalance.at(0);
    f.checksum = parts_checksum(comm_, pts_.ids, result_->parts);
    return f;
  }

 private:
  const hpart::Comm& comm_;
  hpart_apps::LocalPoints pts_;
  hpart::PointOptions opts_;
  std::optional<hpart::Partition> result_;
};

// One point per cell of a side^3 cube (as in hpart-bench's drift3d), cost 1 + 4 exp(-r^2/2s^2)
// around a centre on the diagonal at fraction t of its path.
struct DriftPoint {
  double x, y, z, w;
  hpart::gid_t id;
};

double drift_weight(const DriftPoint& p, double t) {
  const double c = 0.1 + 0.8 * t, inv = 1.0 / (2 * 0.12 * 0.12);
  const double dx = p.x - c, dy = p.y - c, dz = p.z - c;
  return 1.0 + 4.0 * std::exp(-(dx * dx + dy * dy + dz * dz) * inv);
}

class RepartPointsCase final : public ScalingCase {
 public:
  RepartPointsCase(const hpart::Comm& comm, const Sizes& s)
      : ScalingCase("repart_points", "incremental", s.drift_side * s.drift_side * s.drift_side, s.parts),
        comm_(comm),
        owners_{s.parts, comm.size()} {
    // This rank's z-slab of cells at the drift's start, partitioned fresh and moved to the
    // owners of their parts (untimed): the state a simulation is in before a rebalance.
    const long long side = s.drift_side, layer = side * side;
    const long long z0 = side * comm.rank() / comm.size(), z1 = side * (comm.rank() + 1) / comm.size();
    const double h = 1.0 / static_cast<double>(side);
    std::vector<DriftPoint> start;
    for (long long g = z0 * layer; g < z1 * layer; ++g) {
      DriftPoint p{(static_cast<double>(g % side) + 0.5) * h, (static_cast<double>((g / side) % side) + 0.5) * h,
                   (static_cast<double>(g / layer) + 0.5) * h, 0.0, g};
      p.w = drift_weight(p, 0.0);
      start.push_back(p);
    }
    unpack(start);
    hpart::PointOptions fresh;
    fresh.parts = s.parts;
    const hpart::Partition initial = hpart::partition_points(comm, view(), fresh);
    const hpart::Migration to_owners(comm, initial.parts, owners_);
    points_ = to_owners.move(start);
    current_ = to_owners.move(initial.parts);
    // The load drifts a quarter of the way along the diagonal: the current parts are now off.
    for (DriftPoint& p : points_) p.w = drift_weight(p, 0.25);
    unpack(points_);
    opts_.parts = s.parts;
  }
  void prepare() override {
    result_.reset();
    moved_.clear();
  }
  void call() override {
    result_.emplace(hpart::repartition_points(comm_, view(), current_, opts_));
    const hpart::Migration migration(comm_, result_->parts, owners_);
    moved_ = migration.move(points_);
  }
  Figures figures() override {
    Figures f;
    f.imbalance = result_->metrics.imbalance.at(0);
    f.migrated = result_->migrated.weight;
    f.checksum = parts_checksum(comm_, ids_, result_->parts);
    return f;
  }

 private:
  void unpack(const std::vector<DriftPoint>& pts) {
    coords_.clear();
    weights_.clear();
    ids_.clear();
    for (const DriftPoint& p : pts) {
      coords_.insert(coords_.end(), {p.x, p.y, p.z});
      weights_.push_back(p.w);
      ids_.push_back(p.id);
    }
  }
  [[nodiscard]] hpart::PointSet view() const { return {.coords = coords_, .dim = 3, .weights = weights_, .ncon = 1, .ids = ids_}; }

  const hpart::Comm& comm_;
  hpart::PartOwners owners_;
  std::vector<DriftPoint> points_, moved_;
  std::vector<double> coords_, weights_;
  std::vector<hpart::gid_t> ids_;
  std::vector<hpart::part_t> current_;
  hpart::PointRepartOptions opts_;
  std::optional<hpart::PointRepartition> result_;
};

}  // namespace

std::unique_ptr<ScalingCase> make_points_case(const hpart::Comm& comm, const Sizes& s) {
  return std::make_unique<PointsCase>(comm, s);
}
std::unique_ptr<ScalingCase> make_repart_points_case(const hpart::Comm& comm, const Sizes& s) {
  return std::make_unique<RepartPointsCase>(comm, s);
}

}  // namespace hpart_scaling
