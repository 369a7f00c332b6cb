#pragma once
// Raw arrays for the multilevel kernels' large scratch (a coarse level's adjacency): allocated
// uninitialised, 2 MiB aligned and, on Linux, advised to use transparent huge pages. Where THP
// is in "madvise" mode (a common default), every 4 KiB page of a fresh array otherwise costs a
// page fault on first touch: for a 2^20-vertex graph's first coarse level (~150 MB) tens of
// thousands of faults, which are slow on virtual machines.
#include <cstddef>

namespace hpart::graphk {

// Never null (throws std::bad_alloc); free with free_huge_array. Zero bytes is allowed.
void* allocate_huge_array(std::size_t bytes);
void free_huge_array(void* p) noexcept;

struct FreeHugeArray {
  void operator()(void* p) const noexcept { free_huge_array(p); }
};

}  // namespace hpart::graphk
