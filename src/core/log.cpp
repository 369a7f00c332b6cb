#include "core/log.hpp"

#include <cstdio>
#include <cstdlib>

namespace hpart::detail {

int verbosity() {
  static const int level = [] {
    const char* v = std::getenv("HPART_VERBOSE");
    return v ? std::atoi(v) : 0;
  }();
  return level;
}

void log(const Comm& comm, int level, const std::string& line) {
  if (verbosity() < level || comm.rank() != 0) return;
  std::fprintf(stderr, "[hpart] %s\n", line.c_str());
}

}  // namespace hpart::detail
