// Placeholder: filled by the hierarchy bindings.
#include "py_common.hpp"

namespace hpart::python {

void bind_hierarchy(py::module_& /*m*/) {}

}  // namespace hpart::python
