#pragma once
// Option values from Python: names ("hilbert") or the bound enums (hpart.Curve.hilbert), presets,
// and the parts count every partitioner takes. A bad value is a recorded problem of the call's
// Args (agreed like every argument; py_values.hpp says why).
#include <string>

#include "hpart/types.hpp"
#include "python/py_values.hpp"

namespace hpart::python {

// `v` as enum E: an E, or a name that from_string (the library's parser, which throws
// hpart::Error for unknown names) accepts. Returns E{} after recording a problem.
template <class E, class Parse>
E enum_of(Args& args, const py::handle& v, const char* name, Parse from_string) {
  if (py::isinstance<E>(v)) return v.cast<E>();
  if (!py::isinstance<py::str>(v)) {
    args.need(false, std::string(name) + " must be a name (str) or hpart enum value, got " + type_name(v));
    return E{};
  }
  try {
    return from_string(v.cast<std::string>().c_str());
  } catch (const Error& e) {
    args.need(false, std::string(name) + ": " + e.what());
    return E{};
  }
}

// field = enum_of(v) unless v is None (the option keeps its default).
template <class E, class Parse>
void set_enum(Args& args, const py::handle& v, const char* name, E& field, Parse from_string) {
  if (!v.is_none()) field = enum_of<E>(args, v, name, from_string);
}

// The options O of a partitioner for `parts` parts: O's defaults, or the preset's when `preset`
// is given (the options the caller sets after it override the preset's).
template <class O>
O options_of(Args& args, const py::handle& parts, const py::handle& preset) {
  const int k = value_of<int>(args, parts, "parts");
  O opts = preset.is_none() ? O{} : O::preset(enum_of<Preset>(args, preset, "preset", preset_from_string), k);
  opts.parts = k;
  return opts;
}

}  // namespace hpart::python
