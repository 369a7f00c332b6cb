#include "memory_usage.hpp"

#include <malloc.h>

#include <fstream>
#include <sstream>
#include <string>

namespace hpart_bench {

MemorySample read_memory() {
  MemorySample s;
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    const auto value_kb = [&line] {
      std::istringstream fields(line.substr(line.find(':') + 1));
      double kb = 0.0;
      fields >> kb;
      return kb / 1024.0;
    };
    if (line.rfind("VmRSS:", 0) == 0) s.rss_mb = value_kb();
    if (line.rfind("VmHWM:", 0) == 0) s.hwm_mb = value_kb();
  }
  return s;
}

bool reset_peak_rss() {
  std::ofstream out("/proc/self/clear_refs");
  if (!out) return false;
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

void release_free_heap() { malloc_trim(0); }

}  // namespace hpart_bench
