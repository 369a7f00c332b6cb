// Placeholder: filled by the io bindings.
#include "py_common.hpp"

namespace hpart::python {

void bind_io(py::module_& /*m*/) {}

}  // namespace hpart::python
