#pragma once
// What every binding file of the Python module shares: the communicator from mpi4py, the checks
// of numpy arguments (agreed over the communicator before any collective, so a bad array on one
// rank is every rank's hpart.Error), and numpy arrays over C++ vectors without copies.
//
// The bindings wrap the C++ API and hold no algorithm: each function checks what only Python can
// get wrong (a dtype, a layout, a non-communicator), then calls the C++ function, which checks
// the values.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "hpart/comm.hpp"
#include "hpart/error.hpp"

namespace hpart::python {

namespace py = pybind11;

// The communicator of an mpi4py communicator object (any: sub-communicators, dups, Cartesian),
// borrowed (hpart never frees it); None means mpi4py's COMM_WORLD. Anything else, or
// MPI.COMM_NULL, throws hpart::Error(invalid_argument) on this rank (there is no communicator to
// agree on).
Comm comm_of(const py::handle& comm, const char* fn);

// The numpy dtype name of T ("float64", "int64", ...), for messages.
template <class T>
std::string dtype_name() {
  return py::str(py::dtype::of<T>().attr("name")).cast<std::string>();
}

// The arguments of one call, checked locally; `agreed` makes the verdict collective. The first
// problem wins: "fn: what".
class Args {
 public:
  explicit Args(const char* fn) : fn_(fn) {}

  Args& need(bool ok, const std::string& what) {
    if (!ok && problem_.empty()) problem_ = std::string(fn_) + ": " + what;
    return *this;
  }
  // A numpy array of exactly dtype T, C-contiguous, with `ndim` dimensions (or 1-D when
  // `ndim` is 1 and `cols` <= 0), and `cols` columns when cols > 0 (2-D). None gives an empty
  // span when `optional`. The span views the array's memory: no copy. A problem is recorded
  // (not thrown) and gives an empty span.
  template <class T>
  std::span<const T> array(const py::handle& a, const char* name, int ndim = 1, py::ssize_t cols = 0,
                           bool optional = false) {
    const ArrayInfo info = inspect(a, name, py::dtype::of<T>(), dtype_name<T>(), ndim, cols, optional);
    return {static_cast<const T*>(info.data), static_cast<std::size_t>(info.size)};
  }
  // The same for an array the call writes into (must be writeable).
  template <class T>
  std::span<T> out_array(const py::handle& a, const char* name, int ndim = 1, py::ssize_t cols = 0) {
    const ArrayInfo info = inspect(a, name, py::dtype::of<T>(), dtype_name<T>(), ndim, cols, false, true);
    return {static_cast<T*>(const_cast<void*>(info.data)), static_cast<std::size_t>(info.size)};
  }
  // Rows (first dimension) of an array checked by array(); 0 when it was None or failed.
  [[nodiscard]] const std::string& problem() const { return problem_; }
  [[nodiscard]] bool ok() const { return problem_.empty(); }
  // Collective over comm: every rank throws the same hpart::Error when any rank found a problem
  // (the lowest failing rank's message).
  void agreed(const Comm& comm) const;
  // Throws this rank's problem, if any (calls that are not collective).
  void local() const;
  [[nodiscard]] const char* fn() const { return fn_; }

 private:
  struct ArrayInfo {
    const void* data = nullptr;
    py::ssize_t size = 0;
  };
  ArrayInfo inspect(const py::handle& a, const char* name, const py::dtype& dt, const std::string& dt_name, int ndim,
                    py::ssize_t cols, bool optional, bool writeable = false);
  const char* fn_;
  std::string problem_;
};

// The first dimension of a numpy array (0 for None / not an array).
py::ssize_t rows_of(const py::handle& a);

// A 1-D (or rows x cols) numpy array that owns `v` (moved, no copy).
template <class T>
py::array_t<T> to_numpy(std::vector<T>&& v, py::ssize_t cols = 0) {
  auto* owned = new std::vector<T>(std::move(v));
  py::capsule free_it(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  if (cols > 0) {
    const auto rows = static_cast<py::ssize_t>(owned->size()) / cols;
    return py::array_t<T>({rows, cols}, owned->data(), free_it);
  }
  return py::array_t<T>(static_cast<py::ssize_t>(owned->size()), owned->data(), free_it);
}

// A numpy view of a vector that lives inside the Python object `owner` (kept alive by the
// array): results' parts and tables, without a copy.
template <class T>
py::array_t<T> view_of(std::vector<T>& v, const py::handle& owner, py::ssize_t cols = 0) {
  if (cols > 0)
    return py::array_t<T>({static_cast<py::ssize_t>(v.size()) / cols, cols}, v.data(), owner);
  return py::array_t<T>(static_cast<py::ssize_t>(v.size()), v.data(), owner);
}

// Registration of each part of the module (one file each).
void bind_errors(py::module_& m);
void bind_results(py::module_& m);
void bind_points(py::module_& m);
void bind_grid(py::module_& m);  // also hpart.Box, hpart.AxisOrder, hpart.Grid (py_grid.hpp: box/grid helpers)
void bind_graph(py::module_& m);
void bind_hierarchy(py::module_& m);
void bind_patches(py::module_& m);
void bind_rebalance(py::module_& m);
void bind_migration(py::module_& m);
void bind_assign(py::module_& m);
void bind_io(py::module_& m);
void bind_tensor(py::module_& m);  // py_tensor.cpp (built with Kokkos)

}  // namespace hpart::python

#include "hpart/partition.hpp"

namespace hpart::python {

// A repartition result class over the partition class P already bound: the partition's fields
// plus what moved (py_results.cpp documents the fields).
template <class P>
void bind_repartition(py::module_& m, const char* name, const char* doc) {
  using R = Repartition<P>;
  py::class_<R, P>(m, name, doc)
      .def_readonly("migrated", &R::migrated, "MigrationStats: objects and weight that changed part")
      .def_readonly("from_scratch", &R::from_scratch,
                    "True when the incremental method fell back to a fresh partition")
      .def_readonly("steps", &R::steps, "balancing rounds (diffusion steps) taken")
      .def_readonly("surface_growth", &R::surface_growth,
                    "part surface (cut, halo) relative to the reference (1 = unchanged; 0 = not measured)");
}

}  // namespace hpart::python
