// hpart.Box, hpart.Grid, hpart.partition_grid, hpart.repartition_grid, hpart.grid_neighbours
// (hpart/box.hpp, hpart/grid.hpp).
#include "hpart/grid.hpp"

#include "python/py_grid.hpp"
#include "python/py_options.hpp"

namespace hpart::python {

Cell cell_of(Args& args, const py::handle& v, int dim, const char* name) {
  Cell c{};
  if (!py::isinstance<py::sequence>(v) || py::isinstance<py::str>(v)) {
    args.need(false, std::string(name) + " must be a sequence of " + std::to_string(dim) + " ints");
    return c;
  }
  const auto s = py::reinterpret_borrow<py::sequence>(v);
  if (static_cast<int>(s.size()) != dim) {
    args.need(false, std::string(name) + " has " + std::to_string(s.size()) + " values, expected " + std::to_string(dim));
    return c;
  }
  for (int d = 0; d < dim; ++d) c[static_cast<std::size_t>(d)] = value_of<std::int64_t>(args, s[static_cast<std::size_t>(d)], name);
  return c;
}

namespace {

// The number of values of a sequence argument (0 for anything else).
int length_of(const py::handle& v) {
  return py::isinstance<py::sequence>(v) && !py::isinstance<py::str>(v) ? static_cast<int>(py::len(v)) : 0;
}

// A grid's extent: 2 or 3 ints (dim 2 after recording a problem).
Cell extent_of(Args& args, const py::handle& extent, int& dim) {
  const int n = length_of(extent);
  args.need(n == 2 || n == 3, "grid extent must be 2 or 3 ints (x, y[, z]), got " + py::repr(extent).cast<std::string>());
  dim = n == 3 ? 3 : 2;
  Cell e = cell_of(args, extent, dim, "grid extent");
  if (dim == 2) e[2] = 1;
  return e;
}

}  // namespace

Grid grid_of(Args& args, const PyGrid& g) {
  Grid grid;
  const Cell e = extent_of(args, g.extent, grid.dim);
  for (int d = 0; d < 3; ++d) grid.extent[static_cast<std::size_t>(d)] = e[static_cast<std::size_t>(d)];
  const Box* local = bound_of<Box>(args, g.local, "grid.local", "hpart.Box");
  if (local == nullptr) return grid;
  args.need(local->dim == grid.dim && local->order == AxisOrder::x_fastest,
            "grid.local has " + std::to_string(local->dim) + " axes, the grid " + std::to_string(grid.dim));
  grid.local = *local;
  if (g.cost.is_none()) return grid;
  // The cost is flat (local.volume() values) or shaped like the local box in C order (z, y, x):
  // the same memory either way, x fastest.
  const bool shaped = py::isinstance<py::array>(g.cost) && py::reinterpret_borrow<py::array>(g.cost).ndim() == grid.dim;
  grid.cost = args.array<double>(g.cost, "cost", shaped ? grid.dim : 1);
  if (shaped && args.ok()) {
    const auto a = py::reinterpret_borrow<py::array>(g.cost);
    bool same = true;
    for (int d = 0; d < grid.dim; ++d) same = same && a.shape(grid.dim - 1 - d) == grid.local.size(d);
    args.need(same, "cost has shape " + py::str(a.attr("shape")).cast<std::string>() +
                        ", expected the local box's (z, y, x) extents or local.volume() values");
  }
  return grid;
}

Grid grid_arg(Args& args, const py::handle& grid, const char* name) {
  const PyGrid* pg = bound_of<PyGrid>(args, grid, name, "hpart.Grid");
  return pg ? grid_of(args, *pg) : Grid{};
}

py::list boxes_to_list(const std::vector<Box>& boxes) {
  py::list l;
  for (const Box& b : boxes) l.append(py::cast(b));
  return l;
}

namespace {

py::tuple axes_of(const std::array<std::int64_t, kMaxBoxDim>& v, int dim) {
  py::tuple t(static_cast<std::size_t>(dim));
  for (int d = 0; d < dim; ++d) t[static_cast<std::size_t>(d)] = v[static_cast<std::size_t>(d)];
  return t;
}

void bind_box(py::module_& m) {
  py::enum_<AxisOrder>(m, "AxisOrder", "What a box's axes are: grid order (x fastest) or tensor order (last fastest).")
      .value("x_fastest", AxisOrder::x_fastest, "grids and patches: axis 0 = x, 1 = y, 2 = z")
      .value("last_fastest", AxisOrder::last_fastest, "tensors: N, C, D, H, W, the last fastest");
  py::class_<Box>(m, "Box", R"doc(A box of integer cells with inclusive bounds lo..hi per axis (hpart::Box).

The shape of a grid part, an AMR patch and a tensor shard. Empty when some axis has hi < lo.

Example
-------
>>> b = hpart.Box((0, 0), (9, 4))      # 10 x 5 cells
>>> b.volume(), b.contains((3, 4)), b.grown(1)
)doc")
      .def(py::init([](const std::vector<std::int64_t>& lo, const std::vector<std::int64_t>& hi, AxisOrder order) {
             if (lo.size() != hi.size() || lo.empty() || lo.size() > static_cast<std::size_t>(kMaxBoxDim))
               throw Error(ErrorCode::invalid_argument,
                           "hpart.Box: lo and hi need the same number of values, 1 to " + std::to_string(kMaxBoxDim));
             Box b;
             b.dim = static_cast<int>(lo.size());
             b.order = order;
             for (std::size_t d = 0; d < lo.size(); ++d) b.lo[d] = lo[d], b.hi[d] = hi[d];
             return b;
           }),
           py::arg("lo"), py::arg("hi"), py::arg("order") = AxisOrder::x_fastest)
      .def_static(
          "from_extent",
          [](const std::vector<std::int64_t>& extent) {
            if (extent.empty() || extent.size() > static_cast<std::size_t>(kMaxBoxDim))
              throw Error(ErrorCode::invalid_argument, "hpart.Box.from_extent: 1 to 5 extents");
            std::array<std::int64_t, kMaxBoxDim> e{};
            for (std::size_t d = 0; d < extent.size(); ++d) e[d] = extent[d];
            return Box::from_extent(static_cast<int>(extent.size()), e);
          },
          py::arg("extent"), "The box [0, extent) (grid order).")
      .def_static("none", [](int dim) { return Box::none(dim); }, py::arg("dim"), "The canonical empty box.")
      .def_readonly("dim", &Box::dim)
      .def_readonly("order", &Box::order)
      .def_property_readonly("lo", [](const Box& b) { return axes_of(b.lo, b.dim); }, "first cell per axis")
      .def_property_readonly("hi", [](const Box& b) { return axes_of(b.hi, b.dim); }, "last cell per axis (inclusive)")
      .def("empty", &Box::empty)
      .def("volume", &Box::volume)
      .def("size", &Box::size, py::arg("axis"), "cells along one axis (0 where hi < lo)")
      .def("extents", [](const Box& b) { return axes_of(b.extents(), b.dim); })
      .def(
          "contains",
          [](const Box& b, const py::object& cell) {
            Args args("hpart.Box.contains");
            const Cell c = cell_of(args, cell, b.dim, "cell");
            args.local();
            return b.contains(c);
          },
          py::arg("cell"))
      .def("grown", &Box::grown, py::arg("width"), "the box grown by `width` cells on every side")
      .def("intersect", &Box::intersect, py::arg("other"))
      .def("same_cells", &Box::same_cells, py::arg("other"))
      .def("__eq__", [](const Box& a, const Box& b) { return a == b; })
      .def("__hash__", [](const Box& b) { return py::hash(py::make_tuple(b.dim, axes_of(b.lo, b.dim), axes_of(b.hi, b.dim))); })
      .def("__repr__", [](const Box& b) { return "Box(" + b.str() + ")"; });
}

void bind_grid_class(py::module_& m) {
  py::class_<PyGrid>(m, "Grid", R"doc(A structured grid of dim 2 or 3 (hpart::Grid): the cells this rank holds and their cost.

Parameters
----------
extent : cells per dimension, (nx, ny) or (nx, ny, nz)
local : hpart.Box, this rank's cells (the ranks' boxes are disjoint and cover the grid; an
        empty box holds none). hpart.slab_of(extent, comm) gives the usual slab split.
cost : float64 numpy array, optional: local.volume() values, or shaped (z, y, x) like the
       local box, C order, x fastest (not copied; unit cost when None)

extent, local and cost are checked when a collective call uses the grid, so a bad one on one
rank is every rank's hpart.Error there. `grid.cost = new_cost` updates the cost for a repartition.

Example
-------
>>> g = hpart.Grid((256, 128), hpart.slab_of((256, 128)))
>>> p = hpart.partition_grid(g, parts=16)
)doc")
      .def(py::init([](const IntsArg& extent, const BoxArg& local, const ArrayArg& cost) {
             // A snapshot of a list extent (a later change of the list does not change the grid).
             return PyGrid{length_of(extent) > 0 ? py::tuple(extent.value) : extent.value, local.value, cost.value};
           }),
           py::arg("extent"), py::arg("local"), py::arg("cost") = py::none())
      .def_property_readonly("dim", [](const PyGrid& g) { return length_of(g.extent); })
      .def_readonly("extent", &PyGrid::extent)
      .def_readwrite("local", &PyGrid::local)
      .def_readwrite("cost", &PyGrid::cost)
      .def(
          "domain",
          [](const PyGrid& g) {
            Args args("hpart.Grid.domain");
            int dim = 0;
            const Cell e = extent_of(args, g.extent, dim);
            args.local();
            return Box::from_extent(dim, {e[0], e[1], e[2], 1, 1});
          },
          "The box [0, extent) of the whole grid. Not collective.")
      .def("__repr__", [](const PyGrid& g) {
        return "Grid(extent=" + py::repr(g.extent).cast<std::string>() + ", local=" + py::repr(g.local).cast<std::string>() +
               (g.cost.is_none() ? ", unit cost)" : ", cost)");
      });
  m.def(
      "slab_of",
      [](const std::vector<std::int64_t>& extent, const CommArg& comm) {
        const Comm c = comm_of(comm, "hpart.slab_of");
        const int dim = static_cast<int>(extent.size());
        if (dim < 2 || dim > 3) throw Error(ErrorCode::invalid_argument, "hpart.slab_of: extent must have 2 or 3 values");
        Box b = Box::from_extent(dim, {extent[0], extent[1], dim > 2 ? extent[2] : 1, 1, 1});
        const std::int64_t n = extent[static_cast<std::size_t>(dim - 1)];
        b.lo[static_cast<std::size_t>(dim - 1)] = n * c.rank() / c.size();
        b.hi[static_cast<std::size_t>(dim - 1)] = n * (c.rank() + 1) / c.size() - 1;
        return b;
      },
      py::arg("extent"), py::kw_only(), py::arg("comm") = py::none(),
      R"doc(This rank's slab of a grid: every cell of the fast dimensions, layers [n r / R, n (r + 1) / R)
of the slowest (y in 2D, z in 3D).

The split hpart.read_grid_cost_h5 and the `hpart grid` command use. Not collective (the rank
and size of `comm` only).

Parameters
----------
extent : cells per dimension, (nx, ny) or (nx, ny, nz)
comm : mpi4py.MPI.Comm, optional (default MPI.COMM_WORLD)

Returns
-------
hpart.Box: this rank's cells (empty when the slowest dimension has fewer layers than ranks)

Example
-------
>>> hpart.slab_of((64, 64, 32))   # on rank 1 of 4: Box([0..63, 0..63, 8..15])
)doc");
}

std::array<int, 3> shape_of(Args& args, const py::object& v) {
  std::array<int, 3> s{0, 0, 0};
  if (!py::isinstance<py::sequence>(v) || py::isinstance<py::str>(v) || py::len(v) > 3) {
    args.need(false, "shape must be a sequence of up to 3 ints (parts per dimension)");
    return s;
  }
  const auto seq = py::reinterpret_borrow<py::sequence>(v);
  for (std::size_t d = 0; d < seq.size(); ++d) s[d] = value_of<int>(args, seq[d], "shape");
  return s;
}

void bind_grid_partition(py::module_& m) {
  py::class_<GridPartition, Partition>(m, "GridPartition",
                                       "A grid partition: hpart.Partition of the local cells (row-major over\n"
                                       "grid.local, x fastest) plus the part boxes and a locator for any cell.")
      .def_property_readonly("boxes", [](const GridPartition& p) { return boxes_to_list(p.boxes); },
                             "per part: its box (box-shaped methods) or its cells' bounding box (sfc)")
      .def_readonly("box_shaped", &GridPartition::box_shaped, "each part is exactly its box")
      .def_property_readonly("shape", [](const GridPartition& p) { return py::make_tuple(p.shape[0], p.shape[1], p.shape[2]); },
                             "tensor/uniform: the parts per dimension used")
      .def(
          "part_of",
          [](const GridPartition& p, const IntsArg& cell) {
            Args args("hpart.GridPartition.part_of");
            const Cell c = cell_of(args, cell, p.boxes.empty() ? 0 : p.boxes[0].dim, "cell");
            args.local();
            return p.part_of(c);
          },
          py::arg("cell"), "The part of any cell of the grid (x, y[, z]), on any rank, without communication.")
      .def(
          "parts_of",
          [](const GridPartition& p, const ArrayArg& cells) {
            const int dim = p.boxes.empty() ? 0 : p.boxes[0].dim;
            Args args("hpart.GridPartition.parts_of");
            const auto c = args.array<std::int64_t>(cells, "cells", 2, dim);
            args.local();
            std::vector<part_t> out(c.size() / static_cast<std::size_t>(dim > 0 ? dim : 1));
            {
              py::gil_scoped_release unlocked;
              for (std::size_t i = 0; i < out.size(); ++i) {
                Cell x{};
                for (int d = 0; d < dim; ++d) x[static_cast<std::size_t>(d)] = c[i * static_cast<std::size_t>(dim) + static_cast<std::size_t>(d)];
                out[i] = p.part_of(x);
              }
            }
            return to_numpy(std::move(out));
          },
          py::arg("cells"), "part_of for an int64 (n, dim) array of cells: int32 (n,). Not collective.");
  bind_repartition<GridPartition>(m, "GridRepartition",
                                  "hpart.repartition_grid's result: a GridPartition plus what moved.");
  py::class_<PartNeighbour>(m, "PartNeighbour", "A part in contact with another (hpart::PartNeighbour).")
      .def_readonly("part", &PartNeighbour::part)
      .def_readonly("halo_cells", &PartNeighbour::halo_cells, "cells of `part` in the other part's halo")
      .def_readonly("contact", &PartNeighbour::contact, "1 face, 2 edge, 3 corner")
      .def("__repr__", [](const PartNeighbour& n) {
        return "PartNeighbour(part=" + std::to_string(n.part) + ", halo_cells=" + std::to_string(n.halo_cells) +
               ", contact=" + std::to_string(n.contact) + ")";
      });
  py::class_<GridNeighbours>(m, "GridNeighbours", "Per part, its neighbour parts within the halo (global).")
      .def_readonly("of_part", &GridNeighbours::of_part, "per part: list of PartNeighbour, by neighbour id")
      .def_readonly("halo_volume", &GridNeighbours::halo_volume, "total cells received over all parts");
}

void def_partition_grid(py::module_& m) {
  m.def(
      "partition_grid",
      [](const GridArg& grid, const IntArg& parts, const NameArg& method, const NameArg& curve,
         const FloatArg& imbalance, const IntsArg& shape, const ArrayArg& target_sizes, const NameArg& preset,
         const CommArg& comm) {
        const char* fn = "hpart.partition_grid";
        const Comm c = comm_of(comm, fn);
        Args args(fn);
        const Grid g = grid_arg(args, grid);
        auto opts = options_of<GridOptions>(args, parts, preset);
        set_enum(args, method, "method", opts.method, grid_method_from_string);
        set_enum(args, curve, "curve", opts.curve, curve_from_string);
        set_value(args, imbalance, "imbalance", opts.imbalance);
        if (!shape.is_none()) opts.shape = shape_of(args, shape);
        opts.target_sizes = args.array<double>(target_sizes, "target_sizes", 1, 0, true);
        args.agreed(c);
        py::gil_scoped_release unlocked;
        return partition_grid(c, g, opts);
      },
      py::arg("grid"), py::arg("parts"), py::kw_only(), py::arg("method") = py::none(), py::arg("curve") = py::none(),
      py::arg("imbalance") = py::none(), py::arg("shape") = py::none(), py::arg("target_sizes") = py::none(),
      py::arg("preset") = py::none(), py::arg("comm") = py::none(),
      R"doc(Partition a structured grid's cells into `parts` parts, balanced by cost.

Collective over `comm` (an mpi4py communicator; default MPI.COMM_WORLD). Each rank passes the
cells it holds (grid.local, with grid.cost); the parts do not depend on that split.

Parameters
----------
grid : hpart.Grid (extent, this rank's box, optional float64 cost)
parts : int, K >= 1
method : "blocks" (default: near-cubic boxes), "sfc" (curve ranges, exact balance),
         "tensor" (Px x Py [x Pz] boxes), "uniform" (equal widths, cost ignored), or hpart.GridMethod
curve : sfc: "hilbert" (default) or "morton"
imbalance : sfc: splitter tolerance (default 0.001)
shape : tensor/uniform: parts per dimension, e.g. (4, 2); default near-cubic (product = parts)
target_sizes : float64 (parts,), optional relative part sizes (sfc, blocks)
preset : "fast", "standard" or "strong" (options below it override the preset's)
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.GridPartition: .parts (int32 per local cell, row-major over grid.local, x fastest),
.boxes, .box_shaped, .shape, .part_of(cell) for any cell, .metrics

Example
-------
>>> import numpy as np, hpart
>>> extent = (128, 64)
>>> local = hpart.slab_of(extent)
>>> cost = np.ones((local.size(1), local.size(0)))     # (y, x) of the local box
>>> p = hpart.partition_grid(hpart.Grid(extent, local, cost), parts=8, method="blocks")
>>> p.boxes[0], p.part_of((5, 7)), p.metrics.imbalance
)doc");
}

}  // namespace

void bind_grid(py::module_& m) {
  bind_box(m);
  bind_grid_class(m);
  bind_grid_partition(m);
  py::enum_<GridMethod>(m, "GridMethod", "How partition_grid cuts a grid.")
      .value("sfc", GridMethod::sfc, "curve ranges of cells balanced by cost; parts are not boxes")
      .value("blocks", GridMethod::blocks, "recursive bisection: near-cubic boxes (default)")
      .value("tensor", GridMethod::tensor, "a Px x Py (x Pz) tensor product, each dimension balanced")
      .value("uniform", GridMethod::uniform, "equal-width tensor product, cost ignored");
  def_partition_grid(m);
  m.def(
      "repartition_grid",
      [](const GridArg& grid, const GridPartitionArg& previous, const ArrayArg& parts, const FloatArg& imbalance,
         const CommArg& comm) {
        const char* fn = "hpart.repartition_grid";
        const Comm c = comm_of(comm, fn);
        Args args(fn);
        const Grid g = grid_arg(args, grid);
        const GridPartition* prev = bound_of<GridPartition>(args, previous, "previous", "hpart.GridPartition");
        GridRepartOptions opts;
        opts.parts = prev ? prev->num_parts : 1;
        set_value(args, parts, "parts", opts.parts);
        set_value(args, imbalance, "imbalance", opts.imbalance);
        args.agreed(c);
        py::gil_scoped_release unlocked;
        return repartition_grid(c, g, *prev, opts);
      },
      py::arg("grid"), py::arg("previous"), py::kw_only(), py::arg("parts") = py::none(),
      py::arg("imbalance") = py::none(), py::arg("comm") = py::none(),
      R"doc(Rebalance a blocks grid partition after the costs moved, by moving its cut planes.

Collective. The cut tree stays (part ids keep their place); a plane moves only when its two
sides left their share of the tolerance, so a drift moves only the cells between old and new
planes. Falls back to a fresh blocks partition when the tree no longer fits (.from_scratch).

Parameters
----------
grid : hpart.Grid with the current costs (any distribution of the cells)
previous : hpart.GridPartition of method "blocks" (or an earlier repartition) of this grid
parts : int, default previous.num_parts
imbalance : extra max/mean - 1 the kept planes may add (default 0.02)
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.GridRepartition: a GridPartition plus .migrated (cells and cost that changed part),
.steps (cut planes moved), .from_scratch

Example
-------
>>> p = hpart.partition_grid(grid, parts=8)
>>> grid.cost = new_cost
>>> r = hpart.repartition_grid(grid, p)
>>> r.migrated.objects, r.steps
)doc");
  m.def(
      "grid_neighbours",
      [](const GridArg& grid, const GridPartitionArg& partition, const IntArg& halo, const CommArg& comm) {
        const char* fn = "hpart.grid_neighbours";
        const Comm c = comm_of(comm, fn);
        Args args(fn);
        const Grid g = grid_arg(args, grid);
        const GridPartition* p = bound_of<GridPartition>(args, partition, "partition", "hpart.GridPartition");
        const int width = value_of<int>(args, halo, "halo");
        args.agreed(c);
        py::gil_scoped_release unlocked;
        return grid_neighbours(c, g, *p, width);
      },
      py::arg("grid"), py::arg("partition"), py::kw_only(), py::arg("halo") = 1, py::arg("comm") = py::none(),
      R"doc(The neighbour parts of every part of a grid partition within `halo` cells (corners included).

Collective; the result is global (the same on every rank).

Parameters
----------
grid : hpart.Grid the partition was made of
partition : hpart.GridPartition
halo : int, the ghost layer width (default 1)
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.GridNeighbours: .of_part[p] lists hpart.PartNeighbour(part, halo_cells, contact) sorted by
part; .halo_volume is the total halo cells received (the communication volume of a stencil code)

Example
-------
>>> n = hpart.grid_neighbours(grid, p, halo=1)
>>> [q.part for q in n.of_part[0]], n.halo_volume
)doc");
  m.def(
      "tensor_shape",
      [](int dim, const std::vector<std::int64_t>& extent, int parts) {
        std::array<std::int64_t, 3> e{1, 1, 1};
        for (std::size_t d = 0; d < extent.size() && d < 3; ++d) e[d] = extent[d];
        const auto s = tensor_shape(dim, e, parts);
        return py::make_tuple(s[0], s[1], s[2]);
      },
      py::arg("dim"), py::arg("extent"), py::arg("parts"),
      R"doc(The near-cubic tensor shape for `parts` blocks of a grid: the parts per dimension.

What partition_grid's "tensor" and "uniform" methods use when no shape is given. Not collective.

Parameters
----------
dim : int, 2 or 3
extent : cells per dimension, (nx, ny) or (nx, ny, nz)
parts : int, the product of the shape

Returns
-------
tuple of 3 ints (1 for the axes past dim)

Example
-------
>>> hpart.tensor_shape(2, (256, 128), 8)     # (4, 2, 1)
)doc");
}

}  // namespace hpart::python
