// Cases grid.sfc, grid.blocks (a 2-D grid with a cost hotspot, rows of cells dealt to the ranks
// in slabs) and hier.grid (the same grid, nodes then ranks, on an emulated topology).
#include <optional>
#include <string>

#include "grid_generators.hpp"
#include "hpart/grid.hpp"
#include "hpart/hierarchy.hpp"
#include "hpart/topology.hpp"
#include "parts_checksum.hpp"
#include "scaling_case.hpp"

namespace hpart_scaling {
namespace {

constexpr double kPeak = 50.0;  // hotspot cost over the background, as in hpart-bench's grid suite

// This rank's slab of rows of a side x side grid and its costs.
struct HotspotGrid {
  hpart::Grid grid;
  std::vector<double> cost;
  hpart::gid_t first_cell = 0;  // global id (y * side + x) of the first local cell

  HotspotGrid(const hpart::Comm& comm, long long side) {
    grid.dim = 2;
    grid.extent = {side, side, 1};
    hpart::Box box = grid.domain();
    box.lo[1] = side * comm.rank() / comm.size();
    box.hi[1] = side * (comm.rank() + 1) / comm.size() - 1;
    grid.local = box;
    cost = hpart_apps::hotspot_cost(grid, kPeak);
    grid.cost = cost;
    first_cell = box.lo[1] * side;
  }
};

// The hotspot grid and the result of the last call, whichever partitioner makes it: both grid
// cases report the same figures of the same cells.
template <class Result>
class HotspotGridCase : public ScalingCase {
 public:
  HotspotGridCase(const hpart::Comm& comm, const Sizes& s, const char* case_name, const char* method)
      : ScalingCase(case_name, method, s.grid_side * s.grid_side, s.parts), comm_(comm), g_(comm, s.grid_side) {}
  void prepare() override { result_.reset(); }
  Figures figures() override {
    Figures f;
    f.imbalance = result_->metrics.imbalance.at(0);
    f.checksum = parts_checksum(comm_, g_.first_cell, result_->parts);
    return f;
  }

 protected:
  const hpart::Comm& comm_;
  HotspotGrid g_;
  std::optional<Result> result_;
};

class GridCase final : public HotspotGridCase<hpart::GridPartition> {
 public:
  GridCase(const hpart::Comm& comm, const Sizes& s, bool blocks)
      : HotspotGridCase(comm, s, "grid", blocks ? "blocks" : "sfc") {
    opts_.parts = s.parts;
    opts_.method = blocks ? hpart::GridMethod::blocks : hpart::GridMethod::sfc;
  }
  void call() override { result_.emplace(hpart::partition_grid(comm_, g_.grid, opts_)); }

 private:
  hpart::GridOptions opts_;
};

// Nodes of 4 ranks where the rank count allows (else 2, else 1): 16 ranks are 4 nodes of 4.
std::string emulated_nodes(int ranks) {
  const int per_node = ranks % 4 == 0 ? 4 : ranks % 2 == 0 ? 2 : 1;
  return std::to_string(ranks / per_node) + "x" + std::to_string(per_node);
}

class HierCase final : public HotspotGridCase<hpart::HierGridPartition> {
 public:
  HierCase(const hpart::Comm& comm, const Sizes& s)
      : HotspotGridCase(comm, s, "hier", "grid"),
        topology_(hpart::detect_topology(comm, emulated_nodes(comm.size()))) {
    opts_.parts = s.parts;
  }
  void call() override { result_.emplace(hpart::partition_grid_hierarchical(comm_, g_.grid, topology_, opts_)); }

 private:
  hpart::Topology topology_;
  hpart::HierGridOptions opts_;
};

}  // namespace

std::unique_ptr<ScalingCase> make_grid_case(const hpart::Comm& comm, const Sizes& s, bool blocks) {
  return std::make_unique<GridCase>(comm, s, blocks);
}
std::unique_ptr<ScalingCase> make_hier_case(const hpart::Comm& comm, const Sizes& s) {
  return std::make_unique<HierCase>(comm, s);
}

}  // namespace hpart_scaling
