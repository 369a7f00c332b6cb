#pragma once
// Resident memory of this process, read from /proc/self/status (Linux).
#include <mpi.h>

#include <cstddef>

namespace hpart_apps {

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

// Collective: whether VmHWM can be reset on this machine (the same answer on every rank).
bool peak_reset_works(MPI_Comm comm);

// The memory of one measured window: open() before the work (frees the heap the allocator kept,
// unless `keep_heap`; resets the peak where that works; reads RSS), close() after it. Freeing the
// heap makes the growth exact, but the work then faults its pages in afresh, which costs time and
// varies from call to call: a timing that must be steady keeps the heap (and its growth is then a
// lower bound).
class MemoryWindow {
 public:
  void open(bool reset_works, bool keep_heap = false);
  struct Result {
    double peak_mb = 0.0;    // VmHWM after the work
    double growth_mb = 0.0;  // peak during the work - RSS before it
    bool growth_known = false;  // without a working reset: only if the work raised the peak
  };
  [[nodiscard]] Result close() const;

 private:
  MemorySample start_;
};

}  // namespace hpart_apps
