#pragma once
// Option values from Python: names ("hilbert") or the bound enums (hpart.Curve.hilbert), and
// presets. A bad name is a recorded problem of the call's Args (agreed like every argument).
#include <string>

#include "hpart/types.hpp"
#include "python/py_common.hpp"

namespace hpart::python {

// `v` as enum E: an E, or a name that from_string (the library's parser, which throws
// hpart::Error for unknown names) accepts. Returns E{} after recording a problem.
template <class E, class Parse>
E enum_of(Args& args, const py::object& v, const char* name, Parse from_string) {
  if (py::isinstance<E>(v)) return v.cast<E>();
  if (!py::isinstance<py::str>(v)) {
    args.need(false, std::string(name) + " must be a name (str) or hpart enum value");
    return E{};
  }
  try {
    return from_string(v.cast<std::string>().c_str());
  } catch (const Error& e) {
    args.need(false, std::string(name) + ": " + e.what());
    return E{};
  }
}

inline Preset preset_of(Args& args, const py::object& v) {
  return enum_of<Preset>(args, v, "preset", preset_from_string);
}

}  // namespace hpart::python
