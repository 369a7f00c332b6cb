// Parallel HDF5 readers: rank r reads only its block of rows (points, parts) or its slab of the
// slowest dimension (cost fields) with one collective hyperslab read per dataset. Shapes are
// checked on every rank from the same metadata; value checks are local and agreed, and since the
// blocks follow rank order, the lowest failing rank names the first bad row of the file.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/memory_budget.hpp"
#include "grid/grid_input.hpp"
#include "hpart/hdf5.hpp"
#include "io/h5_file.hpp"

namespace hpart {
namespace {

using detail::H5Dataset;
using detail::H5File;

// Row numbers, ids and offsets are signed 64-bit: a file may declare at most 2^62 rows.
constexpr hsize_t kMaxRows = hsize_t{1} << 62;

std::string number(double v) {
  std::string s = std::to_string(v);
  if (std::isnan(v)) s = "nan";
  if (std::isinf(v)) s = v > 0 ? "inf" : "-inf";
  return s;
}

// Shape errors are the same on every rank (all read the same metadata), so agreeing on them
// costs no extra round trip of information; it keeps the one-throw-everywhere rule explicit.
void require(const H5File& f, bool ok, ErrorCode code, const std::string& message) {
  f.comm().agree(ok ? ErrorCode::ok : code, ok ? std::string() : message);
}

void require_numeric(const H5File& f, const H5Dataset& ds, bool integer_only = false) {
  const bool ok = integer_only ? ds.type_class == H5T_INTEGER : ds.numeric();
  const char* held = !ds.numeric() ? "non-numeric values" : "non-integer values (floating-point numbers)";
  require(f, ok, ErrorCode::io, f.where(ds.name) + ": holds " + held + "; expected " +
                                    (integer_only ? "integers" : "numbers"));
}

void require_rows(const H5File& f, const H5Dataset& ds) {
  require(f, ds.dims.empty() || ds.dims[0] <= kMaxRows, ErrorCode::io,
          f.where(ds.name) + ": shape " + ds.shape() + ": more than 2^62 rows");
}

// What this rank will hold, checked against its memory before anything is allocated (the
// declared shape of a file can be anything: a chunked dataset of 2^40 rows takes a few bytes).
void require_memory(const H5File& f, double bytes, const std::string& what) {
  const std::string message = detail::check_memory(
      bytes, "reading " + what + " of '" + f.path() + "'",
      "each rank holds 1/R of the rows (of the slowest dimension for a grid): use more ranks, or ranks on more nodes");
  f.comm().agree(message.empty() ? ErrorCode::ok : ErrorCode::invalid_input, message);
}

struct Rows {
  hsize_t begin = 0, count = 0;
};

Rows my_rows(const H5File& f, hsize_t n) {
  const hsize_t b = detail::block_begin(n, f.comm().rank(), f.comm().size());
  const hsize_t e = detail::block_begin(n, f.comm().rank() + 1, f.comm().size());
  return {b, e - b};
}

// Column 0 of a 1-D (n) or 2-D (n x c) dataset, rows `rows`.
std::vector<double> first_column(const H5File& f, const H5Dataset& ds, Rows rows) {
  std::vector<double> v(rows.count);
  std::vector<hsize_t> start{rows.begin}, count{rows.count};
  if (ds.rank() == 2) start.push_back(0), count.push_back(1);
  f.read(ds, start, count, H5T_NATIVE_DOUBLE, v.data());
  return v;
}

// Whether every value of an integer dataset fits a part_t, so HDF5 may convert it directly.
bool fits_part_t(const H5Dataset& ds) { return ds.is_signed ? ds.type_size <= 4 : ds.type_size <= 2; }

}  // namespace

PointFile read_points_h5(const Comm& comm, const std::string& path) {
  const H5File f(comm, path, H5File::Mode::read);
  // Every shape first, from the metadata (the same on every rank), then the memory, then data.
  const H5Dataset points = *f.open("/points", true);
  require_numeric(f, points);
  require(f, points.rank() == 2 && (points.dims[1] == 2 || points.dims[1] == 3), ErrorCode::io,
          f.where("/points") + ": shape " + points.shape() + "; expected N x 2 or N x 3 (one point per row)");
  const hsize_t n = points.dims[0];
  require(f, n > 0, ErrorCode::io, f.where("/points") + ": no points (0 rows)");
  require_rows(f, points);
  const auto weights = f.open("/weights", false);
  if (weights) {
    require_numeric(f, *weights);
    const bool shape_ok = (weights->rank() == 1 || (weights->rank() == 2 && weights->dims[1] >= 1)) && weights->dims[0] == n;
    require(f, shape_ok, ErrorCode::size_mismatch,
            f.where("/weights") + ": shape " + weights->shape() + "; expected " + std::to_string(n) + " or " +
                std::to_string(n) + " x ncon (one row per point of /points)");
  }
  const auto ids = f.open("/ids", false);
  if (ids) {
    require_numeric(f, *ids, true);
    require(f, ids->rank() == 1 && ids->dims[0] == n, ErrorCode::size_mismatch,
            f.where("/ids") + ": shape " + ids->shape() + "; expected " + std::to_string(n) + " (one id per point)");
  }

  PointFile out;
  out.dim = static_cast<int>(points.dims[1]);
  out.global_count = static_cast<gid_t>(n);
  out.columns = out.dim + (weights ? 1 : 0);
  out.columns_declared = true;  // the datasets' shapes name them
  const Rows rows = my_rows(f, n);
  const auto d = static_cast<std::size_t>(out.dim);
  // Coordinates, ids and (when given) one weight per row.
  require_memory(f, static_cast<double>(rows.count) * static_cast<double>(8 * d + 8 + (weights ? 8 : 0)),
                 std::to_string(n) + " points");
  out.coords.resize(rows.count * d);
  f.read(points, {rows.begin, 0}, {rows.count, points.dims[1]}, H5T_NATIVE_DOUBLE, out.coords.data());
  std::string message;
  for (std::size_t i = 0; i < out.coords.size() && message.empty(); ++i)
    if (!std::isfinite(out.coords[i]))
      message = f.where("/points") + " row " + std::to_string(rows.begin + i / d) + ": coordinate " +
                std::to_string(i % d) + " is " + number(out.coords[i]) + "; coordinates must be finite";
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::invalid_input, message);

  if (weights) {
    out.weighted = true;
    out.weights = first_column(f, *weights, rows);
    for (std::size_t i = 0; i < out.weights.size() && message.empty(); ++i)
      if (!std::isfinite(out.weights[i]) || out.weights[i] < 0.0)
        message = f.where("/weights") + " row " + std::to_string(rows.begin + i) + ": weight " + number(out.weights[i]) +
                  "; weights must be finite and >= 0";
    comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::invalid_input, message);
  }

  out.ids.resize(rows.count);
  if (ids) {
    // Read exactly (uint64 data as uint64), so that no id is clamped: a value that does not fit
    // a gid_t shows as negative here and is named as stored.
    f.read(*ids, {rows.begin}, {rows.count}, ids->exact_integer_type(), out.ids.data());
    for (std::size_t i = 0; i < out.ids.size() && message.empty(); ++i)
      if (out.ids[i] < 0)
        message = f.where("/ids") + " row " + std::to_string(rows.begin + i) + ": id " +
                  ids->exact_integer_text(out.ids[i]) + "; ids must be in [0, 2^63 - 1]";
    comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::invalid_input, message);
  } else {
    for (std::size_t i = 0; i < out.ids.size(); ++i) out.ids[i] = static_cast<gid_t>(rows.begin + i);
  }
  return out;
}

std::vector<part_t> read_parts_h5(const Comm& comm, const std::string& path, const std::string& dataset) {
  const H5File f(comm, path, H5File::Mode::read);
  const H5Dataset parts = *f.open(dataset, true);
  require_numeric(f, parts, true);
  require(f, parts.rank() == 1, ErrorCode::io,
          f.where(dataset) + ": shape " + parts.shape() + "; expected a 1-D list of part ids");
  require_rows(f, parts);
  const Rows rows = my_rows(f, parts.dims[0]);
  // Integers that may not fit a part_t are read whole (64-bit) and checked, never clamped.
  const bool direct = fits_part_t(parts);
  require_memory(f, static_cast<double>(rows.count) * (direct ? 4.0 : 12.0), std::to_string(parts.dims[0]) + " part ids");
  std::vector<part_t> out(rows.count);
  if (direct) {
    f.read(parts, {rows.begin}, {rows.count}, H5T_NATIVE_INT32, out.data());
    return out;
  }
  std::vector<std::int64_t> wide(rows.count);
  f.read(parts, {rows.begin}, {rows.count}, parts.exact_integer_type(), wide.data());
  const bool unsigned64 = parts.exact_integer_type() == H5T_NATIVE_UINT64;
  std::string message;
  for (std::size_t i = 0; i < wide.size(); ++i) {
    const std::int64_t v = wide[i];
    if ((unsigned64 && v < 0) || v < std::numeric_limits<part_t>::min() || v > std::numeric_limits<part_t>::max()) {
      message = f.where(dataset) + " row " + std::to_string(rows.begin + i) + ": part id " + parts.exact_integer_text(v) +
                " does not fit a 32-bit part id";
      break;
    }
    out[i] = static_cast<part_t>(v);
  }
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::invalid_input, message);
  return out;
}

GridField read_grid_cost_h5(const Comm& comm, const std::string& path, const std::string& dataset) {
  const H5File f(comm, path, H5File::Mode::read);
  const H5Dataset ds = *f.open(dataset, true);
  require_numeric(f, ds);
  require(f, ds.rank() == 2 || ds.rank() == 3, ErrorCode::io,
          f.where(dataset) + ": shape " + ds.shape() + " (" + std::to_string(ds.rank()) +
              "-D); expected a 2-D (ny x nx) or 3-D (nz x ny x nx) cost field");
  const bool no_cells = std::find(ds.dims.begin(), ds.dims.end(), hsize_t{0}) != ds.dims.end();
  require(f, !no_cells, ErrorCode::io, f.where(dataset) + ": shape " + ds.shape() + " holds no cells");

  GridField out;
  Grid& g = out.grid;
  g.dim = ds.rank();
  // Extents beyond int64 are clamped only to be refused below, with the shape as stored.
  for (int d = 0; d < g.dim; ++d)
    g.extent[static_cast<std::size_t>(d)] = static_cast<std::int64_t>(
        std::min<hsize_t>(ds.dims[static_cast<std::size_t>(g.dim - 1 - d)], std::numeric_limits<std::int64_t>::max()));
  const std::string shape_problem = grid::check_grid_shape(g.dim, g.extent);
  require(f, shape_problem.empty(), ErrorCode::io, f.where(dataset) + ": shape " + ds.shape() + ": " + shape_problem);
  // This rank's slab of the slowest dimension (y in 2D, z in 3D); an empty slab is an empty box.
  const int slow = g.dim - 1;
  const Rows slab = my_rows(f, ds.dims[0]);
  g.local = g.domain();
  g.local.lo[static_cast<std::size_t>(slow)] = static_cast<std::int64_t>(slab.begin);
  g.local.hi[static_cast<std::size_t>(slow)] = static_cast<std::int64_t>(slab.begin + slab.count) - 1;
  require_memory(f, 8.0 * static_cast<double>(g.local.volume()), "a cost field of " + ds.shape() + " cells");

  std::vector<hsize_t> start(ds.dims.size(), 0), count = ds.dims;
  start[0] = slab.begin;
  count[0] = slab.count;
  out.cost.resize(static_cast<std::size_t>(g.local.volume()));
  f.read(ds, start, count, H5T_NATIVE_DOUBLE, out.cost.data());

  std::string message;
  for (std::size_t i = 0; i < out.cost.size(); ++i) {
    const double c = out.cost[i];
    if (std::isfinite(c) && c >= 0.0) continue;
    const auto k = static_cast<std::int64_t>(i);
    const std::int64_t nx = g.extent[0], ny = g.extent[1];
    std::string cell = "x " + std::to_string(k % nx) + ", y " + std::to_string(g.dim == 2 ? g.local.lo[1] + k / nx : (k / nx) % ny);
    if (g.dim == 3) cell += ", z " + std::to_string(g.local.lo[2] + k / (nx * ny));
    message = f.where(dataset) + " cell (" + cell + "): cost " + number(c) + "; costs must be finite and >= 0";
    break;
  }
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::invalid_input, message);
  g.cost = out.cost;
  return out;
}

}  // namespace hpart
