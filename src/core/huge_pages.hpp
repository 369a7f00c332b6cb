#pragma once
// Raw arrays for the multilevel kernels' large scratch (a coarse level's adjacency): allocated
// uninitialised, 2 MiB aligned and, on Linux, advised to use transparent huge pages. Where THP
// is in "madvise" mode (a common default), every 4 KiB page of a fresh array otherwise costs a
// page fault on first touch: for a 2^20-vertex graph's first coarse level (~150 MB) tens of
// thousands of faults, which are slow on virtual machines.
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/scope_guard.hpp"

namespace hpart::graphk {

// Advises the kernel to back the whole 2 MiB pages inside [data, data + bytes) with transparent
// huge pages (Linux madvise; elsewhere nothing). Advice only: where THP is off or the range cannot
// be backed, 4 KiB pages are used. The one place that gives this advice: the arrays below and the
// tensors' host storage both call it.
void advise_huge_pages(void* data, std::size_t bytes) noexcept;

// Faults the pages of [data, data + bytes) in ahead of use, the OpenMP threads each taking the
// contiguous share that a schedule(static) loop over the range gives them (Linux
// MADV_POPULATE_WRITE; elsewhere, or for small ranges or one thread, nothing). Fresh memory costs
// the kernel (and on a VM the host) a fault and a zero fill per page; one thread touching a
// whole result array first, as std::vector's value-initialisation does, pays them alone.
void populate_in_parallel(void* data, std::size_t bytes) noexcept;

// Never null (throws std::bad_alloc); free with free_huge_array. Zero bytes is allowed.
void* allocate_huge_array(std::size_t bytes);
void free_huge_array(void* p) noexcept;

// While one of these lives (any thread), large arrays freed are kept and handed out again to
// later allocations (see huge_pages.cpp); when the last one ends they go back to the system.
// Open one around a whole partitioning call: its levels then reuse each other's memory.
class HugeArrayScope : detail::ScopeOnly {
 public:
  HugeArrayScope();
  ~HugeArrayScope();
};

// std::vector storage from allocate_huge_array: the kernels' per-level arrays (offsets, maps,
// weights, gains) are fresh every level, and on a VM where a 4 KiB page fault costs ~10 us
// their first touch cost more than the work done on them (an 80 MB vector: 0.21 s of faults
// against 5 ms with huge pages, measured on our 2-core development VM).
// Elements are default-initialised: resize(n) / HugeVector<T>(n) leave ints and doubles
// unset (pass a value, as in assign(n, 0), for zeros). The contraction sizes the coarse
// adjacency by an upper bound and writes what it keeps; a zero-fill cost as much as that.
template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() noexcept = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>& /*other*/) noexcept {}
  T* allocate(std::size_t n) { return static_cast<T*>(allocate_huge_array(n * sizeof(T))); }
  void deallocate(T* p, std::size_t /*n*/) noexcept { free_huge_array(p); }
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  friend bool operator==(const HugePageAllocator&, const HugePageAllocator&) noexcept { return true; }
};

template <class T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

// A std::vector with the standard allocator (a result handed to the caller, such as
// Partition::parts), of n value-initialised elements, its storage advised to use huge pages
// before anything touches it. malloc serves such sizes from fresh mmap'd memory: a 16 MB part
// vector of 4M points was 4096 page faults of 4 KiB, ~60 ms of a one-shot partition_points call
// on our 2-core development VM (and again in later calls once glibc unmaps it on free). Its pages
// are faulted in by the threads (populate_in_parallel) before the value-initialisation.
template <class T>
std::vector<T> huge_advised_vector(std::size_t n) {
  std::vector<T> v;
  v.reserve(n);
  advise_huge_pages(v.data(), n * sizeof(T));
  populate_in_parallel(v.data(), n * sizeof(T));
  v.resize(n);
  return v;
}

}  // namespace hpart::graphk
