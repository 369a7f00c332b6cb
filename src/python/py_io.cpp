// Parallel files (hpart/io.hpp, hpart/hdf5.hpp: point readers and writers, partition writers,
// pictures, grid cost fields) and evaluate_partition (hpart/partition.hpp). Every call is
// collective; the C++ functions compare paths and arguments across ranks themselves.
#include "hpart/hdf5.hpp"
#include "hpart/io.hpp"
#include "hpart/partition.hpp"
#include "python/py_grid.hpp"
#include "python/py_io_docs.hpp"

namespace hpart::python {

namespace {

// Runs a collective file call with the GIL released.
template <class F>
auto unlocked(F&& f) {
  py::gil_scoped_release released;
  return f();
}

// The start of every collective file call: the communicator, the call's Args and its path.
struct FileCall {
  FileCall(const char* fn, const py::object& comm, const py::object& path_arg)
      : c(comm_of(comm, fn)), args(fn), path(path_of(args, path_arg)) {}
  Comm c;
  Args args;
  std::string path;
};

// A grid and its partition (the grid partition writers).
struct GridAndPartition {
  Grid grid;
  const GridPartition* partition = nullptr;
};

GridAndPartition grid_partition_arg(Args& args, const py::object& grid, const py::object& partition) {
  return {grid_arg(args, grid), bound_of<GridPartition>(args, partition, "partition", "hpart.GridPartition")};
}

void bind_point_file(py::module_& m) {
  py::class_<PointFile>(m, "PointFile", R"doc(A point set read from a file: this rank's consecutive block of the file's points.

.coords float64 (n, dim), .weights float64 (n,) or None, .ids int64 (n,) (position in the file),
views of the object's memory (no copy); .dim, .weighted, .global_count.
)doc")
      .def_readonly("dim", &PointFile::dim)
      .def_readonly("weighted", &PointFile::weighted)
      .def_readonly("global_count", &PointFile::global_count, "points in the whole file")
      .def_property_readonly("coords", [](py::object self) {
        auto& f = self.cast<PointFile&>();
        return view_of(f.coords, self, f.dim);
      })
      .def_property_readonly("weights", [](py::object self) -> py::object {
        auto& f = self.cast<PointFile&>();
        if (!f.weighted) return py::none();
        return view_of(f.weights, self);
      })
      .def_property_readonly("ids", [](py::object self) { return view_of(self.cast<PointFile&>().ids, self); })
      .def("__len__", &PointFile::size)
      .def("__repr__", [](const PointFile& f) {
        return "PointFile(dim=" + std::to_string(f.dim) + ", local points=" + std::to_string(f.size()) +
               ", global_count=" + std::to_string(f.global_count) + (f.weighted ? ", weighted)" : ")");
      });
}

void bind_readers(py::module_& m) {
  m.def(
      "read_points_text",
      [](const PathArg& path, const IntArg& dim, const CommArg& comm) {
        FileCall f("hpart.read_points_text", comm, path);
        const int d = value_of<int>(f.args, dim, "dim");
        f.args.agreed(f.c);
        return unlocked([&] { return read_points_text(f.c, f.path, d); });
      },
      py::arg("path"), py::kw_only(), py::arg("dim") = 0, py::arg("comm") = py::none(),
      io_docs::kReadPointsText);
  m.def(
      "read_points_h5",
      [](const PathArg& path, const CommArg& comm) {
        FileCall f("hpart.read_points_h5", comm, path);
        f.args.agreed(f.c);
        return unlocked([&] { return read_points_h5(f.c, f.path); });
      },
      py::arg("path"), py::kw_only(), py::arg("comm") = py::none(),
      io_docs::kReadPointsH5);
  m.def(
      "read_parts_h5",
      [](const PathArg& path, const StrArg& dataset, const CommArg& comm) {
        FileCall f("hpart.read_parts_h5", comm, path);
        const auto ds = value_of<std::string>(f.args, dataset, "dataset");
        f.args.agreed(f.c);
        return to_numpy(unlocked([&] { return read_parts_h5(f.c, f.path, ds); }));
      },
      py::arg("path"), py::arg("dataset") = "/parts", py::kw_only(), py::arg("comm") = py::none(),
      io_docs::kReadPartsH5);
  m.def(
      "read_grid_cost_h5",
      [](const PathArg& path, const StrArg& dataset, const CommArg& comm) {
        FileCall call("hpart.read_grid_cost_h5", comm, path);
        const auto ds = value_of<std::string>(call.args, dataset, "dataset");
        call.args.agreed(call.c);
        GridField f = unlocked([&] { return read_grid_cost_h5(call.c, call.path, ds); });
        PyGrid g;
        g.extent = py::tuple(py::cast(std::vector<std::int64_t>(f.grid.extent.begin(), f.grid.extent.begin() + f.grid.dim)));
        g.local = py::cast(f.grid.local);
        // The cost array owns the field's vector (moved, no copy), shaped (z, y, x) like the box.
        std::vector<py::ssize_t> shape;
        for (int d = f.grid.dim - 1; d >= 0; --d) shape.push_back(f.grid.local.size(d));
        g.cost = to_numpy(std::move(f.cost)).attr("reshape")(py::tuple(py::cast(shape)));
        return g;
      },
      py::arg("path"), py::arg("dataset") = "/cost", py::kw_only(), py::arg("comm") = py::none(),
      io_docs::kReadGridCostH5);
}

void bind_writers(py::module_& m) {
  m.def(
      "write_parts_text",
      [](const PathArg& path, const ArrayArg& parts, const CommArg& comm) {
        FileCall f("hpart.write_parts_text", comm, path);
        Args& args = f.args;
        const auto p = args.array<part_t>(parts, "parts");
        args.agreed(f.c);
        unlocked([&] { write_parts_text(f.c, f.path, p); });
      },
      py::arg("path"), py::arg("parts"), py::kw_only(), py::arg("comm") = py::none(),
      io_docs::kWritePartsText);
  m.def(
      "write_points_text",
      [](const PathArg& path, const ArrayArg& coords, const ArrayArg& weights, const CommArg& comm) {
        FileCall f("hpart.write_points_text", comm, path);
        Args& args = f.args;
        const PointSet ps = point_set(args, coords, weights, py::none());
        args.agreed(f.c);
        unlocked([&] { write_points_text(f.c, f.path, ps); });
      },
      py::arg("path"), py::arg("coords"), py::kw_only(), py::arg("weights") = py::none(), py::arg("comm") = py::none(),
      io_docs::kWritePointsText);
  m.def(
      "write_points_h5",
      [](const PathArg& path, const ArrayArg& coords, const ArrayArg& weights, const ArrayArg& ids,
         const CommArg& comm) {
        FileCall f("hpart.write_points_h5", comm, path);
        Args& args = f.args;
        const PointSet ps = point_set(args, coords, weights, ids);
        args.agreed(f.c);
        unlocked([&] { write_points_h5(f.c, f.path, ps); });
      },
      py::arg("path"), py::arg("coords"), py::kw_only(), py::arg("weights") = py::none(), py::arg("ids") = py::none(),
      py::arg("comm") = py::none(),
      io_docs::kWritePointsH5);
  m.def(
      "write_partition_h5",
      [](const PathArg& path, const PartitionArg& partition, const ArrayArg& ids, const ArrayArg& coords,
         const ArrayArg& weights, const CommArg& comm) {
        FileCall f("hpart.write_partition_h5", comm, path);
        Args& args = f.args;
        const Partition* p = bound_of<Partition>(args, partition, "partition", "hpart.Partition");
        const auto id = args.array<gid_t>(ids, "ids", 1, 0, true);
        const PointSet ps = coords.is_none() ? PointSet{} : point_set(args, coords, weights, py::none());
        args.agreed(f.c);
        unlocked([&] { write_partition_h5(f.c, f.path, *p, id, coords.is_none() ? nullptr : &ps); });
      },
      py::arg("path"), py::arg("partition"), py::kw_only(), py::arg("ids") = py::none(), py::arg("coords") = py::none(),
      py::arg("weights") = py::none(), py::arg("comm") = py::none(),
      io_docs::kWritePartitionH5);
  m.def(
      "write_grid_partition_h5",
      [](const PathArg& path, const GridArg& grid, const GridPartitionArg& partition, const CommArg& comm) {
        FileCall f("hpart.write_grid_partition_h5", comm, path);
        Args& args = f.args;
        const GridAndPartition gp = grid_partition_arg(args, grid, partition);
        args.agreed(f.c);
        unlocked([&] { write_grid_partition_h5(f.c, f.path, gp.grid, *gp.partition); });
      },
      py::arg("path"), py::arg("grid"), py::arg("partition"), py::kw_only(), py::arg("comm") = py::none(),
      io_docs::kWriteGridPartitionH5);
}

namespace picture_hint {
struct Lines {
  static constexpr auto name = py::detail::const_name("list[str]");
};
struct IntList {
  static constexpr auto name = py::detail::const_name("list[int]");
};
}  // namespace picture_hint
using LinesArg = Hinted<picture_hint::Lines>;
using IntListArg = Hinted<picture_hint::IntList>;

// The items of a list or tuple (not a str) as T, each checked by value_of.
template <class T>
std::vector<T> list_of(Args& args, const py::handle& v, const char* name) {
  std::vector<T> out;
  if (!py::isinstance<py::list>(v) && !py::isinstance<py::tuple>(v)) {
    args.need(false, std::string(name) + " must be a list or tuple, got " + type_name(v));
    return out;
  }
  for (const py::handle item : v) out.push_back(value_of<T>(args, item, name));
  return out;
}

// The keywords every picture writer takes, as PictureOptions (node_of_part: the caller's vector,
// which must outlive the options).
PictureOptions picture_options(Args& args, const py::object& max_side, const py::object& title,
                               const py::object& legend) {
  PictureOptions o;
  o.max_side = value_of<int>(args, max_side, "max_side");
  o.title = value_of<std::string>(args, title, "title");
  o.legend = list_of<std::string>(args, legend, "legend");
  return o;
}

void bind_pictures(py::module_& m) {
  m.def(
      "write_partition_png",
      [](const PathArg& path, const ArrayArg& coords, const ArrayArg& parts, const IntArg& num_parts,
         const IntArg& max_side, const StrArg& title, const LinesArg& legend, const CommArg& comm) {
        FileCall f("hpart.write_partition_png", comm, path);
        Args& args = f.args;
        const PointSet ps = point_set(args, coords, py::none(), py::none());
        const auto p = per_object<part_t>(args, parts, "parts", static_cast<std::size_t>(rows_of(coords)), "points");
        const int k = value_of<int>(args, num_parts, "num_parts");
        const PictureOptions o = picture_options(args, max_side, title, legend);
        args.agreed(f.c);
        unlocked([&] { write_partition_png(f.c, f.path, ps, p, k, o); });
      },
      py::arg("path"), py::arg("coords"), py::arg("parts"), py::arg("num_parts"), py::kw_only(),
      py::arg("max_side") = 1024, py::arg("title") = "", py::arg("legend") = py::list(), py::arg("comm") = py::none(),
      io_docs::kWritePartitionPng);
  m.def(
      "write_grid_partition_png",
      [](const PathArg& path, const GridArg& grid, const GridPartitionArg& partition, const IntArg& max_side,
         const StrArg& title, const LinesArg& legend, const IntListArg& node_of_part, const CommArg& comm) {
        FileCall f("hpart.write_grid_partition_png", comm, path);
        Args& args = f.args;
        const GridAndPartition gp = grid_partition_arg(args, grid, partition);
        PictureOptions o = picture_options(args, max_side, title, legend);
        const std::vector<int> nodes = node_of_part.is_none() ? std::vector<int>{} : list_of<int>(args, node_of_part, "node_of_part");
        o.node_of_part = nodes;
        args.agreed(f.c);
        unlocked([&] { write_grid_partition_png(f.c, f.path, gp.grid, *gp.partition, o); });
      },
      py::arg("path"), py::arg("grid"), py::arg("partition"), py::kw_only(), py::arg("max_side") = 1024,
      py::arg("title") = "", py::arg("legend") = py::list(), py::arg("node_of_part") = py::none(),
      py::arg("comm") = py::none(),
      io_docs::kWriteGridPartitionPng);
  m.def("xdmf_path", &xdmf_path, py::arg("path"), io_docs::kXdmfPath);
}

}  // namespace

void bind_io(py::module_& m) {
  bind_point_file(m);
  bind_readers(m);
  bind_writers(m);
  bind_pictures(m);
  m.def(
      "evaluate_partition",
      [](const ArrayArg& parts, const IntArg& num_parts, const ArrayArg& weights, const ArrayArg& target_sizes,
         const CommArg& comm) {
        const char* fn = "hpart.evaluate_partition";
        const Comm c = comm_of(comm, fn);
        Args args(fn);
        const auto p = args.array<part_t>(parts, "parts");
        const int k = value_of<int>(args, num_parts, "num_parts");
        int ncon = 1;
        const auto w = weights_arg(args, weights, rows_of(parts), ncon, "objects");
        const auto t = args.array<double>(target_sizes, "target_sizes", 1, 0, true);
        args.agreed(c);
        std::vector<part_t> owned(p.begin(), p.end());  // the C++ call keeps them as the result's parts
        py::gil_scoped_release unlocked;
        return evaluate_partition(c, std::move(owned), k, w, ncon, t);
      },
      py::arg("parts"), py::arg("num_parts"), py::kw_only(), py::arg("weights") = py::none(),
      py::arg("target_sizes") = py::none(), py::arg("comm") = py::none(),
      R"doc(The part weights, sizes and balance metrics of any partition (the numbers every hpart
partitioner reports, computed the same way). Collective.

Parameters
----------
parts : int32 (n,), the part of each local object
num_parts : int
weights : float64 (n,) or (n, ncon), optional (unit weights by default)
target_sizes : float64 (num_parts,), optional relative part sizes
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.Partition (.part_weights, .part_sizes, .metrics.imbalance, ...)

Example
-------
>>> e = hpart.evaluate_partition(my_parts, 8, weights=w)
>>> e.metrics.imbalance, e.part_sizes
)doc");
}

}  // namespace hpart::python
