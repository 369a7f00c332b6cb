#pragma once
// Scalar option values from Python (numbers, flags): a value of the wrong type is a recorded
// problem of the call's Args, agreed like every argument (a local TypeError would leave the
// other ranks waiting in the call's first collective).
#include <string>
#include <type_traits>

#include "python/py_common.hpp"

namespace hpart::python {

// field = v unless v is None; a v that does not convert to T is recorded as a problem.
template <class T>
void set_value(Args& args, const py::object& v, const char* name, T& field) {
  if (v.is_none()) return;
  // bool is an int in Python: refuse it for numbers, and numbers for flags.
  const bool is_bool = py::isinstance<py::bool_>(v);
  if constexpr (std::is_same_v<T, bool>) {
    args.need(is_bool, std::string(name) + " must be True or False");
    if (is_bool) field = v.cast<bool>();
  } else {
    bool ok = !is_bool;
    if (ok) {
      try {
        field = v.cast<T>();
      } catch (const py::cast_error&) {
        ok = false;
      }
    }
    args.need(ok, std::string(name) + " must be a" + (std::is_integral_v<T> ? "n integer" : " number") + ", got " +
                      py::str(py::type::of(v).attr("__name__")).cast<std::string>());
  }
}

}  // namespace hpart::python
