#pragma once
// Resident memory of this process, read from /proc/self/status (Linux).
#include <cstddef>

namespace hpart_bench {

struct MemorySample {
  double rss_mb = 0.0;  // VmRSS: resident now
  double hwm_mb = 0.0;  // VmHWM: peak resident since start or since the last reset_peak_rss()
};

// Reads VmRSS and VmHWM; zeros when /proc/self/status cannot be read.
MemorySample read_memory();

// Resets VmHWM to the current VmRSS by writing "5" to /proc/self/clear_refs. Returns false
// when the kernel refuses (then VmHWM keeps counting from process start).
bool reset_peak_rss();

// Returns freed heap memory to the kernel (malloc_trim), so that VmRSS before a measured call
// does not include pages the allocator kept from earlier work.
void release_free_heap();

}  // namespace hpart_bench
