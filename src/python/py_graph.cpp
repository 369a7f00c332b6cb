// Placeholder: filled by the graph bindings.
#include "py_common.hpp"

namespace hpart::python {

void bind_graph(py::module_& /*m*/) {}

}  // namespace hpart::python
