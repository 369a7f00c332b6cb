#pragma once
// A partition that misses the tolerance it was asked for says so: on stderr (rank 0), with the
// reason where the input alone explains it (an object heavier than a part's share, more parts than
// objects), so an unmet balance is never silent.
#include <algorithm>
#include <cstddef>
#include <span>
#include <utility>

#include "hpart/comm.hpp"
#include "hpart/partition.hpp"

namespace hpart_cli {

// Collective (sums the first-constraint weights over the ranks). heaviest / total: this rank's
// largest and summed first weight. prog: the subcommand, for the message prefix. Returns whether
// the partition met its tolerance (the same on every rank: the metrics are global).
bool warn_if_unbalanced(const hpart::Comm& comm, const hpart::Partition& p, double heaviest, double total,
                        const char* prog);

// This rank's heaviest and summed first weight of n objects whose weights stand `stride` values
// apart in w (ncon per object); empty w: unit weights. The inputs of warn_if_unbalanced.
template <class W>
std::pair<double, double> heaviest_and_total(std::span<const W> w, std::size_t n, std::size_t stride = 1) {
  if (w.empty()) return {n > 0 ? 1.0 : 0.0, static_cast<double>(n)};
  double heaviest = 0.0, total = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto x = static_cast<double>(w[i * stride]);
    heaviest = std::max(heaviest, x), total += x;
  }
  return {heaviest, total};
}

// The worst imbalance over the constraints.
double worst_imbalance(const hpart::Partition& p);

}  // namespace hpart_cli
