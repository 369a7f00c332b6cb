// Placeholder: filled by the assign bindings.
#include "py_common.hpp"

namespace hpart::python {

void bind_assign(py::module_& /*m*/) {}

}  // namespace hpart::python
