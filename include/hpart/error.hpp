#pragma once
// hpart::Error is the one exception type of the library. Every public call that takes
// distributed input validates it, agrees on the outcome across the communicator, and throws
// the same Error on every rank, so that one rank's bad data never leaves the others hanging.
#include <stdexcept>
#include <string>

namespace hpart {

enum class ErrorCode : int {
  ok = 0,
  invalid_argument = 1,  // a parameter outside its documented range (parts < 1, dim 4, ...)
  invalid_input = 2,     // data that cannot be partitioned (NaN coordinate, negative weight, ...)
  size_mismatch = 3,     // array lengths that disagree (weights vs points, ...)
  io = 4,                // unreadable, truncated or malformed file
  internal = 5,          // a broken invariant inside hpart: please report it
  unsupported = 6,       // needs an optional dependency this build lacks (METIS, HDF5, PNG, ...):
                         // the message names it and the -DHPART_WITH_X=ON that adds it
};

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  [[nodiscard]] ErrorCode code() const noexcept { return code_; }

 private:
  ErrorCode code_;
};

}  // namespace hpart
