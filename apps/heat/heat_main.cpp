// hpart-heat: explicit heat diffusion whose expensive region moves, repartitioned with
// hpart::partition_grid (one box per rank) every --rebalance-every steps. A demo of the grid
// API in a real stencil loop: the cost field, the box-to-box redistribution, the neighbour-list
// halo exchange, and measured against predicted imbalance.
#include <mpi.h>
#include <omp.h>

#include <cstdio>
#include <ctime>
#include <optional>
#include <vector>

#include "app_clock.hpp"
#include "app_main.hpp"
#include "halo_exchange.hpp"
#include "heat_field.hpp"
#include "heat_kernel.hpp"
#include "heat_options.hpp"
#include "heat_problem.hpp"
#include "heat_report.hpp"
#include "hpart/hpart.hpp"
#include "redistribute.hpp"
#include "serial_check.hpp"
#include "thread_default.hpp"

namespace hpart_heat {
namespace {

// The starting layout before the first partition: slabs of the last dimension (any layout
// would do; it makes step 0's partition a real redistribution).
std::vector<hpart::Box> slabs(const hpart::Box& domain, int ranks) {
  const auto last = static_cast<std::size_t>(domain.dim - 1);
  const std::int64_t n = domain.size(static_cast<int>(last));
  std::vector<hpart::Box> boxes(static_cast<std::size_t>(ranks), domain);
  for (int r = 0; r < ranks; ++r) {
    boxes[static_cast<std::size_t>(r)].lo[last] = n * r / ranks;
    boxes[static_cast<std::size_t>(r)].hi[last] = n * (r + 1) / ranks - 1;
  }
  return boxes;
}

// The cost of the cells of b during step s, row-major as hpart::Grid::cost wants it.
std::vector<double> cost_field(const HeatProblem& p, const hpart::Box& b, int s) {
  std::vector<double> cost;
  if (b.empty()) return cost;
  cost.reserve(static_cast<std::size_t>(b.volume()));
  const auto c = p.centre(s);
  for_each_cell(b, [&](std::int64_t x, std::int64_t y, std::int64_t z) {
    cost.push_back(static_cast<double>(p.cost({x, y, z, 0}, c)));
  });
  return cost;
}

using hpart_apps::cpu_clock;
using hpart_apps::wall_clock;

int run(const hpart::Comm& comm, const HeatOptions& o) {
  const hpart_apps::ThreadChoice threads = hpart_apps::choose_threads(comm, o.threads);
  double (*const update_clock)() = o.clock == "cpu" ? cpu_clock : wall_clock;
  HeatProblem p;
  p.dim = o.dim;
  p.n = o.n;
  p.hot = o.hot;
  p.work = o.work;
  p.radius = o.radius;
  p.steps = o.steps;
  HeatReport report(comm, o, p);
  report.header(threads.why);

  const auto me = static_cast<std::size_t>(comm.rank());
  std::vector<hpart::Box> boxes = slabs(p.domain(), comm.size());
  HeatField field(boxes[me], 1);
  field.set_initial(p);
  HaloExchange halo;
  hpart::GridOptions go;
  go.parts = comm.size();  // one box per rank: part r lives on rank r
  go.method = hpart::grid_method_from_string(o.method.c_str());

  RunSummary run;
  run.steps = o.steps;
  std::optional<hpart::GridPartition> last;  // the current partition
  MPI_Barrier(comm.get());
  const double start = MPI_Wtime();
  for (int s = 0; s < o.steps; ++s) {
    const bool rebalance = s == 0 || (o.rebalance_every > 0 && s % o.rebalance_every == 0);
    double rebalance_s = 0.0;
    long long migrated = 0;
    if (rebalance) {
      // Partition the cells by the cost they will have in this step. The Grid's local box is
      // this rank's current box, so the library sees the field where it lives.
      const double t0 = MPI_Wtime();
      const std::vector<double> cost = cost_field(p, field.owned(), s);
      hpart::Grid g;
      g.dim = p.dim;
      g.extent = {p.n, p.n, p.dim == 3 ? p.n : 1};
      g.local = field.owned();
      g.cost = cost;
      // With --planes, later rebalances keep the cut tree and move its planes.
      if (o.planes && last) last = hpart::repartition_grid(comm, g, *last, {.parts = go.parts});
      else last = hpart::partition_grid(comm, g, go);
      const hpart::GridPartition& part = *last;
      const hpart::GridNeighbours nb = hpart::grid_neighbours(comm, g, part, 1);
      Redistribution moved = redistribute(comm, field, boxes, part.boxes);
      field = std::move(moved.field);
      boxes = part.boxes;
      halo = HaloExchange(comm, boxes, nb);
      migrated = moved.migrated;
      rebalance_s = comm.max(MPI_Wtime() - t0);
      ++run.rebalances;
      run.rebalance_s += rebalance_s;
      run.migrated += migrated;
    }
    const double t0 = MPI_Wtime();
    halo.run(field);
    const double c1 = update_clock();
    const std::int64_t my_cost = advance(p, s, field);
    const double t2 = MPI_Wtime(), update_s = update_clock() - c1;
    field.swap();

    StepSample sample = reduce_step(comm, s, t2 - t0, update_s, static_cast<double>(my_cost));
    sample.rebalanced = rebalance;
    sample.rebalance_s = rebalance_s;
    sample.migrated = migrated;
    run.step_imbalance_sum += sample.imbalance();  // meaningful on rank 0, which reports
    run.predicted_sum += sample.predicted();
    run.compute_max += sample.compute_max;
    run.compute_mean += sample.compute_mean;
    if (s % o.print_every == 0 || rebalance || s == o.steps - 1) report.step(sample);
  }
  run.wall_s = comm.max(MPI_Wtime() - start);

  int status = 0;
  if (o.check) {
    const double error = check_against_serial(comm, p, field);
    run.check_error = error;
    status = error > 1e-12 ? 1 : 0;
    if (comm.rank() == 0)
      std::printf("check: max |distributed - serial| = %.3g after %d steps on %d ranks: %s\n", error, o.steps,
                  comm.size(), status ? "FAILED (> 1e-12)" : "ok");
  }
  report.summary(run);
  return status;
}

}  // namespace
}  // namespace hpart_heat

int main(int argc, char** argv) {
  return hpart_apps::mpi_app_main<hpart_heat::HeatOptions>(argc, argv, "hpart-heat", hpart_heat::parse_heat_options,
                                                   [](const hpart::Comm& comm, const hpart_heat::HeatOptions& o) { return hpart_heat::run(comm, o); });
}
