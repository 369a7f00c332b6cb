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
#include "metrics/migration_volume.hpp"

namespace hpart {
namespace {

// Why `previous` cannot be rebalanced by its planes on `grid` (empty: it can). The same on every
// rank when previous is the same object everywhere; the caller agrees on it anyway.
std::string check_previous(const Grid& grid, const GridPartition& previous, const GridRepartOptions& opts) {
  if (!(opts.imbalance >= 0.0 && opts.imbalance < 10.0))
    return "imbalance must be in [0, 10) (got " + std::to_string(opts.imbalance) + ")";
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
  args.value("repartition_grid: imbalance", opts.imbalance).values("repartition_grid: the previous partition's boxes", corners);
  detail::agree(comm, args, problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument,
                problem.empty() ? std::string() : "repartition_grid: " + problem);

  GridRepartition out;
  const auto& tree = dynamic_cast<const grid::TreeLocator&>(*previous.locator);
  grid::ReusedBlocks reused = grid::reuse_blocks(comm, in, tree, opts.parts, opts.imbalance);
  grid::MethodResult r;
  const int planes = reused.planes;  // for the log line (a bisection tree of K parts has K - 1)
  if (reused.ok) {
    r = std::move(reused.result);
    out.steps = reused.planes_moved;
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
  out.migrated =
      detail::moved_everywhere(comm, before, r.parts, in.unit_cost ? std::span<const double>() : grid.cost, 1);

  const std::span<const double> cost = in.unit_cost ? std::span<const double>() : grid.cost;
  static_cast<Partition&>(out) = detail::summarise_partition(comm, std::move(r.parts), opts.parts, cost, 1, {});
  const double seconds = detail::seconds_max(comm, clock);
  out.metrics.seconds = seconds;
  out.boxes = std::move(r.boxes);
  out.box_shaped = true;
  out.locator = std::move(r.locator);
  detail::log(comm, 1,
              "repartition_grid: " + std::to_string(out.steps) + " of " + std::to_string(planes) +
                  " planes moved" + (out.from_scratch ? " (the tree no longer fitted: fresh blocks)" : "") + ", " +
                  std::to_string(out.migrated.objects) + " cells migrated, " + std::to_string(seconds) + " s");
  return out;
}

}  // namespace hpart
