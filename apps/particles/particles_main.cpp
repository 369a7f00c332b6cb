// hpart-particles: a particle simulation whose dense region drifts across the domain, balanced
// by one of three policies (--mode): partition once, partition every step, or let
// hpart::Rebalancer decide from measured step times and per-cell work. A demo of the point
// partitioner, the Rebalancer and variable-size migration in a real short-range force loop.
#include <mpi.h>

#include <cstdio>
#include <ctime>
#include <vector>

#include "app_clock.hpp"
#include "app_main.hpp"
#include "cell_ownership.hpp"
#include "conservation_check.hpp"
#include "force_kernel.hpp"
#include "ghost_exchange.hpp"
#include "hpart/hpart.hpp"
#include "hpart/rebalance.hpp"
#include "particle_migration.hpp"
#include "particles_options.hpp"
#include "particles_report.hpp"
#include "thread_default.hpp"

namespace hpart_particles {
namespace {

// Particles [n r / R, n (r + 1) / R) by id, where their initial positions fall, not yet in
// their cells' ranks (the first migration takes them there).
std::vector<Particle> initial_particles(const hpart::Comm& comm, const ParticlesProblem& p) {
  std::vector<Particle> ps;
  const long long r = comm.rank(), R = comm.size();
  for (long long id = p.n * r / R; id < p.n * (r + 1) / R; ++id) {
    Particle q;
    q.id = id;
    q.x = p.initial(id);
    q.trail_size = 1;
    q.trail[0] = comm.rank();
    ps.push_back(q);
  }
  return ps;
}

using hpart_apps::cpu_clock;
using hpart_apps::wall_clock;

class Simulation {
 public:
  Simulation(const hpart::Comm& comm, const ParticlesOptions& o, const ParticlesProblem& p)
      : comm_(comm), o_(o), p_(p), kernel_(p), rb_(comm, rebalance_options(comm, o)),
        clock_(o.clock == "cpu" ? cpu_clock : wall_clock) {}

  int run(ParticlesReport& report) {
    cells_ = slab_cells(comm_, p_);
    ps_ = initial_particles(comm_, p_);
    expected_hops_ += migrate_particles(comm_, p_, cells_, ps_, o_.check).particles;
    ghosts_ = GhostExchange(comm_, p_, cells_);
    cell_work_.assign(static_cast<std::size_t>(p_.cells) * static_cast<std::size_t>(p_.cells), 0.0);
    kernel_.run(ps_, ghosts_.run(comm_, ps_), acc_, cell_work_);  // the work of step 0's layout
    const Census start = take_census(comm_, p_, cells_, ps_);
    RunSummary run;
    run.steps = p_.steps;
    run.particles = start.count;
    run.checked = o_.check;

    MPI_Barrier(comm_.get());
    const double t_start = MPI_Wtime();
    for (int s = 0; s < p_.steps; ++s) {
      const double t0 = MPI_Wtime();
      StepSample sample;
      sample.step = s;
      bool repartition = s == 0 || o_.mode == "always";
      if (o_.mode == "feedback" && s > 0) {
        const double d0 = MPI_Wtime();
        const hpart::Decision d = rb_.decide();
        feedback_s_ += MPI_Wtime() - d0;
        repartition = d.rebalance;
        if (repartition) sample.decision = d.reason;
      }
      if (repartition) repartition_cells(s, sample);
      const double g0 = MPI_Wtime();
      const std::vector<double> ghosts = ghosts_.run(comm_, ps_);
      ghost_s_ += MPI_Wtime() - g0;
      ghost_count_ += static_cast<long long>(ghosts.size() / 2);
      const double c0 = clock_();
      std::fill(cell_work_.begin(), cell_work_.end(), 0.0);
      const auto tests = static_cast<double>(kernel_.run(ps_, ghosts, acc_, cell_work_));
      integrate(p_, s, acc_, ps_);
      const double compute_s = clock_() - c0;
      const MigrationCount crossed = migrate_particles(comm_, p_, cells_, ps_, o_.check);
      expected_hops_ += crossed.particles;
      sample.crossed = crossed.particles;
      run.bytes += crossed.bytes;
      if (o_.mode == "feedback") {
        const std::vector<double> costs = my_cell_work();
        const std::vector<hpart::part_t> parts(cells_.mine.size(), comm_.rank());
        const double f0 = MPI_Wtime();
        rb_.observe({.step_seconds = compute_s, .object_costs = costs, .parts = parts});
        feedback_s_ += MPI_Wtime() - f0;
      }
      reduce_step(comm_, MPI_Wtime() - t0, compute_s, tests, sample);
      run.compute_max += sample.compute_max;
      run.compute_mean += sample.compute_mean;
      run.work_imbalance_sum += sample.work_imbalance();
      run.crossed += sample.crossed;
      if (sample.rebalanced) {
        ++run.rebalances;
        run.rebalance_s += sample.rebalance_s;
        run.partition_s += sample.partition_s;
        run.rebalance_migrated += sample.rebalance_migrated;
        run.cells_moved += sample.cells_moved;
      }
      run.bytes += rebalance_bytes_;
      rebalance_bytes_ = 0;
      if (o_.check) run.check_ok = check(start, s) && run.check_ok;
      if (s % o_.print_every == 0 || sample.rebalanced || s == p_.steps - 1) report.step(sample);
    }
    run.wall_s = comm_.max(MPI_Wtime() - t_start);
    run.feedback_s = comm_.max(feedback_s_);
    run.ghost_s = comm_.max(ghost_s_);
    MPI_Allreduce(&ghost_count_, &run.ghosts, 1, MPI_LONG_LONG, MPI_SUM, comm_.get());
    report.summary(run);
    if (o_.check && comm_.rank() == 0)
      std::printf("check: particle count, id set, hops and owner trails after %d steps on %d ranks: %s\n", p_.steps,
                  comm_.size(), run.check_ok ? "ok" : "FAILED");
    return run.check_ok ? 0 : 1;
  }

 private:
  static hpart::RebalanceOptions rebalance_options(const hpart::Comm& comm, const ParticlesOptions& o) {
    hpart::RebalanceOptions r;
    r.parts = comm.size();
    r.imbalance = o.tolerance;
    r.horizon = o.horizon;
    r.verbose = o.verbose;
    r.incremental = !o.scratch;
    return r;
  }

  std::vector<double> my_cell_work() const {
    std::vector<double> w;
    w.reserve(cells_.mine.size());
    for (hpart::gid_t c : cells_.mine) w.push_back(cell_work_[static_cast<std::size_t>(c)] + 1.0);  // +1: an empty cell is not free
    return w;
  }

  // Partition the cells by their work in the last step, move them and their particles.
  void repartition_cells(int s, StepSample& sample) {
    const double t0 = MPI_Wtime();
    const std::vector<double> xy = cells_.centres(p_), w = my_cell_work();
    const hpart::PointSet pts{.coords = xy, .dim = 2, .weights = w, .ncon = 1, .ids = cells_.mine};
    hpart::Partition part;
    hpart::Curve curve = hpart::PointOptions{}.curve;
    if (o_.mode == "feedback") {
      curve = rb_.options().curve;
      part = s == 0 ? rb_.partition(pts) : rb_.rebalance(pts, std::vector<hpart::part_t>(cells_.mine.size(), comm_.rank()));
    } else {
      hpart::PointOptions opts;
      opts.parts = comm_.size();
      opts.imbalance = 0.01;
      part = hpart::partition_points(comm_, pts, opts);
    }
    const double t1 = MPI_Wtime();
    sample.cells_moved = reassign_cells(comm_, cells_, pts, part, curve);
    ghosts_ = GhostExchange(comm_, p_, cells_);
    const MigrationCount m = migrate_particles(comm_, p_, cells_, ps_, o_.check);
    const double t2 = MPI_Wtime();
    if (o_.mode == "feedback" && s > 0) rb_.record_migration_seconds(t2 - t1);
    expected_hops_ += m.particles;
    rebalance_bytes_ += m.bytes;
    sample.rebalanced = true;
    sample.rebalance_migrated = m.particles;
    sample.rebalance_s = comm_.max(t2 - t0);
    sample.partition_s = comm_.max(t1 - t0);
  }

  bool check(const Census& start, int s) const {
    const Census c = take_census(comm_, p_, cells_, ps_);
    const bool ok = c.count == start.count && c.id_sum == start.id_sum && c.id_hash == start.id_hash &&
                    c.hops == expected_hops_ && c.bad_trails == 0 && c.misplaced == 0;
    if (!ok && comm_.rank() == 0)
      std::fprintf(stderr,
                   "hpart-particles: check failed after step %d: %lld particles (expected %lld), id sums %s, hops %lld "
                   "(expected %lld), %lld bad trails, %lld misplaced\n",
                   s, c.count, start.count, c.id_sum == start.id_sum && c.id_hash == start.id_hash ? "equal" : "differ",
                   c.hops, expected_hops_, c.bad_trails, c.misplaced);
    return ok;
  }

  hpart::Comm comm_;
  ParticlesOptions o_;
  ParticlesProblem p_;
  ForceKernel kernel_;
  hpart::Rebalancer rb_;
  double (*clock_)();
  CellOwnership cells_;
  GhostExchange ghosts_;
  std::vector<Particle> ps_;
  std::vector<std::array<double, 2>> acc_;
  std::vector<double> cell_work_;
  long long expected_hops_ = 0;
  long long rebalance_bytes_ = 0;
  double feedback_s_ = 0;  // in observe() and decide()
  double ghost_s_ = 0;
  long long ghost_count_ = 0;
};

int run(const hpart::Comm& comm, const ParticlesOptions& o) {
  ParticlesProblem p;
  p.n = o.n;
  p.cells = o.cells;
  p.steps = o.steps;
  p.work = o.work;
  p.kappa = o.kappa;
  p.repulsion = o.repulsion;
  const hpart_apps::ThreadChoice threads = hpart_apps::choose_threads(comm, o.threads);
  ParticlesReport report(comm, o, p);
  report.header(threads.why);
  Simulation sim(comm, o, p);
  return sim.run(report);
}

}  // namespace
}  // namespace hpart_particles

int main(int argc, char** argv) {
  return hpart_apps::mpi_app_main<hpart_particles::ParticlesOptions>(argc, argv, "hpart-particles", hpart_particles::parse_particles_options,
                                                   [](const hpart::Comm& comm, const hpart_particles::ParticlesOptions& o) { return hpart_particles::run(comm, o); });
}
