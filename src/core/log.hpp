#pragma once
// Rank-0 diagnostics, off unless HPART_VERBOSE=1 (or higher) is set in the environment.
#include <chrono>
#include <string>

#include "hpart/comm.hpp"

namespace hpart::detail {

int verbosity();  // value of HPART_VERBOSE, 0 when unset
void log(const Comm& comm, int level, const std::string& line);

// Wall-clock seconds since construction.
class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  [[nodiscard]] double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace hpart::detail
