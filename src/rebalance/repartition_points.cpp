// repartition_points: one rebalance of a Rebalancer that has seen nothing else, so no load
// history, no surface reference and no splitter shift take part: the diffusion from the given
// parts, or a relabelled fresh partition when diffusion cannot balance.
#include "hpart/rebalance.hpp"

namespace hpart {

PointRepartition repartition_points(const Comm& comm, const PointSet& points, std::span<const part_t> current,
                                    const PointRepartOptions& opts) {
  RebalanceOptions ro;
  ro.parts = opts.parts;
  ro.curve = opts.curve;
  ro.imbalance = opts.imbalance;
  ro.max_rounds = opts.max_rounds;
  Rebalancer rb(comm, ro);
  PointRepartition out;
  static_cast<Partition&>(out) = rb.rebalance(points, current);
  const RebalanceStats& stats = rb.stats();
  out.migrated = stats.migrated;
  out.from_scratch = stats.kind != RebalanceKind::diffusion;
  out.steps = stats.rounds;
  return out;
}

}  // namespace hpart
