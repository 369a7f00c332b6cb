#pragma once
// What every hpart subcommand shares on the command line: the conventions of gpmetis, KaMinPar
// and Zoltan users (-k parts, -e tolerance as 0.03 or 1.03, METIS's -ufactor, -t threads),
// strictness (an option that does not apply to the input is an error naming both), outputs
// checked for writability before any work, and the exit codes the help promises.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "hpart/comm.hpp"
#include "hpart/error.hpp"
#include "hpart/grid.hpp"

namespace hpart_cli {

// The exit codes of `hpart --help`.
enum Exit : int { exit_ok = 0, exit_usage = 1, exit_input = 2, exit_internal = 3, exit_unbalanced = 4 };

// A mistake on the command line that only the input reveals (an option that does not apply to
// the file's kind): exit 1 like any other usage error, thrown alike on every rank.
struct UsageError : hpart::Error {
  explicit UsageError(const std::string& what) : hpart::Error(hpart::ErrorCode::invalid_argument, what) {}
};

// Options of every subcommand that partitions.
struct RunArgs {
  int threads = 0;         // -t: OpenMP threads per rank (0: the cores available to the rank)
  std::string json;        // --json FILE: BENCH.md records (JSON Lines), appended
  bool quiet = false;
  bool strict = false;     // an unmet tolerance exits 4 instead of warning
  std::string threads_why;  // set by the subcommand: the thread count and why, for the header line
};
void add_run_options(CLI::App& cmd, RunArgs& a);
// "2 threads (2 cores bound to this rank)" from threads_why, for the header line (rank 0's).
std::string threads_phrase(const RunArgs& a);

// --kind, --format and --dim: what FILE holds when its name and content do not tell, a graph's
// format, a point file's dimension (the same three for partition, evaluate and repartition).
void add_input_options(CLI::App& cmd, std::string& kind, std::string& format, int& dim);

// -e/--imbalance and --ufactor: the raw value as given, turned into a tolerance by tolerance().
struct BalanceArgs {
  double imbalance = -1;  // < 0: not given
  int ufactor = -1;       // METIS: tolerance = ufactor / 1000
};
void add_balance_options(CLI::App& cmd, BalanceArgs& a, const std::string& default_text);
// The tolerance (max part / average - 1): -e 0.03 and -e 1.03 both mean 3 %; values >= 1 are
// ratios (METIS's ubvec, Zoltan's IMBALANCE_TOL), values below 1 fractions (KaMinPar's -e).
double tolerance(const BalanceArgs& a, double default_tolerance);
// "max part <= 1.03 x average (tolerance 0.03)", printed in the header line so that nobody
// has to guess which convention was read.
std::string describe_tolerance(double tol);

// gpmetis writes its options with one dash and '=' (-ufactor=30, -seed=5, -niter=20): rewrite
// those we take into the two-dash form before parsing.
std::vector<std::string> conventional_argv(int argc, char** argv);

// Collective: each path (empty ones skipped) must be creatable or writable. Rank 0 checks (the
// file system is shared), every rank throws the same io Error naming the path and `what`, e.g.
// "--png", before any work starts. A file that did not exist is removed again.
void check_writable(const hpart::Comm& comm, const std::vector<std::pair<std::string, std::string>>& outputs);

// Throws UsageError "OPTION does not apply to KIND 'FILE' (it is for WHAT)" when `cmd` got OPTION.
void reject_option(const CLI::App& cmd, const std::string& option, const std::string& kind, const std::string& file,
                   const std::string& applies_to);

// gpmetis's output name: FILE.part.K next to the input.
std::string default_part_path(const std::string& input, int parts);

// "%.4g"-formatted number, for the pictures' legends.
std::string number(double v);
// "256x256x64": a grid's cells per dimension, for header lines and titles.
std::string extent_text(const hpart::Grid& grid);
// The file's name without its directory, for titles.
std::string base_name(const std::string& path);

// Whether `path` names an HDF5 file by its extension (.h5 or .hdf5).
bool is_hdf5_path(const std::string& path);

// Throws an unsupported Error when this build lacks a dependency the outputs need (a .h5 output
// without HDF5, a --png without PNG), before the work starts rather than after it.
void require_output_features(const std::string& out, const std::string& png);

}  // namespace hpart_cli
