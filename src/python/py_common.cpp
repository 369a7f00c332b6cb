#include "python/py_common.hpp"

#include <mpi.h>

namespace hpart::python {

Comm comm_of(const py::handle& comm, const char* fn) {
  const py::module_ mpi = py::module_::import("mpi4py.MPI");
  py::object c = comm.is_none() ? mpi.attr("COMM_WORLD") : py::reinterpret_borrow<py::object>(comm);
  if (!py::isinstance(c, mpi.attr("Comm")))
    throw Error(ErrorCode::invalid_argument,
                std::string(fn) + ": comm must be an mpi4py communicator (mpi4py.MPI.Comm), got " +
                    py::str(py::type::of(c).attr("__name__")).cast<std::string>());
  // py2f/f2c is mpi4py's documented way to hand a communicator to a library: no mpi4py headers
  // needed, and it works for every kind of communicator.
  const MPI_Comm h = MPI_Comm_f2c(static_cast<MPI_Fint>(c.attr("py2f")().cast<long long>()));
  if (h == MPI_COMM_NULL) throw Error(ErrorCode::invalid_argument, std::string(fn) + ": comm is MPI.COMM_NULL");
  return Comm(h);
}

Args::ArrayInfo Args::inspect(const py::handle& a, const char* name, const py::dtype& dt, const std::string& dt_name,
                              int ndim, py::ssize_t cols, bool optional, bool writeable) {
  if (a.is_none()) {
    need(optional, std::string(name) + " is required (got None)");
    return {};
  }
  if (!py::isinstance<py::array>(a)) {
    need(false, std::string(name) + " must be a numpy array of " + dt_name + ", got " +
                    py::str(py::type::of(a).attr("__name__")).cast<std::string>() +
                    " (numpy.ascontiguousarray(x, dtype=numpy." + dt_name + ") converts)");
    return {};
  }
  const auto arr = py::reinterpret_borrow<py::array>(a);
  if (!arr.dtype().is(dt) && !arr.dtype().attr("__eq__")(dt).cast<bool>()) {
    need(false, std::string(name) + " has dtype " + py::str(arr.dtype().attr("name")).cast<std::string>() +
                    ", expected " + dt_name + " (hpart does not convert silently: x.astype(numpy." + dt_name +
                    ") converts)");
    return {};
  }
  const int want_ndim = cols > 0 ? 2 : ndim;
  if (arr.ndim() != want_ndim) {
    need(false, std::string(name) + " has " + std::to_string(arr.ndim()) + " dimensions, expected " +
                    std::to_string(want_ndim) +
                    (cols > 0 ? " (rows of " + std::to_string(cols) + " values)" : std::string()));
    return {};
  }
  if (cols > 0 && arr.shape(1) != cols) {
    need(false, std::string(name) + " has " + std::to_string(arr.shape(1)) + " columns, expected " +
                    std::to_string(cols));
    return {};
  }
  if ((arr.flags() & py::array::c_style) == 0) {
    need(false, std::string(name) +
                    " is not C-contiguous (a slice or transpose?): numpy.ascontiguousarray(x) makes a contiguous copy");
    return {};
  }
  if (writeable && !arr.writeable()) {
    need(false, std::string(name) + " is read-only");
    return {};
  }
  return {arr.data(), arr.size()};
}

void Args::agreed(const Comm& comm) const {
  comm.agree(problem_.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem_);
}

void Args::local() const {
  if (!problem_.empty()) throw Error(ErrorCode::invalid_argument, problem_);
}

py::ssize_t rows_of(const py::handle& a) {
  if (a.is_none() || !py::isinstance<py::array>(a)) return 0;
  const auto arr = py::reinterpret_borrow<py::array>(a);
  return arr.ndim() == 0 ? 0 : arr.shape(0);
}

void bind_errors(py::module_& m) {
  py::enum_<ErrorCode>(m, "ErrorCode", "What kind of problem an hpart.Error reports (its .code).")
      .value("ok", ErrorCode::ok)
      .value("invalid_argument", ErrorCode::invalid_argument, "a parameter outside its documented range")
      .value("invalid_input", ErrorCode::invalid_input, "data that cannot be partitioned (NaN, negative weight, ...)")
      .value("size_mismatch", ErrorCode::size_mismatch, "array lengths that disagree")
      .value("io", ErrorCode::io, "unreadable, truncated or malformed file")
      .value("internal", ErrorCode::internal, "a broken invariant inside hpart: please report it")
      .value("unsupported", ErrorCode::unsupported, "needs an optional dependency this build lacks");
  // One exception type, as in C++: hpart.Error(message) with .code (an hpart.ErrorCode). Raised
  // on every rank of the communicator for collective calls.
  static py::exception<Error> error(m, "Error");
  error.doc() =
      "The one exception of hpart. Collective calls raise it on every rank of the communicator with the "
      "same message, never leaving a rank hanging. `e.code` is an hpart.ErrorCode.";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      py::object exc = py::reinterpret_borrow<py::object>(error.ptr())(py::str(e.what()));
      exc.attr("code") = py::cast(e.code());
      PyErr_SetObject(error.ptr(), exc.ptr());
    }
  });
}

}  // namespace hpart::python
