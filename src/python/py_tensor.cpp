// Placeholder: filled by the tensor bindings.
#include "py_common.hpp"

namespace hpart::python {

void bind_tensor(py::module_& /*m*/) {}

}  // namespace hpart::python
