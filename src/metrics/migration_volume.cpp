#include "metrics/migration_volume.hpp"

#include <cstddef>

namespace hpart::detail {

namespace {

// {weight, objects}, both as doubles so that one allreduce sums them (exact below 2^53 objects).
template <class W>
void add_moved(std::span<const part_t> before, std::span<const part_t> after, std::span<const W> weights, int ncon,
               double m[2]) {
  const auto stride = static_cast<std::size_t>(ncon);
  if (!before.empty())
    for (std::size_t i = 0; i < after.size(); ++i)
      if (after[i] != before[i]) m[0] += weights.empty() ? 1.0 : static_cast<double>(weights[i * stride]), m[1] += 1.0;
}

template <class W>
MigrationStats summed(const Comm& comm, std::span<const part_t> before, std::span<const part_t> after,
                      std::span<const W> weights, int ncon) {
  double m[2] = {0.0, 0.0};
  add_moved(before, after, weights, ncon, m);
  comm.sum(std::span<double>(m));
  return {static_cast<long long>(m[1]), m[0]};
}

}  // namespace

MigrationStats moved_here(std::span<const part_t> before, std::span<const part_t> after, std::span<const double> weights,
                          int ncon) {
  double m[2] = {0.0, 0.0};
  add_moved(before, after, weights, ncon, m);
  return {static_cast<long long>(m[1]), m[0]};
}

MigrationStats moved_everywhere(const Comm& comm, std::span<const part_t> before, std::span<const part_t> after,
                                std::span<const double> weights, int ncon) {
  return summed(comm, before, after, weights, ncon);
}

MigrationStats moved_everywhere(const Comm& comm, std::span<const part_t> before, std::span<const part_t> after,
                                IntSpan weights, int ncon) {
  return weights.visit([&](auto w) { return summed(comm, before, after, w, ncon); });
}

}  // namespace hpart::detail
