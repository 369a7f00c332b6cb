// partition_grid: validation, method dispatch, and the metrics and boxes every method shares.
#include <mpi.h>

#include <limits>
#include <string>

#include "core/log.hpp"
#include "metrics/partition_metrics.hpp"
#include "grid/grid_methods.hpp"
#include "kernels/enum_names.hpp"

namespace hpart {
namespace grid {

// Bounding box of each part's cells (sfc parts are not boxes): one MIN-allreduce of lo and -hi.
std::vector<Box> part_bounding_boxes(const Comm& comm, const grid::GridInput& in, const std::vector<part_t>& parts,
                                     int K) {
  const int dim = in.grid->dim;
  const std::int64_t big = std::numeric_limits<std::int64_t>::max();
  std::vector<std::int64_t> v(static_cast<std::size_t>(K) * 6, big);
  grid::for_each_row(in.local, in.local.box, [&](std::size_t index, std::int64_t x0, std::int64_t y, std::int64_t z,
                                                 std::int64_t count) {
    for (std::int64_t k = 0; k < count;) {
      // A run of one part along the row: its x range, and y, z once.
      const part_t p = parts[index + static_cast<std::size_t>(k)];
      std::int64_t e = k;
      while (e < count && parts[index + static_cast<std::size_t>(e)] == p) ++e;
      std::int64_t* b = &v[static_cast<std::size_t>(p) * 6];
      const std::int64_t c[3] = {x0 + k, y, z}, last[3] = {x0 + e - 1, y, z};
      for (int d = 0; d < dim; ++d) {
        b[d] = std::min(b[d], c[d]);
        b[3 + d] = std::min(b[3 + d], -last[d]);
      }
      k = e;
    }
  });
  MPI_Allreduce(MPI_IN_PLACE, v.data(), static_cast<int>(v.size()), MPI_INT64_T, MPI_MIN, comm.get());
  std::vector<Box> boxes(static_cast<std::size_t>(K));
  for (int p = 0; p < K; ++p) {
    Box& b = boxes[static_cast<std::size_t>(p)];
    b.dim = dim;
    const std::int64_t* s = &v[static_cast<std::size_t>(p) * 6];
    for (int d = 0; d < dim; ++d) {
      const bool none = s[d] == big;
      b.lo[static_cast<std::size_t>(d)] = none ? 0 : s[d];
      b.hi[static_cast<std::size_t>(d)] = none ? -1 : -s[3 + d];
    }
  }
  return boxes;
}

}  // namespace grid

constexpr detail::EnumNames<GridMethod, 4> kGridMethods{{
    {GridMethod::sfc, "sfc"}, {GridMethod::blocks, "blocks"}, {GridMethod::tensor, "tensor"},
    {GridMethod::uniform, "uniform"}}};

const char* to_string(GridMethod m) { return detail::enum_name(kGridMethods, m); }

GridOptions GridOptions::preset(Preset p, int parts) {
  GridOptions o;
  o.parts = parts;
  if (p == Preset::fast) o.method = GridMethod::sfc, o.curve = Curve::morton, o.imbalance = 0.01;
  return o;  // standard and strong: blocks, cut at the best cell layer already
}

GridMethod grid_method_from_string(const char* name) {
  return detail::enum_from_name(kGridMethods, name, "grid method");
}

GridPartition partition_grid(const Comm& comm, const Grid& grid, const GridOptions& opts) {
  const detail::Stopwatch clock;
  const grid::GridInput in = grid::prepare_grid(comm, grid, opts);
  grid::MethodResult r;
  switch (opts.method) {
    case GridMethod::sfc: r = grid::sfc_cells(comm, in, opts); break;
    case GridMethod::blocks: r = grid::bisection_blocks(comm, in, opts); break;
    case GridMethod::tensor: r = grid::tensor_blocks(comm, in, opts, true); break;
    case GridMethod::uniform: r = grid::tensor_blocks(comm, in, opts, false); break;
  }
  if (!r.box_shaped) r.boxes = grid::part_bounding_boxes(comm, in, r.parts, opts.parts);

  GridPartition out;
  const std::span<const double> cost = in.unit_cost ? std::span<const double>() : grid.cost;
  static_cast<Partition&>(out) = detail::summarise_partition(comm, std::move(r.parts), opts.parts, cost, 1, opts.target_sizes);
  const double seconds = detail::seconds_max(comm, clock);
  out.metrics.seconds = seconds;
  // blocks/tensor cut at cell layers, uniform ignores the cost: only sfc promises its tolerance.
  if (opts.method == GridMethod::sfc) detail::record_tolerance(out, opts.imbalance);
  out.boxes = std::move(r.boxes);
  out.box_shaped = r.box_shaped;
  out.shape = r.shape;
  out.locator = std::move(r.locator);
  detail::log(comm, 1,
              std::string("partition_grid ") + to_string(opts.method) + ": " + std::to_string(in.global_cells) +
                  " cells, " + std::to_string(opts.parts) + " parts, " + std::to_string(seconds) + " s, imbalance " +
                  std::to_string(out.metrics.imbalance.empty() ? 0.0 : out.metrics.imbalance[0]));
  return out;
}

}  // namespace hpart
