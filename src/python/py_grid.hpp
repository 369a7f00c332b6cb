#pragma once
// What the grid, hierarchy, patch, assign and file bindings share: hpart.Box, hpart.Grid (a grid
// whose cost array is a numpy array the Python object keeps alive), and the point set of the
// point partitioner (py_points.cpp).
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hpart/box.hpp"
#include "hpart/grid.hpp"
#include "hpart/point_set.hpp"
#include "python/py_values.hpp"

namespace hpart::python {

// hpart.Grid: the C++ Grid's fields as the Python objects given. They are checked (types, dtype,
// layout, length) only when a collective call uses the grid (grid_of), so a bad extent, box or
// cost on one rank is every rank's hpart.Error there, never a local exception at construction
// that leaves the other ranks waiting in the next collective.
struct PyGrid {
  py::object extent;             // 2 or 3 ints (x, y[, z]); a tuple when a sequence was given
  py::object local;              // hpart.Box: this rank's cells
  py::object cost = py::none();  // None, or float64 local.volume() values (1-D or shaped z, y, x)
};

// The C++ Grid of `g` for a call: its extent and local box checked for shape (their values are
// the C++ call's to check), the cost array checked by `args` (a view, no copy).
Grid grid_of(Args& args, const PyGrid& g);

// The hpart.Grid argument `name` as grid_of's Grid, or an empty Grid after recording a problem.
Grid grid_arg(Args& args, const py::handle& grid, const char* name = "grid");

// A cell or coordinate-like sequence of ints as a Cell (missing axes 0); records a problem for a
// wrong length.
Cell cell_of(Args& args, const py::handle& v, int dim, const char* name);

// The point set of coords/weights/ids (py_points.cpp: dtype, layout and row checks).
PointSet point_set(Args& args, const py::object& coords, const py::object& weights, const py::object& ids);

// A weights argument: None, float64 (n,) (ncon = 1) or (n, ncon), for n objects (`of`: "points").
std::span<const double> weights_arg(Args& args, const py::object& weights, py::ssize_t n, int& ncon, const char* of);

// Boxes as a Python list of hpart.Box (copies: a few per part).
py::list boxes_to_list(const std::vector<Box>& boxes);

}  // namespace hpart::python
