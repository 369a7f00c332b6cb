// Transparent huge pages for large host tensors (see detail::advise_huge_pages).
#include <cstdint>

#include "hpart/tensor/shard_tensor.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace hpart::tensor::detail {

void advise_huge_pages_host(void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  if (data == nullptr || bytes < 4 * kHuge) return;
  const auto p = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (p + kHuge - 1) & ~(kHuge - 1), end = (p + bytes) & ~(kHuge - 1);
  if (end > first) (void)madvise(reinterpret_cast<void*>(first), end - first, MADV_HUGEPAGE);  // advice only
#else
  (void)data;
  (void)bytes;
#endif
}

}  // namespace hpart::tensor::detail
