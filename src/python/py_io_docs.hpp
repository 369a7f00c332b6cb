#pragma once
// The docstrings of the file bindings (py_io.cpp): numpy style, an example each. Kept apart so
// that py_io.cpp holds the argument handling only.

namespace hpart::python::io_docs {

inline constexpr const char* kReadPointsText = R"doc(Read a text point file, one point per line `x y [z] [w]` (blanks or commas; '#', '%' comments).

Collective; each rank parses the lines starting in its 1/R-th of the bytes, so rank r gets the
points after those of ranks < r, in file order. A malformed file raises the same hpart.Error
(code io, naming the line) on every rank.

Parameters
----------
path : str or os.PathLike, the same on every rank
dim : int, 0 (default: from the column count; 2: x y, 3: x y z, 4: x y z w) or 2 or 3 (that
      many coordinates, then an optional weight)
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.PointFile: .coords, .weights (or None), .ids (position in the file), .global_count

Example
-------
>>> f = hpart.read_points_text("pts.txt", dim=2)
>>> p = hpart.partition_points(f.coords, parts=16, weights=f.weights, ids=f.ids)
)doc";

inline constexpr const char* kReadPointsH5 = R"doc(Read an HDF5 point set (parallel HDF5): /points (N x dim), optional /weights and /ids.

Collective; rank r receives rows [N r / R, N (r + 1) / R). hpart.Error(unsupported) when hpart
was built without HDF5.

Parameters
----------
path : str or os.PathLike, the same on every rank
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.PointFile: .coords, .weights (or None), .ids, .global_count

Example
-------
>>> f = hpart.read_points_h5("pts.h5")
>>> p = hpart.partition_points(f.coords, parts=16, ids=f.ids)
)doc";

inline constexpr const char* kReadPartsH5 = R"doc(Read a 1-D integer dataset of parts, as write_partition_h5 writes it.

Collective; rank r gets rows [N r / R, N (r + 1) / R), the blocks read_points_h5 gives.

Parameters
----------
path : str or os.PathLike, the same on every rank
dataset : str, the dataset's path in the file (default "/parts")
comm : mpi4py.MPI.Comm, optional

Returns
-------
numpy.ndarray, int32 (n,)

Example
-------
>>> parts = hpart.read_parts_h5("parts.h5")
)doc";

inline constexpr const char* kReadGridCostH5 = R"doc(Read a grid cost field: `dataset` is 2-D (ny x nx) or 3-D (nz x ny x nx), C order.

Collective. Rank r holds the slab [n r / R, n (r + 1) / R) of the slowest dimension (as
hpart.slab_of).

Parameters
----------
path : str or os.PathLike, the same on every rank
dataset : str, the dataset's path in the file (default "/cost")
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.Grid whose .cost is a float64 array shaped (z, y, x) like .local: it goes straight into
hpart.partition_grid

Example
-------
>>> g = hpart.read_grid_cost_h5("grid.h5", "/cost")
>>> p = hpart.partition_grid(g, parts=32, method="sfc")
)doc";

inline constexpr const char* kWritePartsText = R"doc(Write one part id per line, the ranks' `parts` in rank order (METIS .part convention).

Collective.

Parameters
----------
path : str or os.PathLike, the same on every rank
parts : int32 (n,), this rank's parts
comm : mpi4py.MPI.Comm, optional

Example
-------
>>> hpart.write_parts_text("pts.part", p.parts)
)doc";

inline constexpr const char* kWritePointsText = R"doc(Write the ranks' points (rank order) as read_points_text reads them.

Collective. One line `x y [z] [w]` a point, shortest round-trip numbers.

Parameters
----------
path : str or os.PathLike, the same on every rank
coords : float64 (n, 2) or (n, 3), this rank's points
weights : float64 (n,), optional
comm : mpi4py.MPI.Comm, optional

Example
-------
>>> hpart.write_points_text("pts.txt", xyz, weights=w)
)doc";

inline constexpr const char* kWritePointsH5 = R"doc(Write a point set to HDF5 (/points, /weights, /ids) plus its XDMF file.

Collective; reads back with read_points_h5 bit for bit.

Parameters
----------
path : str or os.PathLike, the same on every rank
coords : float64 (n, 2) or (n, 3), this rank's points (rank order in the file)
weights : float64 (n,) or (n, ncon), optional
ids : int64 or int32 (n,), optional (used in place)
comm : mpi4py.MPI.Comm, optional

Example
-------
>>> hpart.write_points_h5("pts.h5", xyz)
)doc";

inline constexpr const char* kWritePartitionH5 = R"doc(Write a point partition to HDF5, with an XDMF file coloured by part.

Collective. /parts (int32, rank order), /part_weights, /part_sizes, the metrics as attributes,
optional /ids and (with coords) /points and /weights.

Parameters
----------
path : str or os.PathLike, the same on every rank
partition : hpart.Partition
ids : int64 (n,), optional
coords : float64 (n, 2) or (n, 3), optional (for the XDMF picture)
weights : float64 (n,) or (n, ncon), optional (with coords)
comm : mpi4py.MPI.Comm, optional

Example
-------
>>> hpart.write_partition_h5("parts.h5", p, coords=xyz)      # then: paraview parts.xmf
)doc";

inline constexpr const char* kWriteGridPartitionH5 = R"doc(Write a grid partition to HDF5, with an XDMF file.

Collective. /parts (shaped like the grid, z y x), /cost when the grid has one (reads back with
read_grid_cost_h5), /boxes (K x 2 dim), tables and attributes.

Parameters
----------
path : str or os.PathLike, the same on every rank
grid : hpart.Grid the partition was made of
partition : hpart.GridPartition
comm : mpi4py.MPI.Comm, optional

Example
-------
>>> hpart.write_grid_partition_h5("grid.h5", grid, p)
)doc";

inline constexpr const char* kWritePartitionPng = R"doc(Draw the points coloured by part into a PNG on rank 0.

Collective. Parts that touch get different colours; 3-D points are shown as sections through 4
slabs of their thinnest axis, each panel labelled. With a title or legend lines, a header shows
them and, for up to 32 parts, a swatch per part. The same picture for any number of ranks.
hpart.Error(unsupported) when hpart was built without PNG.

Parameters
----------
path : str or os.PathLike, the same on every rank
coords : float64 (n, 2) or (n, 3), this rank's points
parts : int32 (n,)
num_parts : int
max_side : int, the drawing's longer side in pixels (default 1024)
title : str, a line above the drawing (default: none)
legend : list of str, lines under the title (default: none)
comm : mpi4py.MPI.Comm, optional

Example
-------
>>> hpart.write_partition_png("pts.png", xyz, p.parts, p.num_parts, max_side=512,
...                           title="pts.txt, 16 parts", legend=[f"imbalance {p.imbalance[0]:.3f}"])
)doc";

inline constexpr const char* kWriteGridPartitionPng = R"doc(Draw a grid partition into a PNG on rank 0.

Collective. The grid fills the drawing, parts coloured so that touching ones differ, thin dark lines
between parts and, given node_of_part, thick black lines between parts on different nodes (a
hierarchical partition: node_of_part=p.node_of_part). 3-D: sections through 4 cell layers of the
thinnest axis, each panel labelled. Title and legend as for write_partition_png.

Parameters
----------
path : str or os.PathLike, the same on every rank
grid : hpart.Grid the partition was made of
partition : hpart.GridPartition
max_side : int, the drawing's longer side in pixels (default 1024)
title : str, a line above the drawing (default: none)
legend : list of str, lines under the title (default: none)
node_of_part : list of int, the node of every part (default: no node lines)
comm : mpi4py.MPI.Comm, optional

Example
-------
>>> hpart.write_grid_partition_png("grid.png", grid, p, title="hier, 2 nodes", node_of_part=p.node_of_part)
)doc";

inline constexpr const char* kXdmfPath = R"doc(The XDMF file the HDF5 writers put next to `path` (its extension replaced by .xmf).

Not collective.

Parameters
----------
path : str, the HDF5 file

Returns
-------
str

Example
-------
>>> hpart.xdmf_path("out/parts.h5")          # 'out/parts.xmf'
)doc";

}  // namespace hpart::python::io_docs
