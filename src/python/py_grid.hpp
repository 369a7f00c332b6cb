#pragma once
// What the grid, hierarchy, patch, assign and file bindings share: hpart.Box, hpart.Grid (a grid
// whose cost array is a numpy array the Python object keeps alive), and the point set of the
// point partitioner (py_points.cpp).
#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "hpart/box.hpp"
#include "hpart/grid.hpp"
#include "hpart/point_set.hpp"
#include "py_common.hpp"

namespace hpart::python {

// hpart.Grid: the C++ Grid's fields, with the cost held as a Python object. It is checked (dtype,
// layout, length) only when a collective call uses it (grid_of), so a bad cost array on one rank
// is every rank's hpart.Error there, never a local exception at construction that leaves the
// other ranks waiting in the next collective.
struct PyGrid {
  std::vector<std::int64_t> extent;  // 2 or 3 values (x, y[, z])
  Box local;                         // this rank's cells
  py::object cost = py::none();      // None, or float64 local.volume() values (1-D or shaped z, y, x)
};

// The C++ Grid of `g` for a call: its extent and local box checked for shape (their values are
// the C++ call's to check), the cost array checked by `args` (a view, no copy).
Grid grid_of(Args& args, const PyGrid& g);

// A cell or coordinate-like sequence of ints as a Cell (missing axes 0); records a problem for a
// wrong length.
Cell cell_of(Args& args, const py::handle& v, int dim, const char* name);

// The point set of coords/weights/ids (py_points.cpp: dtype, layout and row checks).
PointSet point_set(Args& args, const py::object& coords, const py::object& weights, const py::object& ids);

// The object `v` as a bound T, or a recorded problem (nullptr): a wrong type on one rank is
// every rank's hpart.Error once agreed.
template <class T>
const T* bound_of(Args& args, const py::handle& v, const char* name, const char* type_name) {
  if (py::isinstance<T>(v)) return &v.cast<const T&>();
  args.need(false, std::string(name) + " must be an " + type_name + ", got " +
                       py::str(py::type::of(v).attr("__name__")).cast<std::string>());
  return nullptr;
}

// A Python number as T (int: no float accepted), or a recorded problem (T{}): a wrong type on one
// rank is then every rank's hpart.Error, never a local TypeError that leaves the others waiting.
template <class T>
T number_of(Args& args, const py::handle& v, const char* name) {
  try {
    return v.cast<T>();
  } catch (const py::cast_error&) {
    args.need(false, std::string(name) + " must be " + (std::is_integral_v<T> ? "an int" : "a number") + ", got " +
                         py::str(py::type::of(v).attr("__name__")).cast<std::string>());
    return T{};
  }
}

// Boxes as a Python list of hpart.Box (copies: a few per part).
py::list boxes_to_list(const std::vector<Box>& boxes);

}  // namespace hpart::python
