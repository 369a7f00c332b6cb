#include "heat_options.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>

namespace hpart_heat {
namespace {

constexpr const char* kFooter = R"(
The hot region moves in a straight line from (0.2, 0.3, 0.35) to (0.8, 0.7, 0.65) of the domain
over the run. Every cell does --work sub-steps of its update per step, hot cells --work x --hot,
so the measured step times show the imbalance the partitioner is asked to remove. The grid is
partitioned at step 0 (from slabs) and every --rebalance-every steps with the current cost, one
box per rank, and the temperature moves box to box to the new owners.

Examples (under mpirun; as root add --allow-run-as-root --oversubscribe):
  mpirun -np 2 hpart-heat                                   # 1024^2, 200 steps, rebalance every 20
  mpirun -np 2 hpart-heat --rebalance-every 0               # the same without rebalancing
  mpirun -np 4 hpart-heat --rebalance-every 5 --planes      # rebalance by moving the cut planes
  mpirun -np 4 hpart-heat --dim 3 --method tensor --json heat.jsonl
  mpirun -np 3 hpart-heat --n 48 --steps 30 --rebalance-every 5 --check

Exit codes: 0 success, 1 bad command line or --check failed, 2 bad input or I/O error,
3 internal error (e.g. heat not conserved by a redistribution).)";

}  // namespace

std::optional<int> parse_heat_options(int argc, char** argv, int rank, HeatOptions& o) {
  CLI::App app{"hpart-heat: explicit heat diffusion on a 2D/3D grid whose expensive region moves,\n"
               "repartitioned into one box per rank with hpart::partition_grid."};
  app.footer(kFooter);
  app.add_option("--dim", o.dim, "2 (5-point stencil) or 3 (7-point)")->check(CLI::IsMember({2, 3}))->capture_default_str();
  app.add_option("--n", o.n, "cells per dimension (default 1024 in 2D, 128 in 3D)")->check(CLI::Range(2LL, 1LL << 15));
  app.add_option("--steps", o.steps, "time steps")->check(CLI::Range(1, 1 << 30))->capture_default_str();
  app.add_option("--rebalance-every", o.rebalance_every, "repartition every N steps (0 = only at step 0)")
      ->check(CLI::Range(0, 1 << 30))->capture_default_str();
  app.add_option("--method", o.method, "grid method: blocks (recursive bisection), tensor, uniform (cost ignored)")
      ->check(CLI::Validator(
          [](std::string& m) -> std::string {
            if (m == "blocks" || m == "tensor" || m == "uniform") return {};
            if (m == "sfc") return "sfc parts are not boxes; hpart-heat needs one box per rank: use blocks, tensor or uniform";
            return "unknown method '" + m + "': use blocks, tensor or uniform";
          },
          "blocks|tensor|uniform"))
      ->capture_default_str();
  app.add_flag("--planes", o.planes,
               "blocks: every rebalance after the first moves the cut planes of the previous partition "
               "(hpart::repartition_grid: same cut tree, a plane moves only when its two sides left their share "
               "of 2%) instead of cutting afresh");
  app.add_option("--hot", o.hot, "cost factor of the cells in the hot region")->check(CLI::Range(1, 10000))->capture_default_str();
  app.add_option("--work", o.work, "sub-steps per unit of cost (default 160 in 2D, 80 in 3D: a default run takes ~10-30 s at np 2)")
      ->check(CLI::Range(1, 100000));
  app.add_option("--radius", o.radius, "radius of the hot region in domain sides (default 0.13 in 2D, 0.23 in 3D: ~5% of the cells)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--print-every", o.print_every, "print a line every k steps (and at every rebalance)")
      ->check(CLI::Range(1, 1 << 30))->capture_default_str();
  app.add_option("-t,--threads", o.threads,
                 "OpenMP threads per rank (0 = OMP_NUM_THREADS if set, else the cores of this rank: its affinity "
                 "mask, or the node's cores shared among the job's ranks there)")
      ->check(CLI::Range(0, 1024))->capture_default_str();
  app.add_option("--clock", o.clock,
                 "clock of the measured update times (the imbalance column): wall, or cpu = each rank's CPU time, "
                 "which ignores time spent waiting for a core on a shared or oversubscribed machine (use 1 thread)")
      ->check(CLI::IsMember({"wall", "cpu"}))->capture_default_str();
  app.add_option("--json", o.json, "write JSON Lines records (BENCH.md: suite app-heat) to this file");
  app.add_flag("--quiet", o.quiet, "print only the summary");
  app.add_flag("--check", o.check, "compare with a serial run on rank 0 at the end (small grids); exit 1 if they differ by > 1e-12");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (rank != 0) return e.get_exit_code() == 0 ? 0 : 1;
    return app.exit(e) == 0 ? 0 : 1;
  }
  if (o.n == 0) o.n = o.dim == 3 ? 128 : 1024;
  if (o.work == 0) o.work = o.dim == 3 ? 80 : 160;
  if (o.radius == 0) o.radius = o.dim == 3 ? 0.23 : 0.13;

  // Checks across options (CLI11 checks each one alone).
  std::string problem;
  long long cells = o.n * o.n * (o.dim == 3 ? o.n : 1);
  if (o.n > (o.dim == 3 ? (1LL << 10) : (1LL << 15)))
    problem = "--n " + std::to_string(o.n) + " is too large for " + std::to_string(o.dim) + "D (at most " +
              std::to_string(o.dim == 3 ? 1 << 10 : 1 << 15) + ": 2^30 cells)";
  else if (o.check && cells > kMaxCheckCells)
    problem = "--check runs the whole grid serially on rank 0: use at most " + std::to_string(kMaxCheckCells) +
              " cells (got " + std::to_string(cells) + ")";
  else if (o.planes && o.method != "blocks")
    problem = "--planes moves the cut planes of a blocks partition: use it with --method blocks";
  else if (static_cast<long long>(o.work) * o.hot > (1LL << 24))
    problem = "--work x --hot must be at most 2^24 sub-steps per cell";
  if (!problem.empty()) {
    if (rank == 0) std::fprintf(stderr, "hpart-heat: error: %s\n", problem.c_str());
    return 1;
  }
  return std::nullopt;
}

}  // namespace hpart_heat
