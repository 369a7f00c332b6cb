// Parallel HDF5 I/O at any rank count: round trips exact whatever the rank count and however the
// data was spread when written, every rank reading its own block; grid partitions written cell by
// cell as the locator says; XDMF descriptions next to the files; and every malformed file an
// hpart::Error on every rank, with the same message, naming file, dataset and row or cell.
// Files are checked, and bad files made, with serial HDF5 calls on one rank.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "hpart/hdf5.hpp"
#include "hpart/hpart.hpp"
#include "test_grids.hpp"
#include "test_points.hpp"
#include "test_world.hpp"

#ifndef HPART_TEST_DIR
#error "HPART_TEST_DIR must name a scratch directory"
#endif

namespace {

using hpart::testing::LocalPoints;
using hpart::testing::make_points;
using hpart::testing::Shape;

using Ctx = hpart::testing::World;

// A scratch path unique per test, rank count and communicator colour (ctest may run np 1..4 at once).
std::string scratch(const std::string& name, int colour = 0) {
  int world = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  return std::string(HPART_TEST_DIR) + "/h5_" + name + "_np" + std::to_string(world) + "_c" + std::to_string(colour) +
         ".h5";
}

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The block of `n` rows the readers give rank r of R: [n r / R, n (r + 1) / R).
std::pair<long long, long long> reader_block(long long n, int r, int R) { return {n * r / R, n * (r + 1) / R}; }

// --- serial HDF5 helpers (one process, default file driver) --------------------------------------

template <class T>
hid_t mem_type();
template <>
hid_t mem_type<double>() { return H5T_NATIVE_DOUBLE; }
template <>
hid_t mem_type<int>() { return H5T_NATIVE_INT; }
template <>
hid_t mem_type<long long>() { return H5T_NATIVE_LLONG; }

// Writes a dataset of shape `dims` from `values` into an open serial file.
template <class T>
void put(hid_t file, const char* name, const std::vector<hsize_t>& dims, const std::vector<T>& values) {
  const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  const hid_t ds = H5Dcreate2(file, name, mem_type<T>(), space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(ds, 0) << name;
  if (!values.empty()) {
    EXPECT_GE(H5Dwrite(ds, mem_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0) << name;
  }
  H5Dclose(ds);
  H5Sclose(space);
}

// Rank 0 creates `path` with serial HDF5 and fills it; everyone waits for it.
void make_file(const Ctx& c, const std::string& path, const std::function<void(hid_t)>& fill) {
  if (c.rank == 0) {  // no ASSERT here: every rank must reach the barrier
    const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    EXPECT_GE(file, 0) << path;
    if (file >= 0) {
      fill(file);
      H5Fclose(file);
    }
  }
  MPI_Barrier(c.comm);
}

// A whole dataset, read serially (test files are small); `dims` receives its shape.
template <class T>
std::vector<T> get(const std::string& path, const char* name, std::vector<hsize_t>* dims = nullptr) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  EXPECT_GE(file, 0) << path;
  const hid_t ds = H5Dopen2(file, name, H5P_DEFAULT);
  EXPECT_GE(ds, 0) << path << ": " << name;
  const hid_t space = H5Dget_space(ds);
  std::vector<hsize_t> shape(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)));
  H5Sget_simple_extent_dims(space, shape.data(), nullptr);
  hsize_t n = 1;
  for (const hsize_t d : shape) n *= d;
  std::vector<T> values(n);
  EXPECT_GE(H5Dread(ds, mem_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
  if (dims) *dims = shape;
  H5Sclose(space);
  H5Dclose(ds);
  H5Fclose(file);
  return values;
}

template <class T>
std::vector<T> get_attribute(const std::string& path, const char* name) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t attr = H5Aopen(file, name, H5P_DEFAULT);
  EXPECT_GE(attr, 0) << path << ": attribute " << name;
  const hid_t space = H5Aget_space(attr);
  std::vector<T> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  EXPECT_GE(H5Aread(attr, mem_type<T>(), values.data()), 0);
  H5Sclose(space);
  H5Aclose(attr);
  H5Fclose(file);
  return values;
}

// Runs `call` on every rank; expects an hpart::Error of `code` everywhere, with the same text on
// every rank, containing `needle`.
void expect_error_everywhere(const Ctx& c, const std::function<void()>& call, hpart::ErrorCode code,
                             const std::string& needle) {
  std::string what;
  hpart::ErrorCode got = hpart::ErrorCode::ok;
  try {
    call();
  } catch (const hpart::Error& e) {
    what = e.what();
    got = e.code();
  }
  // No ASSERT before the broadcasts below: a rank leaving early would hang the others.
  EXPECT_FALSE(what.empty()) << "no hpart::Error on rank " << c.rank << " (expected '" << needle << "')";
  EXPECT_EQ(static_cast<int>(got), static_cast<int>(code)) << what;
  EXPECT_NE(what.find(needle), std::string::npos) << "rank " << c.rank << ": " << what;
  int len = static_cast<int>(what.size());
  MPI_Bcast(&len, 1, MPI_INT, 0, c.comm);
  std::string root(static_cast<std::size_t>(len), '\0');
  if (c.rank == 0) root = what;
  MPI_Bcast(root.data(), len, MPI_CHAR, 0, c.comm);
  EXPECT_EQ(what, root) << "the message differs between ranks";
}

// --- point files -----------------------------------------------------------------------------------

// Parts that depend on the global id only, so any rank can check any row.
hpart::part_t part_of_id(long long g) { return static_cast<hpart::part_t>((g * 7919) % 13); }

void expect_points_read_back(const Ctx& c, const hpart::PointFile& f, long long n, int dim, bool weighted) {
  const auto [b, e] = reader_block(n, c.rank, c.size);
  ASSERT_EQ(static_cast<long long>(f.size()), e - b);
  EXPECT_EQ(f.global_count, n);
  EXPECT_EQ(f.dim, dim);
  EXPECT_EQ(f.weighted, weighted);
  const LocalPoints expect = make_points(Shape::clusters, dim, b, e, weighted);
  EXPECT_EQ(f.coords, expect.coords);  // bit for bit
  EXPECT_EQ(f.weights, expect.weights);
  EXPECT_EQ(f.ids, expect.ids);
}

TEST(Hdf5Points, PartitionFileRoundTripsOnAnyRankCount) {
  const Ctx c;
  const hpart::Comm comm(c.comm);
  for (const int dim : {2, 3}) {
    const long long n = 5003;
    // Written from an uneven spread (rank 0 empty at np >= 3), read back in even blocks.
    const auto [b, e] = hpart::testing::uneven_block(n, c.rank, c.size);
    const LocalPoints mine = make_points(Shape::clusters, dim, b, e, true);
    std::vector<hpart::part_t> parts;
    for (long long g = b; g < e; ++g) parts.push_back(part_of_id(g));
    const hpart::Partition p = hpart::evaluate_partition(comm, parts, 13, mine.weights, 1);
    const hpart::PointSet view{mine.coords, dim, mine.weights, 1, mine.ids};
    const std::string path = scratch("partition" + std::to_string(dim));
    hpart::write_partition_h5(comm, path, p, mine.ids, &view);

    expect_points_read_back(c, hpart::read_points_h5(comm, path), n, dim, true);
    const std::vector<hpart::part_t> back = hpart::read_parts_h5(comm, path);
    const auto [rb, re] = reader_block(n, c.rank, c.size);
    ASSERT_EQ(static_cast<long long>(back.size()), re - rb);
    for (long long g = rb; g < re; ++g) ASSERT_EQ(back[static_cast<std::size_t>(g - rb)], part_of_id(g)) << "row " << g;

    // The per-part tables and the attributes are the partition's.
    if (c.rank == 0) {
      std::vector<hsize_t> dims;
      EXPECT_EQ(get<double>(path, "/part_weights", &dims), p.part_weights);
      EXPECT_EQ(dims, (std::vector<hsize_t>{13, 1}));
      const std::vector<long long> sizes(p.part_sizes.begin(), p.part_sizes.end());
      EXPECT_EQ(get<long long>(path, "/part_sizes"), sizes);
      EXPECT_EQ(get_attribute<int>(path, "num_parts"), std::vector<int>{13});
      EXPECT_EQ(get_attribute<long long>(path, "objects"), std::vector<long long>{n});
      EXPECT_EQ(get_attribute<double>(path, "imbalance"), p.metrics.imbalance);
      get<double>(path, "/weights", &dims);
      EXPECT_EQ(dims, std::vector<hsize_t>{static_cast<hsize_t>(n)});  // ncon 1: a plain list
      // The XDMF description names the mesh and every dataset it shows.
      const std::string xmf = read_text(hpart::xdmf_path(path));
      for (const char* needle : {"Polyvertex", dim == 2 ? "GeometryType=\"XY\"" : "GeometryType=\"XYZ\"", ":/points",
                                 ":/parts", ":/weights", ":/ids", "Center=\"Node\""})
        EXPECT_NE(xmf.find(needle), std::string::npos) << needle << " not in\n" << xmf;
    }
    MPI_Barrier(c.comm);
  }
}

TEST(Hdf5Points, PointFileWithoutWeightsOrIdsUsesRowNumbers) {
  const Ctx c;
  const hpart::Comm comm(c.comm);
  const long long n = 777;
  const auto [b, e] = hpart::testing::uneven_block(n, c.rank, c.size);
  const LocalPoints mine = make_points(Shape::clusters, 3, b, e, false);
  const std::string path = scratch("plain");
  hpart::write_points_h5(comm, path, hpart::PointSet{mine.coords, 3, {}, 1, {}});
  expect_points_read_back(c, hpart::read_points_h5(comm, path), n, 3, false);
  if (c.rank == 0) {
    const std::string xmf = read_text(hpart::xdmf_path(path));
    EXPECT_NE(xmf.find(":/points"), std::string::npos);
    EXPECT_EQ(xmf.find(":/weights"), std::string::npos);
  }
  MPI_Barrier(c.comm);
}

TEST(Hdf5Points, SeveralWeightsPerPointBalanceTheFirst) {
  const Ctx c;
  const hpart::Comm comm(c.comm);
  const long long n = 901;
  const auto [b, e] = hpart::testing::uneven_block(n, c.rank, c.size);
  const LocalPoints mine = make_points(Shape::clusters, 2, b, e, true);
  std::vector<double> two;  // w and 2 w + 1 per point
  for (const double w : mine.weights) two.insert(two.end(), {w, 2 * w + 1});
  const hpart::PointSet view{mine.coords, 2, two, 2, mine.ids};
  const hpart::Partition p = hpart::partition(comm, view, hpart::presets::points(5));
  const std::string path = scratch("ncon2");
  hpart::write_partition_h5(comm, path, p, {}, &view);
  expect_points_read_back(c, hpart::read_points_h5(comm, path), n, 2, true);  // the first column
  if (c.rank == 0) {
    std::vector<hsize_t> dims;
    get<double>(path, "/weights", &dims);
    EXPECT_EQ(dims, (std::vector<hsize_t>{static_cast<hsize_t>(n), 2}));
    EXPECT_EQ(get_attribute<int>(path, "ncon"), std::vector<int>{2});
    EXPECT_NE(read_text(hpart::xdmf_path(path)).find("HyperSlab"), std::string::npos);
  }
  MPI_Barrier(c.comm);
}

TEST(Hdf5Points, PartsOnlyFileHasNoPointsAndNoXdmf) {
  const Ctx c;
  const hpart::Comm comm(c.comm);
  const auto [b, e] = hpart::testing::uneven_block(300, c.rank, c.size);
  std::vector<hpart::part_t> parts;
  for (long long g = b; g < e; ++g) parts.push_back(part_of_id(g));
  const std::string path = scratch("partsonly");
  if (c.rank == 0) std::remove(hpart::xdmf_path(path).c_str());
  MPI_Barrier(c.comm);
  hpart::write_partition_h5(comm, path, hpart::evaluate_partition(comm, parts, 13, {}, 1));
  const std::vector<hpart::part_t> back = hpart::read_parts_h5(comm, path);
  const auto [rb, re] = reader_block(300, c.rank, c.size);
  for (long long g = rb; g < re; ++g) ASSERT_EQ(back[static_cast<std::size_t>(g - rb)], part_of_id(g));
  EXPECT_FALSE(std::ifstream(hpart::xdmf_path(path)).good());
  expect_error_everywhere(c, [&] { (void)hpart::read_points_h5(comm, path); }, hpart::ErrorCode::io,
                          "/points: no such dataset");
}

TEST(Hdf5Points, WorksOnSubCommunicators) {
  const Ctx world;
  MPI_Comm half;
  const int colour = world.rank % 2;
  MPI_Comm_split(world.comm, colour, world.rank, &half);
  const Ctx c(half);
  const hpart::Comm comm(half);
  const long long n = colour == 0 ? 1200 : 700;
  const auto [b, e] = hpart::testing::uneven_block(n, c.rank, c.size);
  const LocalPoints mine = make_points(Shape::clusters, 2, b, e, true);
  const std::string path = scratch("subcomm", colour);
  hpart::write_points_h5(comm, path, hpart::PointSet{mine.coords, 2, mine.weights, 1, mine.ids});
  expect_points_read_back(c, hpart::read_points_h5(comm, path), n, 2, true);
  MPI_Comm_free(&half);
}

// --- grids -----------------------------------------------------------------------------------------

hpart::Cell local_cell(const hpart::Box& b, std::size_t i) {
  const auto k = static_cast<std::int64_t>(i);
  const std::int64_t nx = b.size(0), ny = b.size(1);
  return {b.lo[0] + k % nx, b.lo[1] + (k / nx) % ny, b.dim == 3 ? b.lo[2] + k / (nx * ny) : 0, 0};
}

struct GridCase {
  int dim;
  std::array<std::int64_t, 3> extent;
  int parts;
  hpart::GridMethod method;
};

class Hdf5Grid : public ::testing::TestWithParam<GridCase> {};

TEST_P(Hdf5Grid, CostFieldInPartitionOutCellByCell) {
  const Ctx c;
  const hpart::Comm comm(c.comm);
  const GridCase gc = GetParam();
  hpart::GridOptions opts;
  opts.parts = gc.parts;
  opts.method = gc.method;
  const std::string tag = std::to_string(gc.dim) + "d_" + hpart::to_string(gc.method);

  // A cost field file, written from uneven slabs (rank 0 holds none at np >= 3).
  const hpart::testing::LocalGrid lg = hpart::testing::slab_grid(gc.dim, gc.extent, c.rank, c.size, 20.0);
  const hpart::GridPartition first = hpart::partition_grid(comm, lg.grid, opts);
  const std::string field_path = scratch("field" + tag);
  hpart::write_grid_partition_h5(comm, field_path, lg.grid, first);

  // Read back in even slabs of the slowest dimension: extent, slab and costs as written.
  const hpart::GridField field = hpart::read_grid_cost_h5(comm, field_path);
  ASSERT_EQ(field.grid.dim, gc.dim);
  for (int a = 0; a < gc.dim; ++a) EXPECT_EQ(field.grid.extent[static_cast<std::size_t>(a)], gc.extent[static_cast<std::size_t>(a)]);
  const int slow = gc.dim - 1;
  const auto [sb, se] = reader_block(gc.extent[static_cast<std::size_t>(slow)], c.rank, c.size);
  EXPECT_EQ(field.grid.local.lo[static_cast<std::size_t>(slow)], sb);
  EXPECT_EQ(field.grid.local.hi[static_cast<std::size_t>(slow)], se - 1);
  ASSERT_EQ(field.cost.size(), static_cast<std::size_t>(field.grid.local.empty() ? 0 : field.grid.local.volume()));
  ASSERT_EQ(field.grid.cost.data(), field.cost.data());
  for (std::size_t i = 0; i < field.cost.size(); ++i)
    ASSERT_EQ(field.cost[i], hpart::testing::hotspot_cost(local_cell(field.grid.local, i), field.grid, 20.0)) << i;

  // Partition what was read: the same partition as from the original spread (cell by cell).
  const hpart::GridPartition p = hpart::partition_grid(comm, field.grid, opts);
  for (std::size_t i = 0; i < p.partition.parts.size(); ++i)
    ASSERT_EQ(p.partition.parts[i], first.part_of(local_cell(field.grid.local, i)));
  const std::string path = scratch("grid" + tag);
  hpart::write_grid_partition_h5(comm, path, field.grid, p);

  // Every rank checks the whole file serially: each cell's part is the locator's, boxes match.
  std::vector<hsize_t> dims;
  const std::vector<int> parts = get<int>(path, "/parts", &dims);
  std::vector<hsize_t> expect_dims;
  for (int a = gc.dim - 1; a >= 0; --a) expect_dims.push_back(static_cast<hsize_t>(gc.extent[static_cast<std::size_t>(a)]));
  ASSERT_EQ(dims, expect_dims);
  const hpart::Box domain = field.grid.domain();
  for (std::size_t i = 0; i < parts.size(); ++i)
    ASSERT_EQ(parts[i], p.part_of(local_cell(domain, i))) << "cell " << i;
  const std::vector<long long> boxes = get<long long>(path, "/boxes", &dims);
  ASSERT_EQ(dims, (std::vector<hsize_t>{static_cast<hsize_t>(gc.parts), static_cast<hsize_t>(2 * gc.dim)}));
  for (std::size_t q = 0; q < p.boxes.size(); ++q)
    for (int a = 0; a < gc.dim; ++a) {
      const std::size_t row = q * 2 * static_cast<std::size_t>(gc.dim), ua = static_cast<std::size_t>(a);
      EXPECT_EQ(boxes[row + ua], p.boxes[q].lo[ua]) << "part " << q;
      EXPECT_EQ(boxes[row + static_cast<std::size_t>(gc.dim) + ua], p.boxes[q].hi[ua]) << "part " << q;
    }
  const std::vector<long long> extent = get_attribute<long long>(path, "extent");
  EXPECT_EQ(extent, std::vector<long long>(gc.extent.begin(), gc.extent.begin() + gc.dim));
  EXPECT_EQ(get_attribute<int>(path, "box_shaped"), std::vector<int>{p.box_shaped ? 1 : 0});
  if (c.rank == 0) {
    const std::string xmf = read_text(hpart::xdmf_path(path));
    for (const char* needle : {gc.dim == 2 ? "2DCoRectMesh" : "3DCoRectMesh", ":/parts", ":/cost", "Center=\"Cell\""})
      EXPECT_NE(xmf.find(needle), std::string::npos) << needle << " not in\n" << xmf;
  }
  MPI_Barrier(c.comm);
}

INSTANTIATE_TEST_SUITE_P(Grids, Hdf5Grid,
                         ::testing::Values(GridCase{2, {64, 48, 1}, 7, hpart::GridMethod::blocks},
                                           GridCase{2, {64, 48, 1}, 12, hpart::GridMethod::sfc},
                                           GridCase{3, {20, 18, 16}, 9, hpart::GridMethod::blocks},
                                           GridCase{3, {20, 18, 16}, 8, hpart::GridMethod::tensor}));

// --- bad files -------------------------------------------------------------------------------------

std::vector<double> coords(long long n, int dim) {
  std::vector<double> v;
  for (long long i = 0; i < n * dim; ++i) v.push_back(0.01 * static_cast<double>(i));
  return v;
}

void expect_points_error(const Ctx& c, const std::string& path, hpart::ErrorCode code, const std::string& needle) {
  expect_error_everywhere(c, [&] { (void)hpart::read_points_h5(hpart::Comm(c.comm), path); }, code, needle);
}

TEST(Hdf5BadInput, MissingFileOrDataset) {
  const Ctx c;
  const std::string path = scratch("missing");
  expect_points_error(c, path + ".does-not-exist.h5", hpart::ErrorCode::io, "cannot open '" + path + ".does-not-exist.h5'");
  make_file(c, path, [](hid_t f) { put<double>(f, "/weights", {4}, {1, 1, 1, 1}); });
  expect_points_error(c, path, hpart::ErrorCode::io, path + ": /points: no such dataset");
  expect_error_everywhere(c, [&] { (void)hpart::read_grid_cost_h5(hpart::Comm(c.comm), path); }, hpart::ErrorCode::io,
                          "/cost: no such dataset");
  expect_error_everywhere(c, [&] { (void)hpart::read_parts_h5(hpart::Comm(c.comm), path, "/group/parts"); },
                          hpart::ErrorCode::io, "/group/parts: no such dataset");
  // A text file is not an HDF5 file.
  const std::string text = scratch("text");
  if (c.rank == 0) std::ofstream(text) << "0 0\n1 1\n";
  MPI_Barrier(c.comm);
  expect_points_error(c, text, hpart::ErrorCode::io, "cannot open '" + text + "' as an HDF5 file");
}

TEST(Hdf5BadInput, PointsOfTheWrongShape) {
  const Ctx c;
  const std::string path = scratch("shape");
  make_file(c, path, [](hid_t f) { put(f, "/points", {10, 4}, coords(10, 4)); });
  expect_points_error(c, path, hpart::ErrorCode::io, path + ": /points: shape 10 x 4; expected N x 2 or N x 3");
  make_file(c, path, [](hid_t f) { put(f, "/points", {10}, coords(10, 1)); });
  expect_points_error(c, path, hpart::ErrorCode::io, "/points: shape 10; expected N x 2 or N x 3");
  make_file(c, path, [](hid_t f) { put(f, "/points", {0, 3}, std::vector<double>{}); });
  expect_points_error(c, path, hpart::ErrorCode::io, "/points: no points (0 rows)");
}

TEST(Hdf5BadInput, WeightsOrIdsOfTheWrongLength) {
  const Ctx c;
  const std::string path = scratch("weights_length");
  make_file(c, path, [](hid_t f) {
    put(f, "/points", {10, 3}, coords(10, 3));
    put(f, "/weights", {9}, std::vector<double>(9, 1.0));
  });
  expect_points_error(c, path, hpart::ErrorCode::size_mismatch, "/weights: shape 9; expected 10 or 10 x ncon");
  make_file(c, path, [](hid_t f) {
    put(f, "/points", {10, 2}, coords(10, 2));
    put(f, "/ids", {11}, std::vector<long long>(11, 1));
  });
  expect_points_error(c, path, hpart::ErrorCode::size_mismatch, "/ids: shape 11; expected 10");
}

TEST(Hdf5BadInput, NonFiniteCoordinateNamesItsRow) {
  const Ctx c;
  const std::string path = scratch("nan_coordinate");
  // Rows 7 and 38: the first is reported whichever ranks hold them.
  make_file(c, path, [](hid_t f) {
    std::vector<double> v = coords(40, 2);
    v[7 * 2 + 1] = std::numeric_limits<double>::quiet_NaN();
    v[38 * 2] = std::numeric_limits<double>::infinity();
    put(f, "/points", {40, 2}, v);
  });
  expect_points_error(c, path, hpart::ErrorCode::invalid_input,
                      path + ": /points row 7: coordinate 1 is nan; coordinates must be finite");
}

TEST(Hdf5BadInput, NegativeOrNanWeightNamesItsRow) {
  const Ctx c;
  const std::string path = scratch("negative_weight");
  make_file(c, path, [](hid_t f) {
    put(f, "/points", {40, 3}, coords(40, 3));
    std::vector<double> w(40, 1.0);
    w[33] = -1.5;
    put(f, "/weights", {40}, w);
  });
  expect_points_error(c, path, hpart::ErrorCode::invalid_input, "/weights row 33: weight -1.5");
  make_file(c, path, [](hid_t f) {
    put(f, "/points", {40, 3}, coords(40, 3));
    std::vector<double> w(40 * 2, 1.0);
    w[2 * 5] = std::numeric_limits<double>::quiet_NaN();
    put(f, "/weights", {40, 2}, w);
  });
  expect_points_error(c, path, hpart::ErrorCode::invalid_input, "/weights row 5: weight nan");
}

TEST(Hdf5BadInput, NanCostNamesItsCell) {
  const Ctx c;
  const std::string path = scratch("nan_cost");
  make_file(c, path, [](hid_t f) {
    std::vector<double> cost(6 * 5 * 4, 1.0);  // nz 6, ny 5, nx 4
    cost[(3 * 5 + 2) * 4 + 1] = std::numeric_limits<double>::quiet_NaN();  // x 1, y 2, z 3
    put(f, "/cost", {6, 5, 4}, cost);
    std::vector<double> flat(20, 1.0);
    flat[2 * 4 + 3] = -2.0;  // x 3, y 2
    put(f, "/cost2d", {5, 4}, flat);
  });
  const hpart::Comm comm(c.comm);
  expect_error_everywhere(c, [&] { (void)hpart::read_grid_cost_h5(comm, path); }, hpart::ErrorCode::invalid_input,
                          path + ": /cost cell (x 1, y 2, z 3): cost nan; costs must be finite and >= 0");
  expect_error_everywhere(c, [&] { (void)hpart::read_grid_cost_h5(comm, path, "/cost2d"); },
                          hpart::ErrorCode::invalid_input, "/cost2d cell (x 3, y 2): cost -2");
}

TEST(Hdf5BadInput, CostDatasetOfRankOne) {
  const Ctx c;
  const std::string path = scratch("cost_rank1");
  make_file(c, path, [](hid_t f) { put(f, "/cost", {12}, std::vector<double>(12, 1.0)); });
  expect_error_everywhere(c, [&] { (void)hpart::read_grid_cost_h5(hpart::Comm(c.comm), path); }, hpart::ErrorCode::io,
                          "/cost: shape 12 (1-D); expected a 2-D (ny x nx) or 3-D (nz x ny x nx) cost field");
}

TEST(Hdf5BadInput, PartsMustBeAListOfIntegers) {
  const Ctx c;
  const std::string path = scratch("bad_parts");
  make_file(c, path, [](hid_t f) {
    put(f, "/parts", {3, 4}, std::vector<int>(12, 0));
    put(f, "/real", {4}, std::vector<double>(4, 0.5));
  });
  const hpart::Comm comm(c.comm);
  expect_error_everywhere(c, [&] { (void)hpart::read_parts_h5(comm, path); }, hpart::ErrorCode::io,
                          "/parts: shape 3 x 4; expected a 1-D list of part ids");
  expect_error_everywhere(c, [&] { (void)hpart::read_parts_h5(comm, path, "/real"); }, hpart::ErrorCode::io,
                          "/real: holds non-integer values");
}

TEST(Hdf5BadInput, WriterArgumentsAndPaths) {
  const Ctx c;
  const hpart::Comm comm(c.comm);
  const auto [b, e] = hpart::testing::uneven_block(100, c.rank, c.size);
  const LocalPoints mine = make_points(Shape::uniform, 3, b, e, true);
  const hpart::PointSet view{mine.coords, 3, mine.weights, 1, mine.ids};
  const hpart::Partition p = hpart::partition(comm, view, hpart::presets::points(4));
  expect_error_everywhere(c, [&] { hpart::write_partition_h5(comm, "/nonexistent-dir/x.h5", p, mine.ids, &view); },
                          hpart::ErrorCode::io, "cannot create '/nonexistent-dir/x.h5'");
  expect_error_everywhere(c, [&] { hpart::write_points_h5(comm, scratch("self") + ".xmf", view); },
                          hpart::ErrorCode::invalid_argument, "would be overwritten by its own XDMF file");
  // Points on one rank (the last always holds some) that do not match its parts.
  const bool last = c.rank == c.size - 1;
  const hpart::PointSet fewer{std::span<const double>(mine.coords).first(last ? mine.coords.size() - 3 : mine.coords.size()),
                              3, last ? std::span<const double>(mine.weights).first(mine.weights.size() - 1)
                                      : std::span<const double>(mine.weights),
                              1, {}};
  expect_error_everywhere(c, [&] { hpart::write_partition_h5(comm, scratch("fewer"), p, {}, &fewer); },
                          hpart::ErrorCode::invalid_argument, "points for");
  std::vector<double> bad = mine.weights;
  if (last) bad.back() = -1.0;
  const hpart::PointSet negative{mine.coords, 3, bad, 1, {}};
  expect_error_everywhere(c, [&] { hpart::write_points_h5(comm, scratch("negative"), negative); },
                          hpart::ErrorCode::invalid_argument, "weights must be finite and >= 0");
}

}  // namespace
