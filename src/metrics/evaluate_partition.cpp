#include <algorithm>
#include <cmath>
#include <string>

#include "metrics/partition_metrics.hpp"
#include "core/validate.hpp"
#include "metrics/part_ids.hpp"
#include "hpart/partition.hpp"

namespace hpart {

Partition evaluate_partition(const Comm& comm, std::vector<part_t> parts, int num_parts,
                             std::span<const double> weights, int ncon, std::span<const double> target_sizes) {
  std::string problem = detail::check_parts(num_parts);
  if (problem.empty()) problem = detail::check_targets(target_sizes, num_parts);
  if (problem.empty()) problem = detail::check_weights(weights, parts.size(), ncon);
  if (const std::size_t i = detail::first_bad_part(parts, num_parts); problem.empty() && i < parts.size())
    problem = "part of local object " + std::to_string(i) + " is " + std::to_string(parts[i]) + ", outside [0, " +
              std::to_string(num_parts) + ")";
  if (problem.empty()) problem = detail::check_part_memory(num_parts, 8.0 * (2 + std::max(ncon, 1)), 0, 0.0);
  detail::Replicated args;
  args.value("num_parts", static_cast<long long>(num_parts))
      .value("ncon", static_cast<long long>(ncon))
      .values("target_sizes", target_sizes)
      .given("weights", !weights.empty(), parts.empty());
  detail::agree(comm, args, problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);
  return detail::summarise_partition(comm, std::move(parts), num_parts, weights, ncon, target_sizes);
}

namespace detail {

namespace {

// The body of both summarise_partition overloads: W is double (points, grids, patches) or
// std::int64_t (graph vertex weights, read in place instead of copied to double first). Each
// weight is converted to double where it is added, so both give the same sums bit for bit.
template <class W>
Partition summarise(const Comm& comm, std::vector<part_t> parts, int num_parts, std::span<const W> weights, int ncon,
                    std::span<const double> target_sizes) {
  const auto K = static_cast<std::size_t>(num_parts);
  const auto C = static_cast<std::size_t>(ncon);
  Partition result;
  result.num_parts = num_parts;
  result.ncon = ncon;
  result.part_weights.assign(K * C, 0.0);
  result.part_sizes.assign(K, 0);
  const std::size_t n = parts.size();
  if (C == 1) {
    // Runs of equal parts (long on grids and curves) are summed in registers, four partial sums
    // wide: adding into part_weights[p] object by object would chain every add through memory.
    for (std::size_t i = 0; i < n;) {
      const auto p = static_cast<std::size_t>(parts[i]);
      std::size_t j = i;
      while (j < n && static_cast<std::size_t>(parts[j]) == p) ++j;
      double sum = static_cast<double>(j - i);
      if (!weights.empty()) {
        double s[4] = {0, 0, 0, 0};
        std::size_t k = i;
        for (; k + 4 <= j; k += 4)
          for (std::size_t u = 0; u < 4; ++u) s[u] += static_cast<double>(weights[k + u]);
        for (; k < j; ++k) s[0] += static_cast<double>(weights[k]);
        sum = (s[0] + s[1]) + (s[2] + s[3]);
      }
      result.part_weights[p] += sum;
      result.part_sizes[p] += static_cast<long long>(j - i);
      i = j;
    }
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      const auto p = static_cast<std::size_t>(parts[i]);
      ++result.part_sizes[p];
      for (std::size_t c = 0; c < C; ++c) result.part_weights[p * C + c] += weights.empty() ? 1.0 : static_cast<double>(weights[i * C + c]);
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, result.part_weights.data(), static_cast<int>(K * C), MPI_DOUBLE, MPI_SUM, comm.get());
  MPI_Allreduce(MPI_IN_PLACE, result.part_sizes.data(), static_cast<int>(K), MPI_LONG_LONG, MPI_SUM, comm.get());
  // Weights are accepted up to the largest double, but a part's total must be one too: every
  // rank sees the same reduced totals, so every rank reaches this verdict without talking.
  for (std::size_t i = 0; i < result.part_weights.size(); ++i)
    if (!std::isfinite(result.part_weights[i]))
      throw Error(ErrorCode::invalid_input,
                  "the weights of part " + std::to_string(i / C) + " sum past the largest double (1.8e308): the " +
                      "weights' total must stay below it; scale the weights down");
  return partition_from_totals(std::move(parts), num_parts, ncon, std::move(result.part_weights),
                               std::move(result.part_sizes), target_sizes);
}

}  // namespace

Partition summarise_partition(const Comm& comm, std::vector<part_t> parts, int num_parts,
                              std::span<const double> weights, int ncon, std::span<const double> target_sizes) {
  return summarise(comm, std::move(parts), num_parts, weights, ncon, target_sizes);
}

Partition summarise_partition(const Comm& comm, std::vector<part_t> parts, int num_parts,
                              IntSpan weights, int ncon, std::span<const double> target_sizes) {
  return weights.visit([&](auto w) { return summarise(comm, std::move(parts), num_parts, w, ncon, target_sizes); });
}

Partition partition_from_totals(std::vector<part_t> parts, int num_parts, int ncon, std::vector<double> part_weights,
                                std::vector<long long> part_sizes, std::span<const double> target_sizes) {
  const auto K = static_cast<std::size_t>(num_parts);
  const auto C = static_cast<std::size_t>(ncon);
  Partition result;
  result.num_parts = num_parts;
  result.ncon = ncon;
  result.part_weights = std::move(part_weights);
  result.part_sizes = std::move(part_sizes);

  const std::vector<double> target = detail::normalised_targets(target_sizes, num_parts);
  auto& m = result.metrics;
  m.imbalance.assign(C, 0.0);
  for (std::size_t c = 0; c < C; ++c) {
    // Relative to the heaviest part, so that the total cannot overflow where each part's weight
    // does not (four parts of 1e308 sum past the largest double).
    double heaviest = 0.0;
    for (std::size_t p = 0; p < K; ++p) heaviest = std::max(heaviest, result.part_weights[p * C + c]);
    if (heaviest <= 0.0) continue;
    double total = 0.0;
    for (std::size_t p = 0; p < K; ++p) total += result.part_weights[p * C + c] / heaviest;
    double worst = 0.0;
    for (std::size_t p = 0; p < K; ++p)
      worst = std::max(worst, result.part_weights[p * C + c] / heaviest / (total * target[p]));
    m.imbalance[c] = worst - 1.0;
  }
  for (std::size_t p = 0; p < K; ++p) {
    m.objects += result.part_sizes[p];
    if (result.part_sizes[p] == 0) ++m.empty_parts;
  }
  result.parts = std::move(parts);
  return result;
}

void record_tolerance(Partition& p, double tolerance) {
  p.metrics.tolerance = tolerance;
  p.metrics.within_tolerance = true;
  for (const double imb : p.metrics.imbalance)
    if (imb > tolerance + 1e-9 * (1.0 + tolerance)) p.metrics.within_tolerance = false;
}

}  // namespace detail
}  // namespace hpart
