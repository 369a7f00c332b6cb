// Parallel HDF5 I/O at any rank count: round trips exact whatever the rank count and however the
// data was spread when written, every rank reading its own block; grid partitions written cell by
// cell as the locator says; XDMF descriptions next to the files; and every malformed file an
// hpart::Error on every rank, with the same message, naming file, dataset and row or cell.
// Files are checked, and bad files made, with serial HDF5 calls on one rank.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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
template <>
hid_t mem_type<unsigned long long>() { return H5T_NATIVE_ULLONG; }
template <>
hid_t mem_type<unsigned>() { return H5T_NATIVE_UINT; }
template <>
hid_t mem_type<short>() { return H5T_NATIVE_SHORT; }

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
  const hpart::Partition p = hpart::partition_points(comm, view, hpart::PointOptions::preset(hpart::Preset::standard, 5));
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
  for (std::size_t i = 0; i < p.parts.size(); ++i)
    ASSERT_EQ(p.parts[i], first.part_of(local_cell(field.grid.local, i)));
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

// A grid partition file reads back onto the grid as the partition it was: parts, boxes,
// metrics, neighbours, and a locator that answers for every cell, so that blocks partitions can
// be repartitioned from a file (hpart evaluate / repartition --grid).
TEST_P(Hdf5Grid, PartitionFileReadsBackWithItsLocator) {
  const Ctx c;
  const hpart::Comm comm(c.comm);
  const GridCase gc = GetParam();
  hpart::GridOptions opts;
  opts.parts = gc.parts;
  opts.method = gc.method;
  const hpart::testing::LocalGrid lg = hpart::testing::slab_grid(gc.dim, gc.extent, c.rank, c.size, 20.0);
  const hpart::GridPartition p = hpart::partition_grid(comm, lg.grid, opts);
  const std::string path = scratch(std::string("readback") + std::to_string(gc.dim) + "d_" + hpart::to_string(gc.method));
  hpart::write_grid_partition_h5(comm, path, lg.grid, p);
  // Onto the reader's slabs, a distribution unlike the writer's.
  const hpart::GridField field = hpart::read_grid_cost_h5(comm, path);
  const hpart::GridPartition back = hpart::read_grid_partition_h5(comm, path, field.grid);
  EXPECT_EQ(back.num_parts, gc.parts);
  EXPECT_EQ(back.box_shaped, p.box_shaped);
  ASSERT_EQ(back.parts.size(), field.cost.size());
  for (std::size_t i = 0; i < back.parts.size(); ++i) ASSERT_EQ(back.parts[i], p.part_of(local_cell(field.grid.local, i))) << i;
  const hpart::Box domain = field.grid.domain();
  for (std::size_t i = 0; i < static_cast<std::size_t>(domain.volume()); i += 7)
    ASSERT_EQ(back.part_of(local_cell(domain, i)), p.part_of(local_cell(domain, i))) << "cell " << i;
  for (std::size_t q = 0; q < p.boxes.size(); ++q) EXPECT_TRUE(back.boxes[q] == p.boxes[q]) << "part " << q;
  EXPECT_EQ(back.part_sizes, p.part_sizes);
  EXPECT_NEAR(back.metrics.imbalance[0], p.metrics.imbalance[0], 1e-12);
  EXPECT_EQ(hpart::grid_neighbours(comm, field.grid, back).halo_volume, hpart::grid_neighbours(comm, lg.grid, p).halo_volume);
  if (gc.method != hpart::GridMethod::blocks) return;
  // The same costs: the rebuilt cut tree is the one written, so no plane moves.
  hpart::GridRepartOptions ro;
  ro.parts = gc.parts;
  const hpart::GridRepartition r = hpart::repartition_grid(comm, field.grid, back, ro);
  EXPECT_FALSE(r.from_scratch);
  EXPECT_EQ(r.migrated.objects, 0);
  // K given and different from the file's: an error naming both.
  expect_error_everywhere(c, [&] { (void)hpart::read_grid_partition_h5(comm, path, field.grid, gc.parts + 1); },
                          hpart::ErrorCode::io, "the file holds " + std::to_string(gc.parts) + " parts, but");
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
  const hpart::Partition p = hpart::partition_points(comm, view, hpart::PointOptions::preset(hpart::Preset::standard, 4));
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

// --- empty ranks, exact integers, declared sizes, replicated arguments (issue 20) -----------------

// Runs `body` on the world and on each half of it (a sub-communicator; colour names the files).
void on_world_and_halves(const std::function<void(const Ctx&, int colour)>& body) {
  body(Ctx(), 0);
  const hpart::testing::HalfWorld half;
  body(Ctx(half.comm), 1 + half.colour);
}

// A chunked dataset of `dims` whose chunks are never written: any declared size, a few bytes on
// disk (reads see the fill value 0).
void put_unallocated(hid_t file, const char* name, hid_t type, const std::vector<hsize_t>& dims) {
  const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  std::vector<hsize_t> chunk(dims.size(), 1);
  chunk.back() = std::min<hsize_t>(dims.back(), 1024);
  H5Pset_chunk(dcpl, static_cast<int>(chunk.size()), chunk.data());
  H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER);
  const hid_t ds = H5Dcreate2(file, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  EXPECT_GE(ds, 0) << name;
  if (ds >= 0) H5Dclose(ds);
  H5Pclose(dcpl);
  H5Sclose(space);
}

// HPART_MEMORY_LIMIT for the scope (every rank sets it, so the memory checks agree).
struct MemoryLimit {
  explicit MemoryLimit(const char* limit) { setenv("HPART_MEMORY_LIMIT", limit, 1); }
  ~MemoryLimit() { unsetenv("HPART_MEMORY_LIMIT"); }
  MemoryLimit(const MemoryLimit&) = delete;
  MemoryLimit& operator=(const MemoryLimit&) = delete;
};

// n points written by the last n ranks (one each; the rest hold none, and with n > ranks the
// last rank holds the remainder), row g at (g, 2 g) with weight g + 0.5 and id 1000 + g.
struct TailPoints {
  std::vector<double> coords, weights;
  std::vector<hpart::gid_t> ids;
  std::vector<hpart::part_t> parts;
  TailPoints(const Ctx& c, long long n) {
    const long long holders = std::min<long long>(n, c.size);
    const long long first_holder = c.size - holders;
    if (c.rank < first_holder) return;
    const long long k = c.rank - first_holder;
    const long long b = k, e = c.rank == c.size - 1 ? n : k + 1;
    for (long long g = b; g < e; ++g) {
      coords.insert(coords.end(), {static_cast<double>(g), 2.0 * static_cast<double>(g)});
      weights.push_back(static_cast<double>(g) + 0.5);
      ids.push_back(1000 + g);
      parts.push_back(part_of_id(g));
    }
  }
  [[nodiscard]] hpart::PointSet view() const { return hpart::PointSet{coords, 2, weights, 1, ids}; }
};

TEST(Hdf5EmptyRanks, FewerRowsThanRanksWriteAndReadBack) {
  on_world_and_halves([](const Ctx& c, int colour) {
    const hpart::Comm comm(c.comm);
    for (const long long n : {0LL, 1LL, 2LL}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", communicator of " + std::to_string(c.size));
      const TailPoints mine(c, n);
      const std::string points_path = scratch("tail_points" + std::to_string(n), colour);
      hpart::write_points_h5(comm, points_path, mine.view());
      const hpart::Partition p = hpart::evaluate_partition(comm, mine.parts, 13, {}, 1);
      const std::string parts_path = scratch("tail_parts" + std::to_string(n), colour);
      const hpart::PointSet view = mine.view();
      hpart::write_partition_h5(comm, parts_path, p, mine.ids, &view);

      // Read back in even blocks: most ranks get no row, and every rank takes part.
      const auto [rb, re] = reader_block(n, c.rank, c.size);
      const std::vector<hpart::part_t> back = hpart::read_parts_h5(comm, parts_path);
      EXPECT_EQ(static_cast<long long>(back.size()), re - rb);
      for (long long g = rb; g < re && g - rb < static_cast<long long>(back.size()); ++g)
        EXPECT_EQ(back[static_cast<std::size_t>(g - rb)], part_of_id(g));
      if (n == 0) {
        expect_error_everywhere(c, [&] { (void)hpart::read_points_h5(comm, points_path); }, hpart::ErrorCode::io,
                                "/points: no points (0 rows)");
        continue;
      }
      for (const std::string& path : {points_path, parts_path}) {
        const hpart::PointFile f = hpart::read_points_h5(comm, path);
        EXPECT_EQ(f.global_count, n);
        ASSERT_EQ(static_cast<long long>(f.size()), re - rb);
        for (long long g = rb; g < re; ++g) {
          const auto i = static_cast<std::size_t>(g - rb);
          EXPECT_EQ(f.coords[2 * i + 1], 2.0 * static_cast<double>(g));
          EXPECT_EQ(f.weights[i], static_cast<double>(g) + 0.5);
          EXPECT_EQ(f.ids[i], 1000 + g);
        }
      }
    }
  });
}

TEST(Hdf5EmptyRanks, CostFieldThinnerThanTheRanks) {
  on_world_and_halves([](const Ctx& c, int colour) {
    const hpart::Comm comm(c.comm);
    // 2 x 64 (ny x nx) and 1 x 3 x 5 (nz x ny x nx): at np 3 and 4 some ranks hold no slab.
    const std::string path = scratch("thin_cost", colour);
    make_file(c, path, [](hid_t f) {
      std::vector<double> flat(2 * 64), cube(15);
      for (std::size_t i = 0; i < flat.size(); ++i) flat[i] = 1.0 + static_cast<double>(i);
      for (std::size_t i = 0; i < cube.size(); ++i) cube[i] = 0.5 * static_cast<double>(i);
      put(f, "/cost", {2, 64}, flat);
      put(f, "/cube", {1, 3, 5}, cube);
      put(f, "/none", {0, 4}, std::vector<double>{});
    });
    expect_error_everywhere(c, [&] { (void)hpart::read_grid_cost_h5(comm, path, "/none"); }, hpart::ErrorCode::io,
                            path + ": /none: shape 0 x 4 holds no cells");
    for (const char* name : {"/cost", "/cube"}) {
      SCOPED_TRACE(std::string(name) + ", communicator of " + std::to_string(c.size));
      const hpart::GridField field = hpart::read_grid_cost_h5(comm, path, name);
      const int slow = field.grid.dim - 1;
      const long long layers = field.grid.extent[static_cast<std::size_t>(slow)];
      const auto [sb, se] = reader_block(layers, c.rank, c.size);
      const long long layer = field.grid.dim == 2 ? 64 : 15;
      ASSERT_EQ(static_cast<long long>(field.cost.size()), (se - sb) * layer);
      for (std::size_t i = 0; i < field.cost.size(); ++i) {
        const double g = static_cast<double>(sb * layer) + static_cast<double>(i);
        EXPECT_EQ(field.cost[i], field.grid.dim == 2 ? 1.0 + g : 0.5 * g);
      }
      // Partitioned and written back from those slabs, some of them empty.
      hpart::GridOptions opts;
      opts.parts = 3;
      const hpart::GridPartition p = hpart::partition_grid(comm, field.grid, opts);
      const std::string out = scratch(std::string("thin_parts") + (name + 1), colour);
      hpart::write_grid_partition_h5(comm, out, field.grid, p);
      const hpart::GridField again = hpart::read_grid_cost_h5(comm, out);
      EXPECT_EQ(again.cost, field.cost);
      const std::vector<int> parts = get<int>(out, "/parts");
      const hpart::Box domain = field.grid.domain();
      ASSERT_EQ(static_cast<long long>(parts.size()), domain.volume());
      for (std::size_t i = 0; i < parts.size(); ++i) EXPECT_EQ(parts[i], p.part_of(local_cell(domain, i))) << i;
    }
  });
}

TEST(Hdf5Integers, IdsAreReadExactlyOrRefusedNamingTheRow) {
  on_world_and_halves([](const Ctx& c, int colour) {
    const std::string path = scratch("uint64_ids", colour);
    const unsigned long long top = (1ULL << 63) - 1;
    // Unsigned 64-bit ids below 2^63, the largest among them: read exactly.
    make_file(c, path, [&](hid_t f) {
      put(f, "/points", {6, 2}, coords(6, 2));
      put(f, "/ids", {6}, std::vector<unsigned long long>{top, 0, top - 1, 5, 1ULL << 62, 7});
    });
    const hpart::PointFile good = hpart::read_points_h5(hpart::Comm(c.comm), path);
    const std::vector<hpart::gid_t> all{static_cast<hpart::gid_t>(top), 0, static_cast<hpart::gid_t>(top - 1), 5,
                                        hpart::gid_t{1} << 62, 7};
    const auto [b, e] = reader_block(6, c.rank, c.size);
    EXPECT_EQ(good.ids, std::vector<hpart::gid_t>(all.begin() + b, all.begin() + e));
    // 1000 ids of 2^63 and above: no longer clamped to INT64_MAX, refused naming the first.
    make_file(c, path, [](hid_t f) {
      put(f, "/points", {1000, 2}, coords(1000, 2));
      std::vector<unsigned long long> ids(1000);
      for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = i < 700 ? i : (1ULL << 63) + i;
      put(f, "/ids", {1000}, ids);
    });
    expect_points_error(c, path, hpart::ErrorCode::invalid_input,
                        path + ": /ids row 700: id 9223372036854776508; ids must be in [0, 2^63 - 1]");
    // Negative signed ids, floating-point ids.
    make_file(c, path, [](hid_t f) {
      put(f, "/points", {5, 2}, coords(5, 2));
      put(f, "/ids", {5}, std::vector<long long>{0, 1, 2, -4, 3});
    });
    expect_points_error(c, path, hpart::ErrorCode::invalid_input, "/ids row 3: id -4; ids must be in [0, 2^63 - 1]");
    make_file(c, path, [](hid_t f) {
      put(f, "/points", {3, 2}, coords(3, 2));
      put(f, "/ids", {3}, std::vector<double>{0.0, 1.5, 2.0});
    });
    expect_points_error(c, path, hpart::ErrorCode::io, "/ids: holds non-integer values (floating-point numbers); expected integers");
  });
}

TEST(Hdf5Integers, PartIdsOutsideInt32AreRefusedNamingTheRow) {
  on_world_and_halves([](const Ctx& c, int colour) {
    const hpart::Comm comm(c.comm);
    const std::string path = scratch("wide_parts", colour);
    make_file(c, path, [](hid_t f) {
      put(f, "/in_range", {5}, std::vector<long long>{0, 2147483647, -2147483648LL, 3, 4});
      put(f, "/too_big", {5}, std::vector<long long>{0, 1, 2, 2147483648LL, 4});
      put(f, "/unsigned64", {4}, std::vector<unsigned long long>{0, 1, 18446744073709551615ULL, 2});
      put(f, "/unsigned32", {3}, std::vector<unsigned>{0, 4294967295U, 2});
      put(f, "/short", {3}, std::vector<short>{7, -1, 3});
    });
    const std::vector<hpart::part_t> in_range{0, 2147483647, -2147483647 - 1, 3, 4};
    const auto [b, e] = reader_block(5, c.rank, c.size);
    EXPECT_EQ(hpart::read_parts_h5(comm, path, "/in_range"),
              std::vector<hpart::part_t>(in_range.begin() + b, in_range.begin() + e));
    const std::vector<hpart::part_t> shorts{7, -1, 3};
    const auto [sb, se] = reader_block(3, c.rank, c.size);
    EXPECT_EQ(hpart::read_parts_h5(comm, path, "/short"), std::vector<hpart::part_t>(shorts.begin() + sb, shorts.begin() + se));
    expect_error_everywhere(c, [&] { (void)hpart::read_parts_h5(comm, path, "/too_big"); }, hpart::ErrorCode::invalid_input,
                            path + ": /too_big row 3: part id 2147483648 does not fit a 32-bit part id");
    expect_error_everywhere(c, [&] { (void)hpart::read_parts_h5(comm, path, "/unsigned64"); },
                            hpart::ErrorCode::invalid_input, "/unsigned64 row 2: part id 18446744073709551615 does not fit");
    expect_error_everywhere(c, [&] { (void)hpart::read_parts_h5(comm, path, "/unsigned32"); },
                            hpart::ErrorCode::invalid_input, "/unsigned32 row 1: part id 4294967295 does not fit");
  });
}

TEST(Hdf5Sizes, DeclaredShapesBeyondMemoryAreAnErrorEverywhere) {
  on_world_and_halves([](const Ctx& c, int colour) {
    const hpart::Comm comm(c.comm);
    const std::string path = scratch("huge_declared", colour);
    make_file(c, path, [](hid_t f) {
      put_unallocated(f, "/points", H5T_IEEE_F64LE, {hsize_t{1} << 31, 2});
      put_unallocated(f, "/parts", H5T_STD_I32LE, {hsize_t{1} << 34});
      put_unallocated(f, "/cost", H5T_IEEE_F64LE, {hsize_t{1} << 20, hsize_t{1} << 20});
      put_unallocated(f, "/wide", H5T_IEEE_F64LE, {8, hsize_t{1} << 32});
    });
    const MemoryLimit limit("64M");
    expect_points_error(c, path, hpart::ErrorCode::invalid_input,
                        "reading 2147483648 points of '" + path + "' needs ");
    expect_error_everywhere(c, [&] { (void)hpart::read_parts_h5(comm, path); }, hpart::ErrorCode::invalid_input,
                            "reading 17179869184 part ids of '" + path + "' needs ");
    expect_error_everywhere(c, [&] { (void)hpart::read_grid_cost_h5(comm, path); }, hpart::ErrorCode::invalid_input,
                            "reading a cost field of 1048576 x 1048576 cells of '" + path + "' needs ");
    // Beyond a grid's extents: refused for its shape, before any memory is sized by it.
    expect_error_everywhere(c, [&] { (void)hpart::read_grid_cost_h5(comm, path, "/wide"); }, hpart::ErrorCode::io,
                            "/wide: shape 8 x 4294967296: grid extent 4294967296 in dimension 0 is outside [1, 2^31]");
    // The message says what to change.
    expect_error_everywhere(c, [&] { (void)hpart::read_parts_h5(comm, path); }, hpart::ErrorCode::invalid_input,
                            "use more ranks");
  });
}

TEST(Hdf5Arguments, PathsDatasetsAndShapesMustAgreeAcrossRanks) {
  on_world_and_halves([](const Ctx& c, int colour) {
    if (c.size < 2) return;  // nothing to disagree with
    const hpart::Comm comm(c.comm);
    const TailPoints mine(c, 2 * c.size);
    const std::string path = scratch("agree", colour);
    hpart::write_points_h5(comm, path, mine.view());
    const std::string mine_only = path + (c.rank == 1 ? ".other.h5" : "");
    expect_error_everywhere(c, [&] { hpart::write_points_h5(comm, mine_only, mine.view()); },
                            hpart::ErrorCode::invalid_argument, "file path differs between ranks");
    expect_error_everywhere(c, [&] { (void)hpart::read_points_h5(comm, mine_only); }, hpart::ErrorCode::invalid_argument,
                            "file path differs between ranks");
    expect_error_everywhere(c, [&] { (void)hpart::read_parts_h5(comm, path, c.rank == 1 ? "/ids" : "/parts"); },
                            hpart::ErrorCode::invalid_argument, "dataset name differs between ranks");
    expect_error_everywhere(c, [&] { (void)hpart::read_grid_cost_h5(comm, path, c.rank == 1 ? "/a" : "/b"); },
                            hpart::ErrorCode::invalid_argument, "dataset name differs between ranks");
    // Points of another dimension on one rank; weights given on some ranks only.
    const hpart::PointSet flat{mine.coords, 2, mine.weights, 1, mine.ids};
    const std::vector<double> xyz(mine.coords.size() / 2 * 3, 1.0);
    const hpart::PointSet deep{xyz, 3, mine.weights, 1, mine.ids};
    expect_error_everywhere(c, [&] { hpart::write_points_h5(comm, path, c.rank == 1 ? deep : flat); },
                            hpart::ErrorCode::invalid_argument, "dim differs between ranks");
    const hpart::PointSet unweighted{mine.coords, 2, {}, 1, mine.ids};
    expect_error_everywhere(c, [&] { hpart::write_points_h5(comm, path, c.rank == c.size - 1 ? unweighted : flat); },
                            hpart::ErrorCode::invalid_argument, "weights given on some ranks and not on others");
    // A partition of another part count on one rank; ids or points on some ranks only.
    const hpart::Partition p = hpart::evaluate_partition(comm, mine.parts, 13, {}, 1);
    const hpart::Partition q = hpart::evaluate_partition(comm, mine.parts, 14, {}, 1);
    expect_error_everywhere(c, [&] { hpart::write_partition_h5(comm, path, c.rank == 1 ? q : p); },
                            hpart::ErrorCode::invalid_argument, "num_parts differs between ranks (from 13 to 14)");
    expect_error_everywhere(
        c, [&] { hpart::write_partition_h5(comm, path, p, c.rank == c.size - 1 ? std::span<const hpart::gid_t>() : mine.ids); },
        hpart::ErrorCode::invalid_argument, "ids given on some ranks and not on others");
    expect_error_everywhere(c, [&] { hpart::write_partition_h5(comm, path, p, {}, c.rank == 1 ? nullptr : &flat); },
                            hpart::ErrorCode::invalid_argument, "points given on some ranks only");
    // Grids: another extent on one rank.
    hpart::testing::LocalGrid lg = hpart::testing::slab_grid(2, {16, 8, 1}, c.rank, c.size, 3.0);
    hpart::GridOptions opts;
    opts.parts = 4;
    const hpart::GridPartition gp = hpart::partition_grid(comm, lg.grid, opts);
    hpart::Grid other = lg.grid;
    if (c.rank == 1) other.extent[0] = 17;
    expect_error_everywhere(c, [&] { hpart::write_grid_partition_h5(comm, path, other, gp); },
                            hpart::ErrorCode::invalid_argument, "grid extent differs between ranks");
  });
}

}  // namespace
