#pragma once
// Python values of collective calls (numbers, flags, names, paths, bound objects): a value of the
// wrong type is a recorded problem of the call's Args, agreed like every argument. A typed C++
// parameter (int, double, std::string) would instead make pybind11 raise a local TypeError on
// the one rank that got it wrong while the others wait in the call's first collective: so the
// collective bindings take any object (a Hinted<...> argument, below: help() still shows the
// type expected) and convert here, and only here. tests/python/test_agreed_arguments.py checks
// every argument of every collective binding this way.
#include <array>
#include <span>
#include <string>
#include <type_traits>

#include "python/py_common.hpp"

namespace hpart::python {

// The Python type name of v ("str", "NoneType", ...), for messages.
inline std::string type_name(const py::handle& v) { return py::str(py::type::of(v).attr("__name__")).cast<std::string>(); }

// What value_of<T> accepts, for messages.
template <class T>
constexpr const char* kind_of() {
  if constexpr (std::is_same_v<T, bool>) return "True or False";
  else if constexpr (std::is_same_v<T, std::string>) return "a str";
  else if constexpr (std::is_integral_v<T>) return "an int";
  else return "a number";
}

// `v` as T, or `fallback` after recording "name must be <kind>, got <type>". Integral T: a Python
// or numpy integer (not a float, not a bool: bool is an int in Python, but True parts is a bug);
// floating T: any real number but a bool; bool: True or False only; std::string: a str.
template <class T>
T value_of(Args& args, const py::handle& v, const char* name, T fallback = T{}) {
  const bool is_bool = py::isinstance<py::bool_>(v);
  bool ok = false;
  if constexpr (std::is_same_v<T, bool>) ok = is_bool;
  else if constexpr (std::is_same_v<T, std::string>) ok = py::isinstance<py::str>(v);
  else if constexpr (std::is_integral_v<T>) ok = !is_bool && PyIndex_Check(v.ptr()) != 0;
  else ok = !is_bool && !v.is_none() && !py::isinstance<py::str>(v);
  if (ok) {
    try {
      return v.cast<T>();
    } catch (const py::cast_error&) {
      // An int that does not fit T (or an object whose __index__/__float__ failed).
      if (std::is_integral_v<T> && py::isinstance<py::int_>(v)) {
        args.need(false, std::string(name) + " = " + py::repr(v).cast<std::string>() + " is out of range");
        return fallback;
      }
    }
  }
  args.need(false, std::string(name) + " must be " + kind_of<T>() + ", got " + type_name(v));
  return fallback;
}

// A 1-D numpy array of T with one value per object: n objects, that `of` names ("points") in the
// message "current has 9 values for 10 points". None is allowed when `optional`.
template <class T>
std::span<const T> per_object(Args& args, const py::handle& a, const char* name, std::size_t n, const char* of,
                              bool optional = false) {
  const auto s = args.array<T>(a, name, 1, 0, optional);
  args.need(a.is_none() || rows_of(a) == static_cast<py::ssize_t>(n),
            std::string(name) + " has " + std::to_string(rows_of(a)) + " values for " + std::to_string(n) + " " + of);
  return s;
}

// Whether `a` is a numpy array of int32 (the one narrower integer width that ids, offsets and
// integer weights may have: hpart reads them in place, IntSpan).
inline bool is_int32(const py::handle& a) {
  return py::isinstance<py::array>(a) &&
         py::reinterpret_borrow<py::array>(a).dtype().attr("__eq__")(py::dtype::of<std::int32_t>()).cast<bool>();
}

// field = value_of(v) unless v is None (an option left None keeps the C++ default).
template <class T>
void set_value(Args& args, const py::handle& v, const char* name, T& field) {
  if (!v.is_none()) field = value_of<T>(args, v, name, field);
}

// A file path: a str or an os.PathLike giving one (pathlib.Path); "" after recording a problem.
inline std::string path_of(Args& args, const py::handle& v, const char* name = "path") {
  if (py::isinstance<py::str>(v) || py::hasattr(v, "__fspath__")) {
    const py::object p = py::module_::import("os").attr("fspath")(v);
    if (py::isinstance<py::str>(p)) return p.cast<std::string>();
  }
  args.need(false, std::string(name) + " must be a str or os.PathLike, got " + type_name(v));
  return {};
}

// The object `v` as a bound T, or nullptr after recording "name must be an <type_name>, got ...".
template <class T>
const T* bound_of(Args& args, const py::handle& v, const char* name, const char* bound_name) {
  if (py::isinstance<T>(v)) return &v.cast<const T&>();
  args.need(false, std::string(name) + " must be an " + bound_name + ", got " + type_name(v));
  return nullptr;
}

// True on every rank when every rank of c passed the same `v` (one allreduce). For a choice that
// picks which collectives follow (the kind of a map, of the objects, of the records moved): ranks
// that chose differently would wait in different collectives.
inline bool same_everywhere(const Comm& c, long long v) {
  std::array<long long, 2> m{v, -v};
  c.max(std::span<long long>(m));
  return m[0] == -m[1];
}

// The mpi4py object of a `comm` argument (None: COMM_WORLD), for an object that keeps the
// communicator it borrows alive.
inline py::object comm_object(const py::object& comm) {
  return comm.is_none() ? py::module_::import("mpi4py.MPI").attr("COMM_WORLD") : comm;
}

// An argument taken as given (a pybind11 caster that accepts any object) and checked by the
// call's Args, which help() shows with the type the call expects: `parts: int`, not
// `parts: object`. It converts to the py::object it holds wherever one is expected.
template <class Hint>
struct Hinted {
  py::object value;
  operator const py::object&() const { return value; }  // NOLINT(google-explicit-constructor)
  [[nodiscard]] bool is_none() const { return value.is_none(); }
  template <class T>
  T cast() const {
    return value.cast<T>();
  }
};

namespace hint {
#define HPART_PY_HINT(Name, text)                                 \
  struct Name {                                                   \
    static constexpr auto name = py::detail::const_name(text);  \
  }
HPART_PY_HINT(Int, "int");
HPART_PY_HINT(Float, "float");
HPART_PY_HINT(Bool, "bool");
HPART_PY_HINT(Str, "str");
HPART_PY_HINT(Name, "str");
HPART_PY_HINT(Path, "str | os.PathLike");
HPART_PY_HINT(Comm, "mpi4py.MPI.Comm");
HPART_PY_HINT(Array, "numpy.ndarray");
HPART_PY_HINT(Ints, "tuple[int, ...]");
HPART_PY_HINT(Grid, "hpart.Grid");
HPART_PY_HINT(Graph, "hpart.Graph");
HPART_PY_HINT(Partition, "hpart.Partition");
HPART_PY_HINT(GridPartition, "hpart.GridPartition");
HPART_PY_HINT(PatchPartition, "hpart.PatchPartition");
HPART_PY_HINT(Topology, "hpart.Topology");
HPART_PY_HINT(PartsOrPartition, "numpy.ndarray | hpart.Partition");
HPART_PY_HINT(PointsOrGraph, "numpy.ndarray | hpart.Graph");
HPART_PY_HINT(Box, "hpart.Box");
#undef HPART_PY_HINT
}  // namespace hint

using IntArg = Hinted<hint::Int>;
using FloatArg = Hinted<hint::Float>;
using BoolArg = Hinted<hint::Bool>;
using StrArg = Hinted<hint::Str>;
using NameArg = Hinted<hint::Name>;  // an option's name ("hilbert") or its hpart enum value
using PathArg = Hinted<hint::Path>;
using CommArg = Hinted<hint::Comm>;
using ArrayArg = Hinted<hint::Array>;
using IntsArg = Hinted<hint::Ints>;
using GridArg = Hinted<hint::Grid>;
using GraphArg = Hinted<hint::Graph>;
using PartitionArg = Hinted<hint::Partition>;
using GridPartitionArg = Hinted<hint::GridPartition>;
using PatchPartitionArg = Hinted<hint::PatchPartition>;
using TopologyArg = Hinted<hint::Topology>;
using PartsOrPartitionArg = Hinted<hint::PartsOrPartition>;
using ObjectsArg = Hinted<hint::PointsOrGraph>;
using BoxArg = Hinted<hint::Box>;

}  // namespace hpart::python

namespace pybind11::detail {

template <class Hint>
struct type_caster<hpart::python::Hinted<Hint>> {
  PYBIND11_TYPE_CASTER(hpart::python::Hinted<Hint>, Hint::name);
  bool load(handle src, bool /*convert*/) {
    value.value = reinterpret_borrow<object>(src);
    return true;
  }
  static handle cast(const hpart::python::Hinted<Hint>& v, return_value_policy /*policy*/, handle /*parent*/) {
    return v.value.inc_ref();
  }
};

}  // namespace pybind11::detail
