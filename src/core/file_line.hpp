#pragma once
// The one form of every file reader's error, shared by the readers (io) and the graph symmetry
// check they run (graph), which names the lines of both ends of a bad edge.
#include <string>

namespace hpart::detail {

// "path:line: what", the form of every reader error.
inline std::string at_line(const std::string& path, long long line, const std::string& what) {
  return path + ":" + std::to_string(line) + ": " + what;
}

}  // namespace hpart::detail
