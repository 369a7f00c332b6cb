// Hierarchical grid partitions through HDF5 (issue 25): written on every rank of the world with
// its levels, read back on the world and on fewer ranks as the same partition: every cell's part,
// the saved locator answering for every cell of the grid (and a PartitionMap made from it),
// node_of_part, node_boxes, owner_of_part (at the writer's rank count; none elsewhere), part
// sizes and weights, imbalance, the halo and its internode share. Also: a flat
// partition reads back with no levels, a file whose /parts no longer match its /locator is an
// error on every rank, and a hierarchy's file without /locator is refused with a message while a
// curve partition's still reads back (its splitters inferred, as files written before /locator).
// Files are altered with serial HDF5 calls on rank 0.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "hpart/hdf5.hpp"
#include "hpart/hpart.hpp"
#include "test_grids.hpp"
#include "test_world.hpp"

#ifndef HPART_TEST_DIR
#error "HPART_TEST_DIR must name a scratch directory"
#endif

namespace {

using hpart::testing::World;

std::string scratch(const std::string& name) {
  return hpart::testing::scratch_path(HPART_TEST_DIR, "h5hier", name + ".h5");
}

// An emulated topology with several nodes from 2 ranks on: pairs of ranks per node from 4 on.
std::string emulated(int ranks) {
  return ranks >= 4 && ranks % 2 == 0 ? std::to_string(ranks / 2) + "x2" : std::to_string(ranks) + "x1";
}

hpart::Cell local_cell(const hpart::Box& b, std::size_t i) {
  const auto k = static_cast<std::int64_t>(i);
  const std::int64_t nx = b.size(0), ny = b.dim > 1 ? b.size(1) : 1;
  return {b.lo[0] + k % nx, b.lo[1] + (k / nx) % ny, b.dim == 3 ? b.lo[2] + k / (nx * ny) : 0, 0};
}

// The first `n` ranks of the world (the others get MPI_COMM_NULL), freed at scope exit.
struct FirstRanks {
  MPI_Comm comm = MPI_COMM_NULL;
  explicit FirstRanks(int n) {
    const World w;
    MPI_Comm_split(w.comm, w.rank < n ? 0 : MPI_UNDEFINED, w.rank, &comm);
  }
  ~FirstRanks() {
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
  FirstRanks(const FirstRanks&) = delete;
  FirstRanks& operator=(const FirstRanks&) = delete;
};

// Serial HDF5 on rank 0 (the others wait): `edit` gets the file opened read-write.
template <class F>
void edit_on_rank0(const std::string& path, F&& edit) {
  const World w;
  MPI_Barrier(w.comm);
  if (w.rank == 0) {
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0) << path;
    edit(f);
    H5Fclose(f);
  }
  MPI_Barrier(w.comm);
}

struct HierCase {
  int dim;
  std::array<std::int64_t, 3> extent;
  hpart::NodeCut cut;
};

class GridH5Hier : public ::testing::TestWithParam<HierCase> {};

TEST_P(GridH5Hier, ReadsBackOnAnyRankCountWithItsLevels) {
  const World w;
  const hpart::Comm comm(w.comm);
  const HierCase hc = GetParam();
  const hpart::testing::LocalGrid lg = hpart::testing::slab_grid(hc.dim, hc.extent, w.rank, w.size, 20.0);
  hpart::HierGridOptions opts;
  opts.parts = 2 * w.size + 1;  // uneven parts per node
  opts.node_cut = hc.cut;
  const hpart::HierGridPartition hp =
      hpart::partition_grid_hierarchical(comm, lg.grid, hpart::detect_topology(comm, emulated(w.size)), opts);
  const hpart::GridNeighbours nb = hpart::grid_neighbours(comm, lg.grid, hp);
  const hpart::LevelVolumes lv = hpart::level_volumes(nb, hp.node_of_part);
  const std::string path = scratch(std::to_string(hc.dim) + "d_cut" + std::to_string(static_cast<int>(hc.cut)));
  hpart::write_grid_partition_h5(comm, path, lg.grid, hp);

  for (const int ranks : {w.size, w.size - 1}) {
    if (ranks < 1) continue;
    const FirstRanks sub(ranks);
    if (sub.comm == MPI_COMM_NULL) continue;
    const hpart::Comm c(sub.comm);
    SCOPED_TRACE("read on " + std::to_string(ranks) + " of " + std::to_string(w.size) + " ranks");
    const hpart::GridField field = hpart::read_grid_cost_h5(c, path);
    const hpart::HierGridPartition back = hpart::read_hier_grid_partition_h5(c, path, field.grid);
    ASSERT_EQ(back.num_parts, hp.num_parts);
    EXPECT_EQ(back.box_shaped, hp.box_shaped);
    EXPECT_EQ(back.node_of_part, hp.node_of_part);
    // Owners are ranks of the writer's communicator: kept where the reader has as many ranks.
    if (ranks == w.size) {
      EXPECT_EQ(back.owner_of_part, hp.owner_of_part);
    } else {
      EXPECT_TRUE(back.owner_of_part.empty());
    }
    ASSERT_EQ(back.node_boxes.size(), hp.node_boxes.size());
    for (std::size_t n = 0; n < hp.node_boxes.size(); ++n) EXPECT_TRUE(back.node_boxes[n] == hp.node_boxes[n]) << "node " << n;
    // The reader's cells: the part in the file is the writer's locator's, and the read locator's.
    ASSERT_EQ(back.parts.size(), field.cost.size());
    for (std::size_t i = 0; i < back.parts.size(); ++i) {
      const hpart::Cell cell = local_cell(field.grid.local, i);
      ASSERT_EQ(back.parts[i], hp.part_of(cell)) << "local cell " << i;
      ASSERT_EQ(back.part_of(cell), back.parts[i]) << "local cell " << i;
    }
    // The read locator answers for every cell of the grid, on every rank, as the written one.
    const hpart::Box domain = field.grid.domain();
    for (std::size_t i = 0; i < static_cast<std::size_t>(domain.volume()); ++i)
      ASSERT_EQ(back.part_of(local_cell(domain, i)), hp.part_of(local_cell(domain, i))) << "cell " << i;
    EXPECT_EQ(back.part_sizes, hp.part_sizes);
    ASSERT_EQ(back.part_weights.size(), hp.part_weights.size());
    for (std::size_t q = 0; q < hp.part_weights.size(); ++q) EXPECT_DOUBLE_EQ(back.part_weights[q], hp.part_weights[q]) << q;
    EXPECT_EQ(back.metrics.objects, hp.metrics.objects);
    EXPECT_DOUBLE_EQ(back.metrics.imbalance[0], hp.metrics.imbalance[0]);
    const hpart::GridNeighbours bn = hpart::grid_neighbours(c, field.grid, back);
    EXPECT_EQ(bn.halo_volume, nb.halo_volume);
    const hpart::LevelVolumes bl = hpart::level_volumes(bn, back.node_of_part);
    EXPECT_EQ(bl.internode, lv.internode);
    if (w.size > 1) {
      EXPECT_GT(bl.internode, 0);  // several nodes: the internode halo is measured
    }
    // map_of takes the read partition (locator and owners) on the reader's communicator.
    const hpart::PartitionMap map = hpart::map_of(c, field.grid, back);
    for (std::size_t i = 0; i < static_cast<std::size_t>(domain.volume()); i += 5)
      ASSERT_EQ(map.part_of(local_cell(domain, i)), hp.part_of(local_cell(domain, i))) << "cell " << i;
    if (ranks == w.size) {
      for (int q = 0; q < hp.num_parts; ++q) EXPECT_EQ(map.rank_of_part(q), hp.owner_of_part[static_cast<std::size_t>(q)]) << q;
    }
    // The flat reader gives the same partition without the levels.
    const hpart::GridPartition flat = hpart::read_grid_partition_h5(c, path, field.grid);
    EXPECT_EQ(flat.parts, back.parts);
    EXPECT_EQ(flat.part_of(local_cell(domain, domain.volume() / 2)), hp.part_of(local_cell(domain, domain.volume() / 2)));
  }
  MPI_Barrier(w.comm);
}

INSTANTIATE_TEST_SUITE_P(Cuts, GridH5Hier,
                         ::testing::Values(HierCase{2, {72, 60, 1}, hpart::NodeCut::graph},
                                           HierCase{2, {72, 60, 1}, hpart::NodeCut::staircase},
                                           HierCase{2, {72, 60, 1}, hpart::NodeCut::boxes},
                                           HierCase{3, {20, 18, 16}, hpart::NodeCut::graph},
                                           HierCase{3, {20, 18, 16}, hpart::NodeCut::staircase}));

// A flat partition has no levels; a hierarchical file whose /parts were changed after writing is
// refused (its locator no longer gives every cell its part), and so is one without /locator,
// while a curve partition without /locator still reads back with inferred splitters.
TEST(GridH5Hier, FlatFilesAndAlteredFiles) {
  const World w;
  const hpart::Comm comm(w.comm);
  const hpart::testing::LocalGrid lg = hpart::testing::slab_grid(2, {48, 40, 1}, w.rank, w.size, 20.0);
  hpart::GridOptions go;
  go.parts = 5;
  go.method = hpart::GridMethod::sfc;
  const hpart::GridPartition sfc = hpart::partition_grid(comm, lg.grid, go);
  const std::string flat_path = scratch("flat_sfc");
  hpart::write_grid_partition_h5(comm, flat_path, lg.grid, sfc);
  const hpart::GridField field = hpart::read_grid_cost_h5(comm, flat_path);
  const hpart::HierGridPartition flat = hpart::read_hier_grid_partition_h5(comm, flat_path, field.grid);
  EXPECT_TRUE(flat.node_of_part.empty());
  EXPECT_TRUE(flat.node_boxes.empty());
  const hpart::Box domain = field.grid.domain();
  for (std::size_t i = 0; i < static_cast<std::size_t>(domain.volume()); ++i)
    ASSERT_EQ(flat.part_of(local_cell(domain, i)), sfc.part_of(local_cell(domain, i))) << "cell " << i;
  // Without /locator (a file of an older hpart): the splitters are inferred from the cells.
  edit_on_rank0(flat_path, [](hid_t f) { ASSERT_GE(H5Ldelete(f, "/locator", H5P_DEFAULT), 0); });
  const hpart::GridPartition inferred = hpart::read_grid_partition_h5(comm, flat_path, field.grid);
  for (std::size_t i = 0; i < static_cast<std::size_t>(domain.volume()); ++i)
    ASSERT_EQ(inferred.part_of(local_cell(domain, i)), sfc.part_of(local_cell(domain, i))) << "cell " << i;

  hpart::HierGridOptions ho;
  ho.parts = 2 * w.size + 2;
  const hpart::HierGridPartition hp =
      hpart::partition_grid_hierarchical(comm, lg.grid, hpart::detect_topology(comm, emulated(w.size)), ho);
  const std::string path = scratch("altered");
  hpart::write_grid_partition_h5(comm, path, lg.grid, hp);
  // One cell moved to another part in /parts: still valid ids, but not the locator's partition.
  edit_on_rank0(path, [&](hid_t f) {
    const hid_t ds = H5Dopen2(f, "/parts", H5P_DEFAULT);
    const hid_t space = H5Dget_space(ds);
    const hsize_t start[2] = {20, 24}, one[2] = {1, 1};
    H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, one, nullptr);
    const hid_t mem = H5Screate_simple(2, one, nullptr);
    const int moved = (hp.part_of({24, 20, 0, 0}) + 1) % hp.num_parts;
    ASSERT_GE(H5Dwrite(ds, H5T_NATIVE_INT, mem, space, H5P_DEFAULT, &moved), 0);
    H5Sclose(mem);
    H5Sclose(space);
    H5Dclose(ds);
  });
  hpart::testing::expect_error_everywhere([&] { (void)hpart::read_hier_grid_partition_h5(comm, path, field.grid); },
                                          "/locator: the saved locator does not give every cell its part in /parts",
                                          hpart::ErrorCode::io);
  // The hierarchy without /locator: no layout to infer, and the message says why (one node is a
  // plain Hilbert split, which reads back inferred).
  if (w.size == 1) return;
  hpart::write_grid_partition_h5(comm, path, lg.grid, hp);
  edit_on_rank0(path, [](hid_t f) { ASSERT_GE(H5Ldelete(f, "/locator", H5P_DEFAULT), 0); });
  hpart::testing::expect_error_everywhere([&] { (void)hpart::read_hier_grid_partition_h5(comm, path, field.grid); },
                                          "it has no /locator", hpart::ErrorCode::unsupported);
  MPI_Barrier(w.comm);
}

}  // namespace
