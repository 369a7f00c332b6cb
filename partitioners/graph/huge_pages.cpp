#include "graph/huge_pages.hpp"

#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace hpart::graphk {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
// Below this a huge page would be mostly padding, and malloc reuses small blocks anyway.
constexpr std::size_t kHugeMin = std::size_t{8} << 20;

}  // namespace

void* allocate_huge_array(std::size_t bytes) {
  if (bytes < kHugeMin) {
    void* p = std::malloc(bytes > 0 ? bytes : 1);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = std::aligned_alloc(kHugePage, rounded);
  if (p == nullptr) throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
  // Advice only: where THP is off or the range cannot be backed, 4 KiB pages are used.
  (void)madvise(p, rounded, MADV_HUGEPAGE);
#endif
  return p;
}

void free_huge_array(void* p) noexcept { std::free(p); }

}  // namespace hpart::graphk
