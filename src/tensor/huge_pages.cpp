// Transparent huge pages for large host tensors (see detail::advise_huge_pages): the advice
// itself is core's (graphk::advise_huge_pages); tensors ask for it from 8 MiB up, where at most a
// quarter of the range is left out by the alignment to 2 MiB pages.
#include <cstddef>

#include "core/huge_pages.hpp"
#include "hpart/tensor/shard_tensor.hpp"

namespace hpart::tensor::detail {

void advise_huge_pages_host(void* data, std::size_t bytes) {
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  if (data == nullptr || bytes < 4 * kHuge) return;
  graphk::advise_huge_pages(data, bytes);
}

}  // namespace hpart::tensor::detail
