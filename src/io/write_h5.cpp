// Parallel HDF5 writers: an exscan of the local counts places each rank's rows (or its grid box)
// in the global datasets, which every rank writes with one collective hyperslab transfer. The
// per-part tables are the same on every rank, so rank 0 writes them and the others select
// nothing. The XDMF description follows once the HDF5 file is closed.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "core/agreement.hpp"
#include "core/validate.hpp"
#include "grid/grid_input.hpp"
#include "hpart/hdf5.hpp"
#include "io/grid_levels_h5.hpp"
#include "io/h5_file.hpp"
#include "io/xdmf.hpp"

namespace hpart {
namespace {

using detail::H5Dataset;
using detail::H5File;
using detail::write_replicated;

std::string check_path(const std::string& fn, const std::string& path) {
  if (path.empty()) return fn + ": empty file name";
  if (xdmf_path(path) == path) return fn + ": '" + path + "' would be overwritten by its own XDMF file; use .h5";
  return {};
}

// Whether any rank passes each of `flags` (presence that only the ranks holding objects can tell:
// a rank without points has no weights to show), in one reduction.
template <std::size_t N>
std::array<bool, N> any_rank(const Comm& comm, const std::array<bool, N>& flags) {
  std::array<int, N> v{};
  for (std::size_t i = 0; i < N; ++i) v[i] = flags[i] ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, v.data(), static_cast<int>(N), MPI_INT, MPI_MAX, comm.get());
  std::array<bool, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = v[i] != 0;
  return out;
}

// This rank's rows [begin, begin + count) of `total` rows in rank order.
struct RowBlock {
  hsize_t begin = 0, count = 0, total = 0;
};
RowBlock row_block(const Comm& comm, std::size_t n) {
  const long long mine = static_cast<long long>(n), before = comm.exscan_sum(mine), total = comm.sum(mine);
  return {static_cast<hsize_t>(before), static_cast<hsize_t>(mine), static_cast<hsize_t>(total)};
}

// What the ranks write about their points: dim and ncon (agreed) and whether weights and ids are
// written (when any rank holds them: the ranks that hold points all do, or the agreement failed).
struct PointLayout {
  int dim = 3, ncon = 1;
  bool weighted = false, ids = false;
};

// The local checks of a point set, prefixed by the writer's name.
std::string check_points_of(const std::string& fn, const PointSet& points) {
  std::string message = detail::check_points(points);
  return message.empty() ? message : fn + ": " + message;
}

// /points, /weights and (optionally) /ids of the ranks' points.
void write_point_datasets(const H5File& f, const RowBlock& rows, const PointSet& points, const PointLayout& layout) {
  const auto d = static_cast<hsize_t>(layout.dim), c = static_cast<hsize_t>(layout.ncon);
  const H5Dataset coords = f.create("/points", H5T_IEEE_F64LE, {rows.total, d});
  f.write(coords, {rows.begin, 0}, {rows.count, d}, H5T_NATIVE_DOUBLE, points.coords.data());
  if (layout.weighted) {
    // One weight per point is a plain list (what most tools expect); ncon > 1 a table.
    const std::vector<hsize_t> dims = c == 1 ? std::vector<hsize_t>{rows.total} : std::vector<hsize_t>{rows.total, c};
    const std::vector<hsize_t> start = c == 1 ? std::vector<hsize_t>{rows.begin} : std::vector<hsize_t>{rows.begin, 0};
    const std::vector<hsize_t> count = c == 1 ? std::vector<hsize_t>{rows.count} : std::vector<hsize_t>{rows.count, c};
    const H5Dataset weights = f.create("/weights", H5T_IEEE_F64LE, dims);
    f.write(weights, start, count, H5T_NATIVE_DOUBLE, points.weights.data());
  }
}

void write_ids(const H5File& f, const RowBlock& rows, IntSpan ids) {
  const H5Dataset ds = f.create("/ids", H5T_STD_I64LE, {rows.total});  // HDF5 converts 32-bit ids
  if (ids.is32()) f.write(ds, {rows.begin}, {rows.count}, H5T_NATIVE_INT32, ids.as32().data());
  else f.write(ds, {rows.begin}, {rows.count}, H5T_NATIVE_INT64, ids.as64().data());
}

std::string check_summary(const std::string& fn, const Partition& p) {
  if (p.num_parts < 1 || p.ncon < 1) return fn + ": the partition has num_parts " + std::to_string(p.num_parts) +
                                             " and ncon " + std::to_string(p.ncon) + "; both must be >= 1";
  const auto k = static_cast<std::size_t>(p.num_parts);
  if (p.part_weights.size() != k * static_cast<std::size_t>(p.ncon) || p.part_sizes.size() != k)
    return fn + ": the partition's part_weights (" + std::to_string(p.part_weights.size()) + ") or part_sizes (" +
           std::to_string(p.part_sizes.size()) + ") do not match num_parts " + std::to_string(p.num_parts) +
           " x ncon " + std::to_string(p.ncon) + " (use the Partition hpart returned)";
  return {};
}

// /part_weights, /part_sizes and the attributes on / that summarise a partition.
void write_summary(const H5File& f, const Partition& p) {
  const auto k = static_cast<hsize_t>(p.num_parts);
  write_replicated(f, "/part_weights", H5T_IEEE_F64LE, {k, static_cast<hsize_t>(p.ncon)}, p.part_weights);
  const std::vector<std::int64_t> sizes(p.part_sizes.begin(), p.part_sizes.end());
  write_replicated(f, "/part_sizes", H5T_STD_I64LE, {k}, sizes);
  f.attribute<std::int32_t>("num_parts", p.num_parts);
  f.attribute<std::int32_t>("ncon", p.ncon);
  f.attribute<std::int64_t>("objects", p.metrics.objects);
  f.attribute<std::int64_t>("empty_parts", p.metrics.empty_parts);
  if (!p.metrics.imbalance.empty()) f.attribute<double>("imbalance", std::span<const double>(p.metrics.imbalance));
}

}  // namespace

void write_points_h5(const Comm& comm, const std::string& path, const PointSet& points) {
  const std::string fn = "write_points_h5";
  std::string message = check_path(fn, path);
  if (message.empty()) message = check_points_of(fn, points);
  detail::Replicated args;
  args.text("file path", path);
  detail::replicate_point_shape(args, points);
  detail::agree(comm, args, message.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, message);
  const auto [weighted, with_ids] = any_rank<2>(comm, {!points.weights.empty(), !points.ids.empty()});
  const PointLayout layout{points.dim, points.ncon, weighted, with_ids};
  const RowBlock rows = row_block(comm, points.size());
  {
    const H5File f(comm, path, H5File::Mode::create);
    write_point_datasets(f, rows, points, layout);
    if (layout.ids) write_ids(f, rows, points.ids);
  }
  detail::write_xdmf(comm, path,
                     detail::xdmf_points({.h5_name = detail::file_name(path), .n = static_cast<std::int64_t>(rows.total),
                                          .dim = layout.dim, .ncon = layout.ncon, .weighted = layout.weighted,
                                          .parts = false, .ids = layout.ids}));
}

void write_partition_h5(const Comm& comm, const std::string& path, const Partition& p, std::span<const gid_t> ids,
                        const PointSet* points) {
  const std::string fn = "write_partition_h5";
  // Whether points are given is needed to know which arguments to compare: every rank passes
  // them or none does, checked with the local verdicts below.
  const auto [any_points, points_missing, weighted, with_ids] =
      any_rank<4>(comm, {points != nullptr, points == nullptr, points != nullptr && !points->weights.empty(), !ids.empty()});
  const bool with_points = any_points && !points_missing;
  std::string message = check_path(fn, path);
  if (message.empty()) message = check_summary(fn, p);
  if (message.empty() && !ids.empty() && ids.size() != p.parts.size())
    message = fn + ": ids has " + std::to_string(ids.size()) + " values for " + std::to_string(p.parts.size()) +
              " local objects; give one id per object, or none";
  if (message.empty() && any_points && points == nullptr)
    message = fn + ": points given on some ranks only: pass them on every rank (an empty PointSet where a rank "
                   "holds no objects), or on none";
  if (message.empty() && points != nullptr && points->size() != p.parts.size())
    message = fn + ": points has " + std::to_string(points->size()) + " points for " + std::to_string(p.parts.size()) +
              " local parts";
  if (message.empty() && points != nullptr) message = check_points_of(fn, *points);
  detail::Replicated args;
  args.text("file path", path)
      .value("num_parts", static_cast<long long>(p.num_parts))
      .value("partition ncon", static_cast<long long>(p.ncon))
      .given("ids", !ids.empty(), p.parts.empty());
  if (with_points) detail::replicate_point_shape(args, *points);
  detail::agree(comm, args, message.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, message);
  PointLayout layout;
  if (with_points) layout = {points->dim, points->ncon, weighted, false};

  const RowBlock rows = row_block(comm, p.parts.size());
  {
    const H5File f(comm, path, H5File::Mode::create);
    const H5Dataset parts = f.create("/parts", H5T_STD_I32LE, {rows.total});
    f.write(parts, {rows.begin}, {rows.count}, H5T_NATIVE_INT32, p.parts.data());
    write_summary(f, p);
    if (with_ids) write_ids(f, rows, ids);
    if (with_points) write_point_datasets(f, rows, *points, layout);
  }
  if (with_points)
    detail::write_xdmf(comm, path,
                       detail::xdmf_points({.h5_name = detail::file_name(path), .n = static_cast<std::int64_t>(rows.total),
                                            .dim = layout.dim, .ncon = layout.ncon, .weighted = layout.weighted,
                                            .parts = true, .ids = with_ids}));
}

namespace {

// The local checks of write_grid_partition_h5's arguments (empty: fine).
std::string check_grid_file(const std::string& fn, const std::string& path, const Grid& grid, const GridPartition& p,
                            const HierGridPartition* levels) {
  std::string message = check_path(fn, path);
  if (message.empty()) message = check_summary(fn, p);
  const Box& local = grid.local;
  const auto volume = static_cast<std::size_t>(local.empty() ? 0 : local.volume());
  if (message.empty()) {
    message = grid::check_grid_shape(grid.dim, grid.extent);
    if (!message.empty()) message = fn + ": " + message;
  }
  if (message.empty() && !local.empty() && (local.dim != grid.dim || !grid.domain().contains(local.lo) ||
                                            !grid.domain().contains(local.hi)))
    message = fn + ": grid.local " + local.str() + " is not a box of the grid " + grid.domain().str();
  if (message.empty() && p.parts.size() != volume)
    message = fn + ": the partition has " + std::to_string(p.parts.size()) + " parts for the " +
              std::to_string(volume) + " cells of grid.local " + local.str();
  if (message.empty() && !grid.cost.empty() && grid.cost.size() != volume)
    message = fn + ": grid.cost has " + std::to_string(grid.cost.size()) + " values for " + std::to_string(volume) +
              " local cells";
  if (message.empty() && p.boxes.size() != static_cast<std::size_t>(p.num_parts))
    message = fn + ": the partition has " + std::to_string(p.boxes.size()) + " boxes for " +
              std::to_string(p.num_parts) + " parts";
  if (message.empty() && levels != nullptr) {
    message = detail::check_grid_levels(*levels);
    if (!message.empty()) message = fn + ": " + message;
  }
  return message;
}

// Both overloads: the cells' parts and costs, the boxes, the summary, the locator (so any
// method's partition reads back exactly), and a hierarchy's levels when `levels` is given.
void write_grid_file(const Comm& comm, const std::string& path, const Grid& grid, const GridPartition& p,
                     const HierGridPartition* levels) {
  const std::string fn = "write_grid_partition_h5";
  const std::string message = check_grid_file(fn, path, grid, p, levels);
  const Box& local = grid.local;
  const auto volume = static_cast<std::size_t>(local.empty() ? 0 : local.volume());
  detail::Replicated args;
  args.text("file path", path).value("num_parts", static_cast<long long>(p.num_parts));
  grid::replicate_grid(args, grid);  // dim, extent, and cost given on every rank holding cells or on none
  detail::agree(comm, args, message.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, message);
  const bool with_cost = any_rank<1>(comm, {!grid.cost.empty()})[0];

  // HDF5 order: slowest first (z y x); this rank's box in that order.
  const auto dim = static_cast<std::size_t>(grid.dim);
  std::vector<hsize_t> dims(dim), start(dim), count(dim);
  for (std::size_t i = 0; i < dim; ++i) {
    const std::size_t a = dim - 1 - i;
    dims[i] = static_cast<hsize_t>(grid.extent[a]);
    start[i] = volume == 0 ? 0 : static_cast<hsize_t>(local.lo[a]);
    count[i] = volume == 0 ? 0 : static_cast<hsize_t>(local.size(static_cast<int>(a)));
  }
  {
    const H5File f(comm, path, H5File::Mode::create);
    const H5Dataset parts = f.create("/parts", H5T_STD_I32LE, dims);
    f.write(parts, start, count, H5T_NATIVE_INT32, p.parts.data());
    if (with_cost) {
      // Only ranks without cells may pass no cost (agreed above): they write nothing.
      const H5Dataset cost = f.create("/cost", H5T_IEEE_F64LE, dims);
      f.write(cost, start, count, H5T_NATIVE_DOUBLE, grid.cost.data());
    }
    std::vector<std::int64_t> boxes;
    boxes.reserve(p.boxes.size() * 2 * dim);
    for (const Box& b : p.boxes) {
      for (std::size_t a = 0; a < dim; ++a) boxes.push_back(b.lo[a]);
      for (std::size_t a = 0; a < dim; ++a) boxes.push_back(b.hi[a]);
    }
    write_replicated(f, "/boxes", H5T_STD_I64LE, {p.boxes.size(), 2 * dim}, boxes);
    write_summary(f, p);
    f.attribute<std::int64_t>("extent", std::span<const std::int64_t>(grid.extent.data(), dim));
    f.attribute<std::int32_t>("box_shaped", p.box_shaped ? 1 : 0);
    detail::write_grid_locator_h5(f, p);
    if (levels != nullptr) detail::write_grid_levels_h5(f, grid.dim, *levels);
  }
  detail::XdmfGrid x{.h5_name = detail::file_name(path), .dim = grid.dim, .extent = {1, 1, 1}, .cost = with_cost};
  for (std::size_t a = 0; a < dim; ++a) x.extent[a] = grid.extent[a];
  detail::write_xdmf(comm, path, detail::xdmf_grid(x));
}

}  // namespace

void write_grid_partition_h5(const Comm& comm, const std::string& path, const Grid& grid, const GridPartition& p) {
  write_grid_file(comm, path, grid, p, nullptr);
}

void write_grid_partition_h5(const Comm& comm, const std::string& path, const Grid& grid, const HierGridPartition& p) {
  write_grid_file(comm, path, grid, p, &p);
}

}  // namespace hpart
