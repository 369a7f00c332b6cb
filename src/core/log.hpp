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

// Collective: the seconds of a phase timed by `clock`, as every result reports them: the maximum
// over the ranks, since the phase ends for all when the slowest rank ends. Every rank gets the
// same value, so results and log lines agree across ranks.
inline double seconds_max(const Comm& comm, const Stopwatch& clock) { return comm.max(clock.seconds()); }

}  // namespace hpart::detail
