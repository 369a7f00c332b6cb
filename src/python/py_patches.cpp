// Placeholder: filled by the patches bindings.
#include "py_common.hpp"

namespace hpart::python {

void bind_patches(py::module_& /*m*/) {}

}  // namespace hpart::python
