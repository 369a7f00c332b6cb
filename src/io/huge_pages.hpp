#pragma once
// Large arrays that a reader fills once, front to back, are faulted in 4 KiB pages one at a
// time; on virtual machines a page fault costs tens of microseconds, which made page faults,
// not parsing, the larger part of reading a graph (28,000 faults for 111 MB). Asking for
// transparent huge pages on the reserved capacity (where the kernel allows it: "madvise" mode)
// cuts them 512-fold. Only advice: without it, or on other systems, nothing changes.
#include <cstdint>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace hpart::detail {

template <class T>
void advise_huge_pages(const std::vector<T>& v) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t kHuge = std::uintptr_t{1} << 21;
  const auto begin = reinterpret_cast<std::uintptr_t>(v.data());
  const std::uintptr_t end = begin + v.capacity() * sizeof(T);
  const std::uintptr_t from = (begin + kHuge - 1) & ~(kHuge - 1), to = end & ~(kHuge - 1);
  if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
#else
  (void)v;
#endif
}

}  // namespace hpart::detail
