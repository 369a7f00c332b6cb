#pragma once
// `hpart evaluate` and `hpart repartition`: the workflows that start from a partition file
// someone already has (a METIS .part file, hpart's own output, a grid partition .h5), measured
// or rebalanced with the same library calls `hpart partition` uses, so the numbers agree.
// main.cpp calls add_evaluate / add_repartition while it builds the command line and, when the
// subcommand was given, run_evaluate / run_repartition on every rank.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli_options.hpp"
#include "hpart/comm.hpp"
#include "hpart/hdf5.hpp"
#include "hpart/partition.hpp"
#include "hpart/types.hpp"
#include "input_file.hpp"

namespace hpart_cli {

// `hpart evaluate FILE PARTFILE [-k K]` or `hpart evaluate --grid GRID.h5 [PARTS.h5]`.
struct EvaluateArgs {
  std::vector<std::string> files;  // FILE PARTFILE; with --grid: [PARTS.h5] (default: GRID.h5 itself)
  InputSpec input;                 // --kind, --format, --dim (path: files[0])
  std::string grid;                // --grid: the grid and its cost (an `hpart grid --out` file, or a cost field)
  std::string dataset = "/cost";   // the cost dataset of --grid
  int halo = 1;                    // grids: halo width of the neighbour counts
  int parts = 0;                   // -k: K (0: the largest part id + 1)
  RunArgs run;                     // --json, --quiet (evaluate runs no partitioner: no -t, --strict)
  const CLI::App* cmd = nullptr;   // which options were given
};
CLI::App* add_evaluate(CLI::App& app, EvaluateArgs& a);
int run_evaluate(const hpart::Comm& comm, const EvaluateArgs& a);

// `hpart repartition FILE --from OLD.part [-k K] [-e TOL] [-o NEW] [--itr X]`, or
// `hpart repartition --grid GRID.h5 --from PARTS.h5 [-e TOL] [-o NEW.h5]`.
struct RepartitionArgs {
  InputSpec input;                 // FILE (positional), --kind, --format, --dim
  std::string from;                // the current partition (text part file, or /parts of an .h5)
  std::string grid;                // --grid GRID.h5: a grid and its cost (then --from is a grid partition .h5)
  std::string dataset = "/cost";   // the cost dataset of --grid
  int parts = 0;                   // -k: K (0: the largest part id of --from + 1)
  BalanceArgs balance;             // -e / --ufactor (default: 0.03 graphs, 0.02 points)
  double itr = 1000.0;             // graphs: ParMETIS's itr, cut against migration
  std::string out;                 // -o (default FILE.part.K, as gpmetis names it)
  bool no_out = false;
  RunArgs run;
  const CLI::App* cmd = nullptr;
};
CLI::App* add_repartition(CLI::App& app, RepartitionArgs& a);
int run_repartition(const hpart::Comm& comm, RepartitionArgs a);

// --- shared by both (file_workflows.cpp) -------------------------------------------------------

// The parts of this rank's objects of `in`, from `path`: a text part file (one id per object, in
// file order; read_parts_text), or the /parts dataset of an HDF5 file for inputs whose blocks
// are the HDF5 reader's (HDF5 points, graphs). K: `parts` when > 0 (a larger id is an error
// naming its line), else the largest id + 1 over all ranks.
struct InputParts {
  std::vector<hpart::part_t> parts;
  int num_parts = 0;
};
InputParts read_input_parts(const hpart::Comm& comm, const Input& in, const std::string& path, int parts);

// The grid of --grid and its cost: `dataset`, or, when the user named none (`given` false) and
// the file has no /cost (`hpart grid --cost unit` writes none), unit cost on the shape of its
// /parts. `cost` says which, for the header line.
hpart::GridField read_grid_field(const hpart::Comm& comm, const std::string& path, const std::string& dataset, bool given,
                                 std::string& cost);


}  // namespace hpart_cli
