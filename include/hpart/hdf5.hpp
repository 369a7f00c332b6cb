#pragma once
// Parallel HDF5 files for point sets, grid cost fields and partitions. Every function is
// collective over `comm`: the file is opened with MPI-IO (H5Pset_fapl_mpio on comm), every rank
// reads or writes only its own hyperslab with collective transfers, and any problem (missing
// file or dataset, wrong shape, non-finite value, truncated file) throws the same hpart::Error on
// every rank, naming the file, the dataset and the row or cell. No dataset is ever read whole on
// one rank. Ranks with no rows (fewer rows than ranks) take part in every transfer with an empty
// selection. The path and dataset names are compared across ranks before the file is opened, and
// the memory a read needs on each rank (from the datasets' declared shapes, which a chunked file
// can make arbitrarily large in a few bytes) is checked before it is allocated (budget:
// HPART_MEMORY_LIMIT, else the node's available memory shared by its ranks). Writers also produce an XDMF file next to the HDF5 file (same name, extension .xmf),
// so ParaView or VisIt open the decomposition directly.
#include <span>
#include <string>
#include <vector>

#include "hpart/comm.hpp"
#include "hpart/grid.hpp"
#include "hpart/hierarchy.hpp"
#include "hpart/io.hpp"
#include "hpart/partition.hpp"
#include "hpart/point_set.hpp"
#include "hpart/types.hpp"

namespace hpart {

// Reads a point set: `/points` (N x dim, dim 2 or 3), optional `/weights` (N, or N x ncon: the
// first column is the balanced weight, as PointFile holds one weight per point) and optional
// `/ids` (N integers in [0, 2^63 - 1], of any integer type up to 64 bits, read exactly: unsigned
// 64-bit ids of 2^63 and above, negative ids and floating-point ids are errors naming the row;
// default: the row index). Numeric datasets of any integer or float type are converted to double. Rank r receives rows [N r / R, N (r + 1) / R). Coordinates must be
// finite, weights finite and >= 0, and N >= 1.
PointFile read_points_h5(const Comm& comm, const std::string& path);

// Reads a part file written by write_partition_h5 (or any 1D integer dataset): rank r receives
// rows [N r / R, N (r + 1) / R) of `dataset`, the same blocks read_points_h5 gives. Values must
// fit a part_t (32-bit); a wider one is an error naming the row, never clamped.
std::vector<part_t> read_parts_h5(const Comm& comm, const std::string& path, const std::string& dataset = "/parts");

// A grid with its cost field, read from a file. `grid.cost` views `cost`; the struct is move-only
// and moving it re-points the view, so it never dangles.
struct GridField {
  Grid grid;
  std::vector<double> cost;  // grid.local.volume() values, row-major over grid.local, x fastest

  GridField() = default;
  GridField(const GridField&) = delete;
  GridField& operator=(const GridField&) = delete;
  GridField(GridField&& other) noexcept;
  GridField& operator=(GridField&& other) noexcept;
  ~GridField() = default;
};

// Reads a cost field: `dataset` is 2D (ny x nx) or 3D (nz x ny x nx) in C order, so x is the
// fastest index. Rank r holds the slab [n r / R, n (r + 1) / R) of the slowest dimension (y in
// 2D, z in 3D) and every cell of the others; a rank may hold none. Costs must be finite, >= 0,
// and the extents those partition_grid accepts.
// The result goes straight into partition_grid(comm, field.grid, opts).
GridField read_grid_cost_h5(const Comm& comm, const std::string& path, const std::string& dataset = "/cost");

// The XDMF file written next to an HDF5 file: `path` with its extension replaced by .xmf.
std::string xdmf_path(const std::string& path);

// Writes a point set, replacing `path`: /points (double, N x dim, the ranks' points in rank
// order), /weights (double, N when ncon is 1, else N x ncon; only when weighted) and /ids (int64,
// N; only when points.ids is given), plus the XDMF file xdmf_path(path) (a Polyvertex mesh).
// The file reads back with read_points_h5, every value bit for bit. Ranks may hold no points;
// those that hold some must pass the same dim and ncon, and give weights and ids alike.
void write_points_h5(const Comm& comm, const std::string& path, const PointSet& points);

// Writes a point partition, replacing `path`:
//   /parts         int32, N: the ranks' p.parts in rank order (row i = object i of that order,
//                  as write_parts_text numbers lines)
//   /part_weights  double, K x ncon;  /part_sizes int64, K
//   attributes on /: num_parts (int32), ncon (int32), objects (int64), empty_parts (int64),
//                  imbalance (double, ncon values)
//   /ids           int64, N (when `ids` is not empty: one per local object)
//   /points        double, N x dim, and /weights (as write_points_h5 writes it, when weighted),
//                  when `points` is given on every rank (its size must match p.parts; its own
//                  ids are not written, pass them as `ids`); the file then reads back with
//                  read_points_h5, and an XDMF file (xdmf_path(path)) shows the points as a
//                  Polyvertex mesh coloured by `parts` (and `weight`).
// Every rank passes the same partition summary (num_parts and ncon are compared; rank 0 writes
// the per-part tables), and ids on every rank holding objects or on none; ranks may hold none.
void write_partition_h5(const Comm& comm, const std::string& path, const Partition& p,
                        std::span<const gid_t> ids = {}, const PointSet* points = nullptr);

// Writes a grid partition, replacing `path`:
//   /parts         int32, ny x nx or nz x ny x nx (C order, x fastest): each rank writes its
//                  grid.local box
//   /cost          double, same shape, when grid.cost is given (reads back with read_grid_cost_h5)
//   /boxes         int64, K x 2 dim: lo_x lo_y [lo_z] hi_x hi_y [hi_z], inclusive (an empty part
//                  has hi < lo)
//   /locator       uint8: the partition's locator as text, the form PartitionMap::save writes for
//                  a grid (docs/assign.md: sfc splitters, cut tree, tensor starts, a hierarchy's
//                  node level and each node's parts), O(K) bytes; absent for a hand-made
//                  partition without a locator
//   /part_weights, /part_sizes and the attributes of write_partition_h5, plus extent (int64,
//                  x y [z]) and box_shaped (int32)
// and the XDMF file xdmf_path(path): a 2DCoRectMesh / 3DCoRectMesh of unit cells with the
// cell-centred attributes `parts` (and `cost`).
void write_grid_partition_h5(const Comm& comm, const std::string& path, const Grid& grid, const GridPartition& p);
// A hierarchical partition (partition_grid_hierarchical) adds its levels:
//   /node_of_part  int32, K: the node of every part (what the internode halo is measured by)
//   /owner_of_part int32, K: the rank of every part, in the communicator that wrote the file
//                  (its size: the attribute owner_ranks)
//   /node_boxes    int64, nodes x 2 dim: the node-level boxes (staircase: bounding boxes)
void write_grid_partition_h5(const Comm& comm, const std::string& path, const Grid& grid, const HierGridPartition& p);

// Reads a grid partition written by write_grid_partition_h5 back onto `grid`, a grid of the
// same extent whose cells the ranks hold in any distribution (read_grid_cost_h5's, say, of the
// file's own /cost): the parts of grid.local's cells from /parts, the boxes from /boxes, the
// metrics recomputed from grid.cost (evaluate_partition; empty cost: unit), and a locator, so the
// result serves grid_neighbours, write_grid_partition_png, map_of and repartition_grid like
// partition_grid's. The locator: a cut tree for box-shaped parts that guillotine cuts separate
// (blocks: the saved tree itself; tensor, uniform: one rebuilt from the boxes, so that
// repartition_grid can move their planes), else the saved /locator (sfc, hierarchies); a file
// without one (written before hpart saved it) gets Hilbert or Morton splitters when its parts
// are curve ranges. Whichever it is, it is checked against every cell's part in /parts.
// K is the rows of /boxes (num_parts > 0 must equal it).
// Errors, the same on every rank: shapes that do not fit the grid, part ids outside [0, K), a
// /locator that does not parse or does not give every cell its part, and (unsupported) other
// layouts without a /locator.
GridPartition read_grid_partition_h5(const Comm& comm, const std::string& path, const Grid& grid, int num_parts = 0);
// The same, with a hierarchical partition's levels (node_of_part, node_boxes, owner_of_part)
// when the file has them, and empty levels when it holds a flat partition. owner_of_part names
// ranks of the communicator that wrote the file, so it is filled only when `comm` has as many
// ranks (then map_of and Migration take it); read on another count it is empty (default owners).
HierGridPartition read_hier_grid_partition_h5(const Comm& comm, const std::string& path, const Grid& grid,
                                              int num_parts = 0);

}  // namespace hpart
