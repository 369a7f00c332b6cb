#pragma once
// The "grid" suite: hpart's grid methods against a naive uniform split and Zoltan RCB on the
// same cells (given to Zoltan as weighted points at the cell centres), on grids whose cost has a
// hotspot.
#include <cstdint>
#include <string>
#include <vector>

#include "bench_record.hpp"
#include "hpart/comm.hpp"
#include "hpart/grid.hpp"

namespace hpart_bench {

struct GridSuiteConfig {
  int parts = 64;
  int reps = 1;
  std::vector<std::string> cases{"hotspot2d", "hotspot3d", "amr2d"};
  std::int64_t side2d = 4096, side3d = 256;  // cells per side (hotspot2d and amr2d: side2d)
  bool run_hpart = true, run_naive = true, run_zoltan = true;
};

// Case names the suite knows: "hotspot2d, hotspot3d, amr2d" (amr2d: an AMR patch level, patch_case.hpp).
const char* grid_case_names();
bool is_grid_case(const std::string& name);

// A case's grid with this rank's slab of it (the last dimension split into blocks) and its costs.
struct GridCase {
  std::string name;
  hpart::Grid grid;
  std::vector<double> cost;
  GridCase() = default;
  GridCase(const GridCase&) = delete;
  GridCase& operator=(const GridCase&) = delete;
};
// Cost 1 everywhere plus 50 inside a disk (2D, 4096^2) or ball (3D, 256^3) covering ~5% of the
// domain. `grid.cost` views `cost`.
void make_grid_case(const hpart::Comm& comm, const GridSuiteConfig& cfg, const std::string& name, GridCase& out);

// Halo cells (width 1, corners included) received over all parts, for any labelling of the
// cells of a slab-distributed grid: each rank needs only the boundary layers of its slab
// neighbours, so every library's parts are measured by the same code.
// With node_of_part, also the share of it between parts on different nodes.
struct SlabVolumes {
  long long total = 0, internode = 0;
};
SlabVolumes slab_comm_volume(const hpart::Comm& comm, const hpart::Grid& grid, const std::vector<hpart::part_t>& parts,
                             const std::vector<int>& node_of_part = {});

// The "hier" suite: flat sfc (parts to ranks in order) against hierarchical partitioning on an
// emulated topology (default 3 nodes x 2 ranks: run at np 6).
struct HierSuiteConfig {
  GridSuiteConfig grid;  // parts, reps, sides; cases: hotspot3d, graph (and hotspot2d)
  std::string topology = "3x2";
  std::string graph_file;  // case "graph": delaunay_n15 from the shared graphs
};
void run_hier_suite(const hpart::Comm& comm, const HierSuiteConfig& cfg, RecordSink& sink);

void run_grid_suite(const hpart::Comm& comm, const GridSuiteConfig& cfg, RecordSink& sink);

}  // namespace hpart_bench
