#pragma once
// The hpart CLI's subcommands. Each runs on every rank with the same parsed options and returns
// the process exit code; hpart::Error propagates to main, which prints it on rank 0.
#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli_options.hpp"
#include "hpart/comm.hpp"
#include "hpart/graph.hpp"
#include "hpart/types.hpp"
#include "input_file.hpp"

namespace hpart_cli {

// `hpart partition FILE K`. The parsed options; run_partition resolves the input's kind, the
// parts (positional or -k), the tolerance and the output names into the same struct.
struct PartitionArgs {
  std::string file;       // the input (positional)
  int parts_arg = 0;      // K (positional)
  std::string points, h5, graph;  // the older --points/--h5/--graph forms: the file with its kind
  std::string kind;       // --kind: points | h5 | graph ("" = from the content and extension)
  std::string format;     // graphs: metis | chaco | mm ("" = from the content and extension)
  int parts = 0;          // -k/--parts (resolved: K)
  std::string method;     // "" = hilbert (points) or graph (graphs)
  BalanceArgs balance;
  double tol = 0.0;       // resolved tolerance
  int dim = 0;            // points: 0 = from the header line or the column count
  std::string coords;     // graphs: a point file with one point per vertex
  std::string out;        // part file (resolved: FILE.part.K unless --no-out)
  bool no_out = false;
  std::string png;        // picture of the partition
  int png_size = 1024;
  int drift = 0;          // graphs: steps of a drifting load rebalanced by the Rebalancer (0: none)
  long long seed = -1;    // graphs: the random seed of hpart's graph method (< 0: the library's default)
  std::string preset;     // graphs: -P/--preset fast | default | strong ("" = default)
  RunArgs run;
  const CLI::App* cmd = nullptr;  // which options were given, for the strictness checks
};
int run_partition(const hpart::Comm& comm, PartitionArgs args);
int run_points_partition(const hpart::Comm& comm, const PartitionArgs& args, const Input& in);
int run_graph_partition(const hpart::Comm& comm, const PartitionArgs& args, Input& in);
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
  BalanceArgs balance;            // default tolerance 0.001
  int halo = 1;
  std::string out;                // HDF5 grid partition (+ .xmf)
  std::string png;
  int png_size = 1024;
  RunArgs run;
  const CLI::App* cmd = nullptr;
};
int run_grid(const hpart::Comm& comm, GridArgs args);

}  // namespace hpart_cli
