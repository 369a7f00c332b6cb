#include "memory_usage.hpp"

#include <malloc.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace hpart_apps {

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

bool peak_reset_works(MPI_Comm comm) {
  int ok = 1;
  {
    // Raise the peak by 64 MiB, free it, reset: the peak must fall back to about the RSS.
    std::vector<char> block(64u << 20, 1);
    volatile char sink = block[block.size() / 2];
    (void)sink;
  }
  release_free_heap();
  if (!reset_peak_rss()) ok = 0;
  const MemorySample s = read_memory();
  if (!(s.hwm_mb > 0.0 && s.hwm_mb < s.rss_mb + 16.0)) ok = 0;
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm);
  return ok != 0;
}

void MemoryWindow::open(bool reset_works, bool keep_heap) {
  if (!keep_heap) release_free_heap();
  if (reset_works) reset_peak_rss();
  start_ = read_memory();
}

MemoryWindow::Result MemoryWindow::close() const {
  const MemorySample m = read_memory();
  Result r;
  r.peak_mb = m.hwm_mb;
  // With a reset, VmHWM after the work is the peak during it. Without one, it is that peak only
  // if the work raised it.
  r.growth_known = start_.hwm_mb <= start_.rss_mb + 0.5 || m.hwm_mb > start_.hwm_mb;
  r.growth_mb = std::max(0.0, m.hwm_mb - start_.rss_mb);
  return r;
}

}  // namespace hpart_apps
