// The extension module hpart._hpart; python/hpart/__init__.py re-exports it with the pure
// Python parts. Calls that communicate release the GIL (a Python thread may run meanwhile).
#include "hpart/version.hpp"
#include "python/py_common.hpp"

PYBIND11_MODULE(_hpart, m) {
  using namespace hpart::python;
  m.doc() = "hpart: dynamic partitioning for MPI codes (C++ core; see help(hpart))";
  m.attr("__version__") = hpart::version();
  bind_errors(m);
  bind_results(m);
  bind_points(m);
  bind_grid(m);
  bind_graph(m);
  bind_hierarchy(m);
  bind_patches(m);
  bind_rebalance(m);
  bind_migration(m);
  bind_assign(m);
  bind_io(m);
#ifdef HPART_PYTHON_TENSOR
  bind_tensor(m);
  m.attr("has_tensor") = true;
#else
  m.attr("has_tensor") = false;
#endif
}
