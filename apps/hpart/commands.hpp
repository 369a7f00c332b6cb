#pragma once
// The hpart CLI's subcommands. Each runs on every rank with the same parsed options and returns
// the process exit code; hpart::Error propagates to main, which prints it on rank 0.
#include <cstdint>
#include <string>
#include <vector>

#include "hpart/comm.hpp"
#include "hpart/graph.hpp"
#include "hpart/types.hpp"

namespace hpart_cli {

struct PartitionArgs {
  std::string points;     // text point file
  std::string h5;         // or an HDF5 point file (/points, optional /weights, /ids)
  std::string graph;      // or a graph: METIS .graph (Chaco with --format chaco), MatrixMarket .mtx
  std::string format;     // graph: metis | chaco | mm ("" = from the extension)
  int parts = 0;
  std::string method;     // "" = hilbert (points) or graph (graphs)
  double imbalance = -1;  // < 0 = 0.001 (points) or 0.03 (graphs)
  int dim = 0;            // 0: from the file's columns
  std::string out;        // part file, one id per point (.h5: an HDF5 partition file with the points)
  std::string png;        // picture of the partition
  int png_size = 1024;
  int drift = 0;          // graphs: steps of a drifting load rebalanced by the Rebalancer (0: none)
  bool quiet = false;
};
int run_partition(const hpart::Comm& comm, const PartitionArgs& args);
int run_graph_partition(const hpart::Comm& comm, const PartitionArgs& args);
// `--drift`: the Rebalancer loop on the graph `file` (its vertex weights are replaced).
void run_graph_drift(const hpart::Comm& comm, const PartitionArgs& args, hpart::GraphFile& file);

struct GenerateArgs {
  std::string shape = "uniform2d";
  long long n = 100000;
  std::uint64_t seed = 1;
  std::string out;        // text point file (.h5: an HDF5 point file)
  bool quiet = false;
};
int run_generate(const hpart::Comm& comm, const GenerateArgs& args);

struct GridArgs {
  std::vector<std::int64_t> extent{1024, 1024};  // cells per dimension (2 or 3 values)
  std::string cost = "hotspot";  // generated: hotspot (1 + peak in a disk/ball of 5%) or unit
  double peak = 50.0;
  std::string h5;                // or a cost field read from HDF5 (2D/3D dataset, C order)
  std::string dataset = "/cost";
  int parts = 0;
  std::string method = "blocks";  // sfc, blocks, tensor, uniform, hier
  std::string topology;           // hier: "NxM" (default: HPART_TOPOLOGY or shared memory)
  double imbalance = 0.001;
  int halo = 1;
  std::string out;                // HDF5 grid partition (+ .xmf)
  std::string png;
  int png_size = 1024;
  bool quiet = false;
};
int run_grid(const hpart::Comm& comm, const GridArgs& args);

// Whether `path` names an HDF5 file by its extension (.h5 or .hdf5).
bool is_hdf5_path(const std::string& path);

}  // namespace hpart_cli
