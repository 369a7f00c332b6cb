// Cases graph.kway (hpart's multilevel partitioner on a 3-D 7-point grid graph, z-slabs per rank)
// and repart_graph.incremental (a drifted vertex load on such a graph, already moved to the owners
// of its parts: repartition_graph from the current parts, then migrate_graph to the new owners).
#include <cmath>
#include <optional>

#include "graph_generators.hpp"
#include "hpart/graph.hpp"
#include "hpart/graph_migration.hpp"
#include "parts_checksum.hpp"
#include "scaling_case.hpp"

namespace hpart_scaling {
namespace {

class GraphCase final : public ScalingCase {
 public:
  GraphCase(const hpart::Comm& comm, const Sizes& s)
      : ScalingCase("graph", "kway", s.graph_side * s.graph_side * s.graph_side, s.parts), comm_(comm),
        g_(hpart_apps::grid_graph_3d(comm, s.graph_side)) {
    opts_.parts = s.parts;
  }
  void prepare() override { result_.reset(); }
  void call() override { result_.emplace(hpart::partition_graph(comm_, g_.view(), opts_)); }
  Figures figures() override {
    Figures f;
    f.imbalance = result_->metrics.imbalance.at(0);
    f.edge_cut = result_->cut.edge_cut;
    f.checksum = parts_checksum(comm_, g_.vtxdist[static_cast<std::size_t>(comm_.rank())], result_->parts);
    return f;
  }

 private:
  const hpart::Comm& comm_;
  hpart::GraphFile g_;
  hpart::GraphOptions opts_;
  std::optional<hpart::GraphPartition> result_;
};

// Vertex weight 10 + round(40 exp(-r^2 / 2 sigma^2)) around a centre on the diagonal at fraction
// t of its path (hpart-bench's graphdrift, in 3-D); coordinates are cell centres in [0, side).
void set_drift_weights(hpart::GraphFile& g, long long side, double t) {
  const double c = (0.1 + 0.8 * t) * static_cast<double>(side), sigma = 0.12 * static_cast<double>(side);
  const double inv = 1.0 / (2 * sigma * sigma);
  const std::size_t n = g.xadj.size() - 1;
  g.vwgt.resize(n);
  for (std::size_t v = 0; v < n; ++v) {
    double r2 = 0.0;
    for (std::size_t d = 0; d < 3; ++d) r2 += (g.coords[3 * v + d] - c) * (g.coords[3 * v + d] - c);
    g.vwgt[v] = 10 + std::llround(40.0 * std::exp(-r2 * inv));
  }
}

class RepartGraphCase final : public ScalingCase {
 public:
  RepartGraphCase(const hpart::Comm& comm, const Sizes& s)
      : ScalingCase("repart_graph", "incremental", s.repart_graph_side * s.repart_graph_side * s.repart_graph_side,
                    s.parts),
        comm_(comm), owners_{s.parts, comm.size()} {
    const long long side = s.repart_graph_side;
    hpart::GraphFile start = hpart_apps::grid_graph_3d(comm, side);
    set_drift_weights(start, side, 0.0);
    hpart::GraphOptions fresh;
    fresh.parts = s.parts;
    const hpart::GraphPartition initial = hpart::partition_graph(comm, start.view(), fresh);
    here_ = hpart::migrate_graph(comm, start.view(), initial.parts, owners_);
    set_drift_weights(here_.graph, side, 0.25);
    opts_.parts = s.parts;
  }
  void prepare() override {
    result_.reset();
    moved_.reset();
  }
  void call() override {
    result_.emplace(hpart::repartition_graph(comm_, here_.graph.view(), here_.parts, opts_));
    moved_.emplace(hpart::migrate_graph(comm_, here_.graph.view(), result_->parts, owners_));
  }
  Figures figures() override {
    Figures f;
    f.imbalance = result_->metrics.imbalance.at(0);
    f.edge_cut = result_->cut.edge_cut;
    f.migrated = result_->migrated.weight;
    f.checksum = parts_checksum(comm_, here_.old_ids, result_->parts);
    return f;
  }

 private:
  const hpart::Comm& comm_;
  hpart::PartOwners owners_;
  hpart::MigratedGraph here_;  // the graph on the owners of its initial parts, its load drifted
  hpart::GraphRepartOptions opts_;
  std::optional<hpart::GraphRepartition> result_;
  std::optional<hpart::MigratedGraph> moved_;
};

}  // namespace

std::unique_ptr<ScalingCase> make_graph_case(const hpart::Comm& comm, const Sizes& s) {
  return std::make_unique<GraphCase>(comm, s);
}
std::unique_ptr<ScalingCase> make_repart_graph_case(const hpart::Comm& comm, const Sizes& s) {
  return std::make_unique<RepartGraphCase>(comm, s);
}

}  // namespace hpart_scaling
