// hpart.PartitionMap and hpart.map_of: point and box assign (hpart/assign.hpp). Queries are
// local (no communication) and release the GIL for batches.
#include "hpart/assign.hpp"

#include "python/py_grid.hpp"
#include "python/py_options.hpp"

namespace hpart::python {

namespace {

// A coordinate: a sequence (or 1-D float64 array) of the map's dim values, copied (a few doubles).
std::vector<double> coord_of(const PartitionMap& map, const py::handle& x, const char* name) {
  if (!py::isinstance<py::sequence>(x) && !py::isinstance<py::array>(x))
    throw Error(ErrorCode::invalid_argument, std::string("hpart.PartitionMap: ") + name + " must be a sequence of " +
                                                 std::to_string(map.empty() ? 0 : map.dim()) + " floats");
  return x.cast<std::vector<double>>();
}

std::span<const double> coords_arg(Args& args, const PartitionMap& map, const py::object& coords) {
  return args.array<double>(coords, "coords", 2, map.empty() ? 1 : map.dim());
}

py::array_t<part_t> assign_parts(const PartitionMap& map, const py::object& coords, const py::object& ids,
                                 const char* fn) {
  Args args(fn);
  const auto x = coords_arg(args, map, coords);
  const auto id = per_object<gid_t>(args, ids, "ids", static_cast<std::size_t>(rows_of(coords)), "points", true);
  args.local();
  std::vector<part_t> parts(static_cast<std::size_t>(rows_of(coords)));
  {
    py::gil_scoped_release unlocked;
    if (ids.is_none())
      map.assign(x, parts);
    else
      map.assign(x, id, parts);
  }
  return to_numpy(std::move(parts));
}

// What map_of's partition argument is (the most derived class first); agreed across ranks.
enum class MapArg { bad, points, hier_points, grid, hier_grid };

MapArg map_arg_of(const py::handle& partition) {
  if (py::isinstance<HierGridPartition>(partition)) return MapArg::hier_grid;
  if (py::isinstance<GridPartition>(partition)) return MapArg::grid;
  if (py::isinstance<HierPartition>(partition)) return MapArg::hier_points;
  if (py::isinstance<Partition>(partition)) return MapArg::points;
  return MapArg::bad;
}

void bind_map_class(py::module_& m) {
  py::class_<PartitionMap>(m, "PartitionMap", R"doc(A compact descriptor of a partition (hpart::PartitionMap), O(K) memory and the same on
every rank, that answers "which part (rank) owns this coordinate" and "which parts meet this box"
without communication (cf. Zoltan's LB_Point_Assign / LB_Box_Assign).

Built collectively by hpart.map_of; queried anywhere; saved as text (save/load, pickle).
Coordinates of a grid map are in cell units (cell c spans [c, c + 1) per axis).

Example
-------
>>> p = hpart.partition_points(xyz, parts=8)
>>> m = hpart.map_of(p, coords=xyz)
>>> m.part_of((0.2, 0.7, 0.1)), m.rank_of((0.2, 0.7, 0.1))
>>> (m.assign(xyz) == p.parts).all()              # located part == assigned part
>>> m.parts_in_box((0, 0, 0), (0.1, 0.1, 0.1))
>>> again = hpart.PartitionMap.load(m.save())
)doc")
      .def(py::init<>())
      .def("empty", &PartitionMap::empty)
      .def_property_readonly("kind", &PartitionMap::kind)
      .def_property_readonly("dim", &PartitionMap::dim)
      .def_property_readonly("num_parts", &PartitionMap::num_parts)
      .def_property_readonly("num_ranks", &PartitionMap::num_ranks, "ranks of the communicator the map was built on")
      .def(
          "part_of",
          [](const PartitionMap& map, const py::object& x, const IntArg& id) {
            const auto c = coord_of(map, x, "x");
            if (id.is_none()) return map.part_of(c);
            Args args("hpart.PartitionMap.part_of");
            const auto i = value_of<gid_t>(args, id, "id");
            args.local();
            return map.part_of(c, i);
          },
          py::arg("x"), py::arg("id") = py::none(),
          "The part owning coordinate x (dim floats). With the object's global id: exact for every object the\n"
          "partition saw, ties included.")
      .def(
          "parts_at", [](const PartitionMap& map, const py::object& x) { return to_numpy(map.parts_at(coord_of(map, x, "x"))); },
          py::arg("x"), "Every part a point at x may be in (several only at a tied cut).")
      .def(
          "part_of_cell",
          [](const PartitionMap& map, const IntsArg& cell) {
            Args args("hpart.PartitionMap.part_of_cell");
            const Cell c = cell_of(args, cell, map.empty() ? 0 : map.dim(), "cell");
            args.local();
            return map.part_of(c);
          },
          py::arg("cell"), "Grid maps: the part of a cell (x, y[, z]).")
      .def("rank_of_part", &PartitionMap::rank_of_part, py::arg("part"), "The owner rank of a part.")
      .def(
          "rank_of", [](const PartitionMap& map, const py::object& x) { return map.rank_of(coord_of(map, x, "x")); },
          py::arg("x"), "The owner rank of the part owning x.")
      .def(
          "assign",
          [](const PartitionMap& map, const ArrayArg& coords, const ArrayArg& ids) {
            return assign_parts(map, coords, ids, "hpart.PartitionMap.assign");
          },
          py::arg("coords"), py::arg("ids") = py::none(),
          "Batch part_of: coords float64 (n, dim), optional ids int64 (n,); returns int32 (n,). OpenMP-parallel.")
      .def(
          "assign_ranks",
          [](const PartitionMap& map, const ArrayArg& coords, const ArrayArg& ids) {
            auto parts = assign_parts(map, coords, ids, "hpart.PartitionMap.assign_ranks");
            std::vector<int> ranks(static_cast<std::size_t>(parts.size()));
            const part_t* p = parts.data();
            for (std::size_t i = 0; i < ranks.size(); ++i) ranks[i] = map.rank_of_part(p[i]);
            return to_numpy(std::move(ranks));
          },
          py::arg("coords"), py::arg("ids") = py::none(), "Batch rank_of: int32 owner rank per point.")
      .def(
          "parts_in_box",
          [](const PartitionMap& map, const py::object& lo, const py::object& hi) {
            if (py::isinstance<Box>(lo) && hi.is_none()) return to_numpy(map.parts_in_box(lo.cast<const Box&>()));
            return to_numpy(map.parts_in_box(coord_of(map, lo, "lo"), coord_of(map, hi, "hi")));
          },
          py::arg("lo"), py::arg("hi") = py::none(),
          "Every part whose region meets the closed box [lo, hi] (dim floats each), ascending int32.\n"
          "Grid maps also take an hpart.Box of cells: parts_in_box(box).")
      .def(
          "ranks_in_box",
          [](const PartitionMap& map, const py::object& lo, const py::object& hi) {
            return to_numpy(map.ranks_in_box(coord_of(map, lo, "lo"), coord_of(map, hi, "hi")));
          },
          py::arg("lo"), py::arg("hi"), "Every rank owning a part that meets [lo, hi], ascending int32.")
      .def("save", &PartitionMap::save, "The map as versioned text (load reads it back exactly).")
      .def_static("load", [](const std::string& text) { return PartitionMap::load(text); }, py::arg("text"),
                  "A map from save()'s text; hpart.Error (io) for bad, truncated or wrong-version text.")
      .def("save_file", &PartitionMap::save_file, py::arg("path"), "save() into a file (not collective).")
      .def_static("load_file", &PartitionMap::load_file, py::arg("path"))
      .def(py::pickle([](const PartitionMap& map) { return map.save(); },
                      [](const std::string& text) { return PartitionMap::load(text); }))
      .def("__repr__", [](const PartitionMap& map) {
        if (map.empty()) return std::string("PartitionMap(empty)");
        return "PartitionMap(kind=" + std::string(to_string(map.kind())) + ", dim=" + std::to_string(map.dim()) +
               ", num_parts=" + std::to_string(map.num_parts()) + ", num_ranks=" + std::to_string(map.num_ranks()) + ")";
      });
}

void def_map_of(py::module_& m) {
  m.def(
      "map_of",
      [](const PartitionArg& partition, const ArrayArg& coords, const ArrayArg& ids, const NameArg& curve,
         const NameArg& node_curve, const NameArg& rank_curve, const GridArg& grid,
         const ArrayArg& owner_of_part, const CommArg& comm) {
        const char* fn = "hpart.map_of";
        const Comm c = comm_of(comm, fn);
        Args args(fn);
        const auto owners = args.array<int>(owner_of_part, "owner_of_part", 1, 0, true);
        const MapArg kind = map_arg_of(partition);
        const bool on_grid = kind == MapArg::grid || kind == MapArg::hier_grid;
        const bool hier = kind == MapArg::hier_grid || kind == MapArg::hier_points;
        args.need(kind != MapArg::bad,
                  "partition must be an hpart.Partition (of points or a grid), got " + type_name(partition));
        args.need(!hier || owner_of_part.is_none(), "owner_of_part: a hierarchical partition has its own");
        const Grid g = on_grid ? grid_arg(args, grid, "grid (needed for a grid partition)") : Grid{};
        args.need(on_grid || !coords.is_none(), "coords (the partitioned points) are needed for a point partition");
        const PointSet ps = on_grid || coords.is_none() ? PointSet{} : point_set(args, coords, py::none(), ids);
        PointOptions flat;
        HierPointOptions two_level;
        set_enum(args, curve, "curve", flat.curve, curve_from_string);
        set_enum(args, node_curve, "node_curve", two_level.node_curve, curve_from_string);
        set_enum(args, rank_curve, "rank_curve", two_level.rank_curve, curve_from_string);
        args.agreed(c);
        // Each kind runs its own collectives: a grid partition on one rank and a point partition
        // on another would wait in different ones.
        if (!same_everywhere(c, static_cast<long long>(kind)))
          throw Error(ErrorCode::invalid_argument,
                      std::string(fn) + ": the ranks pass partitions of different kinds (points, hierarchical points, "
                                        "grid, hierarchical grid): pass the same kind on every rank");
        const auto& p = partition.cast<const Partition&>();
        flat.parts = two_level.parts = p.num_parts;
        py::gil_scoped_release unlocked;
        switch (kind) {
          case MapArg::hier_grid: return map_of(c, g, partition.cast<const HierGridPartition&>());
          case MapArg::grid: return map_of(c, g, partition.cast<const GridPartition&>(), owners);
          case MapArg::hier_points: return map_of(c, ps, two_level, partition.cast<const HierPartition&>());
          default: return map_of(c, ps, flat, p, owners);
        }
      },
      py::arg("partition"), py::kw_only(), py::arg("coords") = py::none(), py::arg("ids") = py::none(),
      py::arg("curve") = py::none(), py::arg("node_curve") = py::none(), py::arg("rank_curve") = py::none(),
      py::arg("grid") = py::none(), py::arg("owner_of_part") = py::none(), py::arg("comm") = py::none(),
      R"doc(The PartitionMap of a partition: collective, O(K) communication once.

Parameters
----------
partition : the partition to describe:
    hpart.Partition of hpart.partition_points -> pass coords (and ids, curve) it was made from;
    hpart.HierPartition of partition_points_hierarchical -> coords, ids, node_curve, rank_curve;
    hpart.GridPartition / HierGridPartition -> grid
coords : float64 (n, 2) or (n, 3), the partitioned points
ids : int64 or int32 (n,), the ids the partition was given, if any
curve : points: the curve the partition used ("hilbert" default, or "morton")
node_curve, rank_curve : hierarchical points: the curves used
grid : hpart.Grid, grid partitions
owner_of_part : int32 (K,), optional rank of every part (default: hpart's block owners)
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.PartitionMap (the same on every rank)

Example
-------
>>> p = hpart.partition_points(xyz, parts=8, curve="morton")
>>> m = hpart.map_of(p, coords=xyz, curve="morton")
>>> (m.assign(xyz) == p.parts).all()
)doc");
}

}  // namespace

void bind_assign(py::module_& m) {
  py::enum_<MapKind>(m, "MapKind", "What a PartitionMap describes.")
      .value("points", MapKind::points, "curve ranges of one curve (partition_points)")
      .value("grid", MapKind::grid, "a grid partition's locator")
      .value("hierarchical_points", MapKind::hierarchical_points, "node-level curve ranges, then each node's");
  bind_map_class(m);
  def_map_of(m);
}

}  // namespace hpart::python
