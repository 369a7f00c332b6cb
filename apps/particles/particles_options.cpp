#include "particles_options.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>

namespace hpart_particles {
namespace {

constexpr const char* kFooter = R"(
A 2D particle system with a soft short-range repulsion (cell list of side = cutoff) in which a
flow field carries a dense blob (60% of the particles) from (0.22, 0.25) to (0.78, 0.75) over
the run, so the work per rank moves. The cells are the partitioner's objects (points at their
centres, weighted by their work); each rank owns the particles in its cells and receives the
particles within the cutoff of them from other ranks as ghosts every step. Particles crossing
into another rank's cell migrate every step (hpart::Migration, variable-size records).

  --mode static    partition once (step 0), never again
  --mode always    partition from scratch (hpart::partition) before every step
  --mode feedback  hpart::Rebalancer: observe() each step's measured compute time and per-cell
                   work, decide() whether a rebalance pays, rebalance() incrementally

Examples (under mpirun; as root add --allow-run-as-root --oversubscribe):
  mpirun -np 2 hpart-particles --mode feedback --json particles.jsonl
  mpirun -np 3 hpart-particles --check

Exit codes: 0 success, 1 bad command line or --check failed, 2 bad input or I/O error,
3 internal error.)";

}  // namespace

std::optional<int> parse_particles_options(int argc, char** argv, int rank, ParticlesOptions& o) {
  CLI::App app{"hpart-particles: a particle simulation whose dense region drifts, rebalanced with hpart."};
  app.footer(kFooter);
  app.add_option("--mode", o.mode, "static | always | feedback")
      ->check(CLI::IsMember({"static", "always", "feedback"}))
      ->capture_default_str();
  app.add_option("--n", o.n, "particles (default 60000; 2000 with --check)")->check(CLI::Range(1LL, 1LL << 31));
  app.add_option("--cells", o.cells, "cell-list cells per side; the cutoff is 1/cells (default 128; 32 with --check)")
      ->check(CLI::Range(3, 4096));
  app.add_option("--steps", o.steps, "time steps (default 400; 40 with --check)")->check(CLI::Range(1, 1 << 30));
  app.add_option("--work", o.work, "force evaluations per close pair (compute per step)")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  app.add_option("--kappa", o.kappa, "pull of the flow towards the blob centre, per step")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  app.add_option("--repulsion", o.repulsion, "acceleration of a touching pair, per step^2")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  app.add_option("--tolerance", o.tolerance, "feedback: imbalance the Rebalancer tolerates")
      ->check(CLI::Range(0.001, 10.0))
      ->capture_default_str();
  app.add_option("--horizon", o.horizon, "feedback: steps over which the Rebalancer predicts the loss")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  app.add_option("--clock", o.clock,
                 "clock of the measured compute times (the imbalance column and the Rebalancer's step times): cpu = "
                 "this process's CPU time, which ignores time spent waiting for a core on a shared or oversubscribed "
                 "machine; or wall")
      ->check(CLI::IsMember({"wall", "cpu"}))
      ->capture_default_str();
  app.add_flag("--scratch", o.scratch,
               "feedback: the Rebalancer decides when, but every rebalance is a fresh partition (parts relabelled to "
               "keep most cells in place) instead of an incremental one");
  app.add_option("--print-every", o.print_every, "print a line every k steps (and at every rebalance)")
      ->check(CLI::Range(1, 1 << 30))
      ->capture_default_str();
  app.add_option("--verbose", o.verbose, "feedback: the Rebalancer's log level (rank 0, stderr)")->check(CLI::Range(0, 3));
  app.add_option("-t,--threads", o.threads,
                 "OpenMP threads per rank in hpart's calls (the force loop is serial). Default: OMP_NUM_THREADS if "
                 "set, else the cores of this rank: its affinity mask, or the node's cores shared among the job's "
                 "ranks there")
      ->check(CLI::Range(1, 1024));
  app.add_option("--json", o.json, "write JSON Lines records (BENCH.md: suite app-particles) to this file");
  app.add_flag("--quiet", o.quiet, "print only the summary");
  app.add_flag("--check", o.check,
               "small defaults; verify every step that the particle count, the id set and the owner trails are "
               "conserved (exit 1 otherwise)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (rank != 0) return e.get_exit_code() == 0 ? 0 : 1;
    return app.exit(e) == 0 ? 0 : 1;
  }
  if (o.n == 0) o.n = o.check ? 2000 : 60000;
  if (o.cells == 0) o.cells = o.check ? 32 : 128;
  if (o.steps == 0) o.steps = o.check ? 40 : 400;
  return std::nullopt;
}

}  // namespace hpart_particles
