// hpart.partition_points: space-filling-curve partitions of point sets (hpart/points.hpp).
#include "hpart/points.hpp"

#include <cmath>

#include "python/py_grid.hpp"
#include "python/py_options.hpp"

namespace hpart::python {

namespace {

// The columns of a 2-D numpy array (0 for anything else: Args then names the problem).
py::ssize_t cols_of(const py::handle& a) {
  if (!py::isinstance<py::array>(a)) return 0;
  const auto arr = py::reinterpret_borrow<py::array>(a);
  return arr.ndim() == 2 ? arr.shape(1) : 0;
}

}  // namespace

std::span<const double> weights_arg(Args& args, const py::object& weights, py::ssize_t n, int& ncon, const char* of) {
  const py::ssize_t cols = cols_of(weights);
  ncon = cols > 0 ? static_cast<int>(cols) : 1;
  const auto w = args.array<double>(weights, "weights", 1, cols, true);
  args.need(weights.is_none() || rows_of(weights) == n,
            "weights has " + std::to_string(rows_of(weights)) + " rows for " + std::to_string(n) + " " + of);
  return w;
}

PointSet point_set(Args& args, const py::object& coords, const py::object& weights, const py::object& ids) {
  PointSet ps;
  const py::ssize_t cols = cols_of(coords);
  args.need(cols == 2 || cols == 3 || cols == 0, "coords must have 2 or 3 columns (x, y[, z]), got " + std::to_string(cols));
  ps.dim = cols == 2 ? 2 : 3;
  ps.coords = args.array<double>(coords, "coords", 2, ps.dim);
  const py::ssize_t n = rows_of(coords);
  ps.weights = weights_arg(args, weights, n, ps.ncon, "points");
  if (is_int32(ids)) ps.ids = per_object<std::int32_t>(args, ids, "ids", static_cast<std::size_t>(n), "points", true);
  else ps.ids = per_object<gid_t>(args, ids, "ids", static_cast<std::size_t>(n), "points", true);
  return ps;
}

void bind_points(py::module_& m) {
  py::enum_<Curve>(m, "Curve", "Space-filling curve of the point, grid and patch partitioners.")
      .value("hilbert", Curve::hilbert, "best locality (default)")
      .value("morton", Curve::morton, "cheaper keys, somewhat larger part boundaries");
  m.def(
      "partition_points",
      [](const ArrayArg& coords, const IntArg& parts, const ArrayArg& weights, const ArrayArg& ids,
         const NameArg& curve, const FloatArg& imbalance, const ArrayArg& target_sizes, const NameArg& preset,
         const CommArg& comm) {
        const char* fn = "hpart.partition_points";
        const Comm c = comm_of(comm, fn);
        Args args(fn);
        const PointSet ps = point_set(args, coords, weights, ids);
        auto opts = options_of<PointOptions>(args, parts, preset);
        set_enum(args, curve, "curve", opts.curve, curve_from_string);
        set_value(args, imbalance, "imbalance", opts.imbalance);
        opts.target_sizes = args.array<double>(target_sizes, "target_sizes", 1, 0, true);
        args.agreed(c);
        py::gil_scoped_release unlocked;
        return partition_points(c, ps, opts);
      },
      py::arg("coords"), py::arg("parts"), py::kw_only(), py::arg("weights") = py::none(), py::arg("ids") = py::none(),
      py::arg("curve") = py::none(), py::arg("imbalance") = py::none(), py::arg("target_sizes") = py::none(),
      py::arg("preset") = py::none(), py::arg("comm") = py::none(),
      R"doc(Partition a distributed point set into `parts` parts along a space-filling curve.

Collective over `comm` (an mpi4py communicator; default MPI.COMM_WORLD). Each rank passes its
own points; the same global points give the same parts for any number of ranks and threads.

Parameters
----------
coords : numpy.ndarray, float64, shape (n, 2) or (n, 3), C-contiguous (not copied)
parts : int, K >= 1 (independent of the number of ranks; K > N leaves parts empty)
weights : float64 (n,) or (n, ncon), optional (unit weights by default)
ids : int64 or int32 (n,), optional global ids (checked unique; used in place)
curve : "hilbert" (default) or "morton", or hpart.Curve
imbalance : allowed max part weight / target - 1 of the first weight (default 0.001)
target_sizes : float64 (parts,), optional relative part sizes
preset : "fast", "standard" or "strong" (options below it override the preset's)
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.Partition: .parts (int32 per local point), .part_weights, .part_sizes, .metrics

Raises hpart.Error on every rank for bad input (wrong dtype, NaN, parts < 1, ...).

Example
-------
>>> import numpy as np, hpart
>>> from mpi4py import MPI
>>> rng = np.random.default_rng(MPI.COMM_WORLD.rank)
>>> xyz = rng.random((1000, 3))
>>> p = hpart.partition_points(xyz, parts=8)
>>> p.parts[:5], p.metrics.imbalance
)doc");
}

}  // namespace hpart::python
