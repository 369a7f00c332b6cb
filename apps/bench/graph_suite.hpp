#pragma once
// The "graph" suite: hpart's graph partitioner against METIS kway and Scotch (library calls in
// the same process, on the graph gathered onto rank 0) on the shared graphs and on generated
// large graphs; every record's cut, volume and imbalance measured by the same code.
#include <cstdint>
#include <string>
#include <vector>

#include "bench_record.hpp"
#include "hpart/comm.hpp"
#include "hpart/types.hpp"

namespace hpart_bench {

struct GraphSuiteConfig {
  std::vector<int> parts{16, 64};
  int reps = 1;
  std::vector<std::string> cases;  // default: every shared graph, grid3d, rgg2d
  std::vector<std::string> files;  // --graph FILE: these alone (no shared or generated graphs)
  std::string data_dir;            // where the shared graphs are
  std::int64_t grid_side = 128;    // grid3d: side^3 vertices
  std::int64_t rgg_cells = 512;    // rgg2d: 4 cells^2 vertices
  bool run_hpart = true, run_metis = true, run_scotch = true, run_zoltan = true;
  // hpart's graph method with these presets (--preset): records named graph-fast, graph (the
  // standard preset) and graph-strong. Standard alone by default, so CI time does not grow.
  std::vector<hpart::Preset> presets{hpart::Preset::standard};
};

// The record's method name of the graph method under preset p: graph, graph-fast, graph-strong.
std::string graph_preset_method(hpart::Preset p);

// Case names: the shared graph files' stems, grid3d, rgg2d; with files given, their stems alone.
std::vector<std::string> graph_case_names(const GraphSuiteConfig& cfg);
void run_graph_suite(const hpart::Comm& comm, const GraphSuiteConfig& cfg, RecordSink& sink);

}  // namespace hpart_bench
