#pragma once
// MPI_*v displacements: the exclusive prefix sum of per-rank counts.
#include <cstddef>
#include <vector>

namespace hpart::detail {

inline std::vector<int> exclusive_sum(const std::vector<int>& counts) {
  std::vector<int> displs(counts.size(), 0);
  for (std::size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
  return displs;
}

}  // namespace hpart::detail
