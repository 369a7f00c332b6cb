#include "migration/relabel_partition.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include "kernels/part_relabel.hpp"

namespace hpart::repart {
namespace {

// The bodies of both overloads of each function: W is double or std::int64_t (a graph's vertex
// weights, converted to double where they are added, as a copy to double would have been).
template <class W>
std::vector<int> relabel(const Comm& comm, std::span<const part_t> old_parts, std::vector<part_t>& new_parts,
                         std::span<const W> weights, int ncon, int num_parts) {
  const auto K = static_cast<std::int64_t>(num_parts);
  const std::size_t n = new_parts.size();
  auto w = [&](std::size_t i) {
    return weights.empty() ? 1.0 : static_cast<double>(weights[i * static_cast<std::size_t>(ncon)]);
  };
  std::vector<std::int64_t> keys;
  std::vector<double> vals;
  if (K <= 512) {  // dense is cheaper than hashing while K^2 doubles stay small
    std::vector<double> dense(static_cast<std::size_t>(K * K), 0.0);
    for (std::size_t i = 0; i < n; ++i) dense[static_cast<std::size_t>(old_parts[i] * K + new_parts[i])] += w(i);
    for (std::size_t k = 0; k < dense.size(); ++k)
      if (dense[k] > 0.0) keys.push_back(static_cast<std::int64_t>(k)), vals.push_back(dense[k]);
  } else {
    std::unordered_map<std::int64_t, double> sparse;
    for (std::size_t i = 0; i < n; ++i) sparse[old_parts[i] * K + new_parts[i]] += w(i);
    for (const auto& [k, v] : sparse) keys.push_back(k), vals.push_back(v);
  }
  int count = static_cast<int>(keys.size());
  std::vector<int> counts(static_cast<std::size_t>(comm.size())), displs(static_cast<std::size_t>(comm.size()) + 1, 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm.get());
  for (std::size_t r = 0; r < counts.size(); ++r) displs[r + 1] = displs[r] + counts[r];
  std::vector<std::int64_t> all_keys(comm.rank() == 0 ? static_cast<std::size_t>(displs.back()) : 0);
  std::vector<double> all_vals(all_keys.size());
  MPI_Gatherv(keys.data(), count, MPI_INT64_T, all_keys.data(), counts.data(), displs.data(), MPI_INT64_T, 0, comm.get());
  MPI_Gatherv(vals.data(), count, MPI_DOUBLE, all_vals.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, comm.get());
  std::vector<int> label(static_cast<std::size_t>(num_parts));
  if (comm.rank() == 0) {
    std::unordered_map<std::int64_t, double> merged;
    for (std::size_t k = 0; k < all_keys.size(); ++k) merged[all_keys[k]] += all_vals[k];
    std::vector<Overlap> overlaps;
    overlaps.reserve(merged.size());
    for (const auto& [k, v] : merged) overlaps.push_back({static_cast<int>(k / K), static_cast<int>(k % K), v});
    label = relabel_by_overlap(num_parts, std::move(overlaps));
  }
  MPI_Bcast(label.data(), num_parts, MPI_INT, 0, comm.get());
  for (part_t& p : new_parts) p = static_cast<part_t>(label[static_cast<std::size_t>(p)]);
  return label;
}

}  // namespace

std::vector<int> relabel_to_overlap(const Comm& comm, std::span<const part_t> old_parts, std::vector<part_t>& new_parts,
                                    std::span<const double> weights, int ncon, int num_parts) {
  return relabel(comm, old_parts, new_parts, weights, ncon, num_parts);
}

std::vector<int> relabel_to_overlap(const Comm& comm, std::span<const part_t> old_parts, std::vector<part_t>& new_parts,
                                    IntSpan weights, int ncon, int num_parts) {
  return weights.visit([&](auto w) { return relabel(comm, old_parts, new_parts, w, ncon, num_parts); });
}

}  // namespace hpart::repart
