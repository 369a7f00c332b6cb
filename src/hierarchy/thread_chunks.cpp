// The thread level of the hierarchy: a rank's objects cut into contiguous chunks by the exact
// chains partitioner (contiguous, so each thread's objects stay together in memory).
#include <string>

#include "kernels/chains.hpp"
#include "hpart/error.hpp"
#include "hpart/hierarchy.hpp"

namespace hpart {

std::vector<int> thread_chunks(std::span<const double> weights, std::size_t n, int threads) {
  if (threads < 1) throw Error(ErrorCode::invalid_argument, "thread_chunks: threads must be >= 1");
  if (!weights.empty() && weights.size() != n)
    throw Error(ErrorCode::size_mismatch, "thread_chunks: " + std::to_string(weights.size()) + " weights for " +
                                              std::to_string(n) + " objects");
  std::vector<double> unit;
  if (weights.empty()) {
    unit.assign(n, 1.0);
    weights = unit;
  }
  const std::vector<std::int64_t> cuts = balance::chains_optimal(weights, threads);
  std::vector<int> chunk(n);
  for (int t = 0; t < threads; ++t)
    for (auto i = cuts[static_cast<std::size_t>(t)]; i < cuts[static_cast<std::size_t>(t) + 1]; ++i)
      chunk[static_cast<std::size_t>(i)] = t;
  return chunk;
}

}  // namespace hpart
