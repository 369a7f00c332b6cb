// Placeholder: filled by the rebalance bindings.
#include "py_common.hpp"

namespace hpart::python {

void bind_rebalance(py::module_& /*m*/) {}

}  // namespace hpart::python
