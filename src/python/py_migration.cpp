// Placeholder: filled by the migration bindings.
#include "py_common.hpp"

namespace hpart::python {

void bind_migration(py::module_& /*m*/) {}

}  // namespace hpart::python
