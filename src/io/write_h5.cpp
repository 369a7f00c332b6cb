// Parallel HDF5 writers: an exscan of the local counts places each rank's rows (or its grid box)
// in the global datasets, which every rank writes with one collective hyperslab transfer. The
// per-part tables are the same on every rank, so rank 0 writes them and the others select
// nothing. The XDMF description follows once the HDF5 file is closed.
#include <mpi.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/validate.hpp"
#include "hpart/hdf5.hpp"
#include "io/h5_file.hpp"
#include "io/xdmf.hpp"

namespace hpart {
namespace {

using detail::H5Dataset;
using detail::H5File;

void agree_invalid(const Comm& comm, const std::string& message) {
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, message);
}

// Every rank must pass the same `value` (a shape parameter of a collective call).
void agree_uniform(const Comm& comm, long long value, const std::string& what) {
  long long lo = value, hi = value;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_LONG_LONG, MPI_MIN, comm.get());
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_LONG_LONG, MPI_MAX, comm.get());
  // Every rank sees the same lo and hi, so every rank throws the same error.
  if (lo != hi)
    throw Error(ErrorCode::invalid_argument,
                what + " differs across ranks (" + std::to_string(lo) + " to " + std::to_string(hi) + ")");
}

bool any_rank(const Comm& comm, bool mine) {
  int v = mine ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MAX, comm.get());
  return v != 0;
}

std::string check_path(const std::string& fn, const std::string& path) {
  if (path.empty()) return fn + ": empty file name";
  if (xdmf_path(path) == path) return fn + ": '" + path + "' would be overwritten by its own XDMF file; use .h5";
  return {};
}

// This rank's rows [begin, begin + count) of `total` rows in rank order.
struct RowBlock {
  hsize_t begin = 0, count = 0, total = 0;
};
RowBlock row_block(const Comm& comm, std::size_t n) {
  long long mine = static_cast<long long>(n), before = 0, total = 0;
  MPI_Exscan(&mine, &before, 1, MPI_LONG_LONG, MPI_SUM, comm.get());
  if (comm.rank() == 0) before = 0;  // Exscan leaves rank 0's result undefined
  MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, comm.get());
  return {static_cast<hsize_t>(before), static_cast<hsize_t>(mine), static_cast<hsize_t>(total)};
}

// A dataset the same on every rank (the per-part tables): rank 0 writes it, the others take
// part in the collective transfer with an empty block.
template <class T>
void write_replicated(const H5File& f, const std::string& name, hid_t file_type, const std::vector<hsize_t>& dims,
                      const std::vector<T>& values) {
  const H5Dataset ds = f.create(name, file_type, dims);
  std::vector<hsize_t> count = dims;
  if (f.comm().rank() != 0) std::fill(count.begin(), count.end(), 0);
  f.write(ds, std::vector<hsize_t>(dims.size(), 0), count, detail::native_type<T>(), values.data());
}

// Collective checks of a point set written by several ranks: valid locally, and the same dim,
// ncon and presence of weights and ids everywhere (a rank with no points has nothing to say).
struct PointLayout {
  int dim = 3, ncon = 1;
  bool weighted = false, ids = false;
};
PointLayout check_point_layout(const Comm& comm, const std::string& fn, const PointSet& points, bool with_ids) {
  std::string message = detail::check_points(points);
  if (!message.empty()) message = fn + ": " + message;
  agree_invalid(comm, message);
  agree_uniform(comm, points.dim, fn + ": points.dim");
  PointLayout layout{points.dim, points.ncon, any_rank(comm, !points.weights.empty()),
                     with_ids && any_rank(comm, !points.ids.empty())};
  if (layout.weighted) agree_uniform(comm, points.ncon, fn + ": points.ncon");
  const bool holds = points.size() > 0;
  if (holds && layout.weighted && points.weights.empty())
    message = fn + ": weights given on some ranks only; give them on every rank that holds points, or on none";
  else if (holds && layout.ids && points.ids.empty())
    message = fn + ": ids given on some ranks only; give them on every rank that holds points, or on none";
  agree_invalid(comm, message);
  return layout;
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

void write_ids(const H5File& f, const RowBlock& rows, std::span<const gid_t> ids) {
  const H5Dataset ds = f.create("/ids", H5T_STD_I64LE, {rows.total});
  f.write(ds, {rows.begin}, {rows.count}, H5T_NATIVE_INT64, ids.data());
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
  agree_invalid(comm, check_path("write_points_h5", path));
  const PointLayout layout = check_point_layout(comm, "write_points_h5", points, true);
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
  std::string message = check_path(fn, path);
  if (message.empty()) message = check_summary(fn, p);
  if (message.empty() && !ids.empty() && ids.size() != p.parts.size())
    message = fn + ": ids has " + std::to_string(ids.size()) + " values for " + std::to_string(p.parts.size()) +
              " local objects; give one id per object, or none";
  if (message.empty() && points != nullptr && points->size() != p.parts.size())
    message = fn + ": points has " + std::to_string(points->size()) + " points for " + std::to_string(p.parts.size()) +
              " local parts";
  agree_invalid(comm, message);
  const bool with_points = any_rank(comm, points != nullptr);
  agree_invalid(comm, with_points && points == nullptr ? fn + ": points given on some ranks only" : std::string());
  const bool with_ids = any_rank(comm, !ids.empty());
  agree_invalid(comm, with_ids && ids.empty() && !p.parts.empty()
                          ? fn + ": ids given on some ranks only; give them on every rank that holds objects, or on none"
                          : std::string());
  agree_uniform(comm, p.num_parts, fn + ": num_parts");
  PointLayout layout;
  if (with_points) layout = check_point_layout(comm, fn, *points, false);

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

void write_grid_partition_h5(const Comm& comm, const std::string& path, const Grid& grid, const GridPartition& p) {
  const std::string fn = "write_grid_partition_h5";
  std::string message = check_path(fn, path);
  if (message.empty()) message = check_summary(fn, p.partition);
  const Box& local = grid.local;
  const auto volume = static_cast<std::size_t>(local.empty() ? 0 : local.volume());
  if (message.empty() && grid.dim != 2 && grid.dim != 3)
    message = fn + ": grid.dim must be 2 or 3 (got " + std::to_string(grid.dim) + ")";
  if (message.empty() && !local.empty() && (local.dim != grid.dim || !grid.domain().contains(local.lo) ||
                                            !grid.domain().contains(local.hi)))
    message = fn + ": grid.local " + local.str() + " is not a box of the grid " + grid.domain().str();
  if (message.empty() && p.partition.parts.size() != volume)
    message = fn + ": the partition has " + std::to_string(p.partition.parts.size()) + " parts for the " +
              std::to_string(volume) + " cells of grid.local " + local.str();
  if (message.empty() && !grid.cost.empty() && grid.cost.size() != volume)
    message = fn + ": grid.cost has " + std::to_string(grid.cost.size()) + " values for " + std::to_string(volume) +
              " local cells";
  if (message.empty() && p.boxes.size() != static_cast<std::size_t>(p.partition.num_parts))
    message = fn + ": the partition has " + std::to_string(p.boxes.size()) + " boxes for " +
              std::to_string(p.partition.num_parts) + " parts";
  agree_invalid(comm, message);
  agree_uniform(comm, grid.dim, fn + ": grid.dim");
  for (int a = 0; a < grid.dim; ++a) agree_uniform(comm, grid.extent[static_cast<std::size_t>(a)], fn + ": grid.extent");
  const bool with_cost = any_rank(comm, !grid.cost.empty());

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
    f.write(parts, start, count, H5T_NATIVE_INT32, p.partition.parts.data());
    if (with_cost) {
      // A rank that passed no cost has unit costs (partition_grid's convention).
      const std::vector<double> ones(grid.cost.empty() ? volume : 0, 1.0);
      const H5Dataset cost = f.create("/cost", H5T_IEEE_F64LE, dims);
      f.write(cost, start, count, H5T_NATIVE_DOUBLE, grid.cost.empty() ? ones.data() : grid.cost.data());
    }
    std::vector<std::int64_t> boxes;
    boxes.reserve(p.boxes.size() * 2 * dim);
    for (const Box& b : p.boxes) {
      for (std::size_t a = 0; a < dim; ++a) boxes.push_back(b.lo[a]);
      for (std::size_t a = 0; a < dim; ++a) boxes.push_back(b.hi[a]);
    }
    write_replicated(f, "/boxes", H5T_STD_I64LE, {p.boxes.size(), 2 * dim}, boxes);
    write_summary(f, p.partition);
    f.attribute<std::int64_t>("extent", std::span<const std::int64_t>(grid.extent.data(), dim));
    f.attribute<std::int32_t>("box_shaped", p.box_shaped ? 1 : 0);
  }
  detail::XdmfGrid x{.h5_name = detail::file_name(path), .dim = grid.dim, .extent = {1, 1, 1}, .cost = with_cost};
  for (std::size_t a = 0; a < dim; ++a) x.extent[a] = grid.extent[a];
  detail::write_xdmf(comm, path, detail::xdmf_grid(x));
}

}  // namespace hpart
