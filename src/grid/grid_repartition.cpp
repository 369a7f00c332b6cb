// repartition_grid: a blocks partition rebalanced by moving its cut planes (grid_bisection.cpp,
// reuse_blocks), with the migration it causes counted against the previous partition's boxes.
#include <mpi.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/agreement.hpp"
#include "core/log.hpp"
#include "metrics/partition_metrics.hpp"
#include "grid/grid_methods.hpp"

namespace hpart {
namespace {

// Why `previous` cannot be rebalanced by its planes on `grid` (empty: it can). The same on every
// rank when previous is the same object everywhere; the caller agrees on it anyway.
std::string check_previous(const Grid& grid, const GridPartition& previous, const GridRepartOptions& opts) {
  if (!(opts.tolerance >= 0.0 && opts.tolerance < 10.0))
    return "tolerance must be in [0, 10) (got " + std::to_string(opts.tolerance) + ")";
  if (dynamic_cast<const grid::TreeLocator*>(previous.locator.get()) == nullptr)
    return "the previous partition was not made by the blocks method (its parts are not the leaves of a cut "
           "tree): partition with GridMethod::blocks first";
  if (previous.boxes.size() != static_cast<std::size_t>(opts.parts))
    return "the previous partition has " + std::to_string(previous.boxes.size()) + " parts but parts = " +
           std::to_string(opts.parts);
  // Its boxes must tile this grid's domain (a partition of another grid would not).
  const Box domain = grid.domain();
  std::int64_t volume = 0;
  for (const Box& b : previous.boxes) {
    if (b.empty()) continue;
    if (b.dim != grid.dim || !(domain.intersect(b) == b))
      return "the previous partition's boxes do not lie in this grid (extent or dimension changed): partition afresh";
    volume += b.volume();
  }
  if (volume != domain.volume())
    return "the previous partition's boxes cover " + std::to_string(volume) + " cells, the grid has " +
           std::to_string(domain.volume()) + ": partition afresh";
  return {};
}

}  // namespace

GridRepartition repartition_grid(const Comm& comm, const Grid& grid, const GridPartition& previous,
                                 const GridRepartOptions& opts) {
  const detail::Stopwatch clock;
  GridOptions go;
  go.parts = opts.parts;
  go.method = GridMethod::blocks;
  const grid::GridInput in = grid::prepare_grid(comm, grid, go);
  const std::string problem = check_previous(grid, previous, opts);
  // Each rank walks its copy of the previous cut tree: copies that differ would walk apart.
  std::vector<std::int64_t> corners;
  corners.reserve(previous.boxes.size() * 2 * kMaxBoxDim);
  for (const Box& b : previous.boxes) {
    corners.insert(corners.end(), b.lo.begin(), b.lo.end());
    corners.insert(corners.end(), b.hi.begin(), b.hi.end());
  }
  detail::Replicated args;
  args.value("repartition_grid: tolerance", opts.tolerance).values("repartition_grid: the previous partition's boxes", corners);
  detail::agree(comm, args, problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument,
                problem.empty() ? std::string() : "repartition_grid: " + problem);

  GridRepartition out;
  const auto& tree = dynamic_cast<const grid::TreeLocator&>(*previous.locator);
  grid::ReusedBlocks reused = grid::reuse_blocks(comm, in, tree, opts.parts, opts.tolerance);
  grid::MethodResult r;
  if (reused.ok) {
    r = std::move(reused.result);
    out.planes = reused.planes;
    out.planes_moved = reused.planes_moved;
  } else {
    r = grid::bisection_blocks(comm, in, go);
    out.from_scratch = true;
  }

  // What moved: each local cell's previous part is the previous box that holds it.
  const std::size_t n = in.local.size();
  std::vector<part_t> before(n, 0);
  for (std::size_t p = 0; p < previous.boxes.size(); ++p)
    grid::for_each_row(in.local, in.local.box.intersect(previous.boxes[p]),
                       [&](std::size_t index, std::int64_t, std::int64_t, std::int64_t, std::int64_t count) {
                         std::fill_n(before.begin() + static_cast<std::ptrdiff_t>(index), count, static_cast<part_t>(p));
                       });
  double moved[2] = {0.0, 0.0};
  for (std::size_t i = 0; i < n; ++i)
    if (before[i] != r.parts[i]) moved[0] += in.unit_cost ? 1.0 : grid.cost[i], moved[1] += 1.0;
  MPI_Allreduce(MPI_IN_PLACE, moved, 2, MPI_DOUBLE, MPI_SUM, comm.get());
  out.migrated_weight = moved[0];
  out.migrated_cells = std::llround(moved[1]);

  const std::span<const double> cost = in.unit_cost ? std::span<const double>() : grid.cost;
  out.grid.partition = detail::summarise_partition(comm, std::move(r.parts), opts.parts, cost, 1, {});
  const double seconds = detail::seconds_max(comm, clock);
  out.grid.partition.metrics.seconds = seconds;
  out.grid.boxes = std::move(r.boxes);
  out.grid.box_shaped = true;
  out.grid.locator = std::move(r.locator);
  detail::log(comm, 1,
              "repartition_grid: " + std::to_string(out.planes_moved) + " of " + std::to_string(out.planes) +
                  " planes moved" + (out.from_scratch ? " (the tree no longer fitted: fresh blocks)" : "") + ", " +
                  std::to_string(out.migrated_cells) + " cells migrated, " + std::to_string(seconds) + " s");
  return out;
}

}  // namespace hpart
