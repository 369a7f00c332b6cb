// Placeholder: filled by the grid bindings.
#include "py_common.hpp"

namespace hpart::python {

void bind_grid(py::module_& /*m*/) {}

}  // namespace hpart::python
