#include "sfc/splitter_search.hpp"

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "balance/chains.hpp"
#include "core/log.hpp"

namespace hpart::sfc {
namespace {

// One piece of the discretised curve: the order values sharing the top `level` bits of start.
struct Segment {
  Order start = 0;
  int level = 0;
  std::int64_t weight = 0;
  std::int64_t count = 0;
};

Order prefix_of(Order v, int level) { return level >= 128 ? v : (level <= 0 ? 0 : v >> (128 - level)); }

void allreduce_sum(std::vector<std::int64_t>& v, const Comm& comm) {
  MPI_Allreduce(MPI_IN_PLACE, v.data(), static_cast<int>(v.size()), MPI_INT64_T, MPI_SUM, comm.get());
}

// Weighted histogram of the top `bits` bits of every key: weight and count per bucket.
std::vector<std::int64_t> first_histogram(const CurveObjects& objects, int bits) {
  const std::size_t buckets = std::size_t{1} << bits;
  std::vector<std::int64_t> hist(2 * buckets, 0);
  const auto n = static_cast<std::ptrdiff_t>(objects.size());
#pragma omp parallel
  {
    // Thread-private buckets: integer sums, so the merge order does not matter.
    std::vector<std::int64_t> mine(2 * buckets, 0);
#pragma omp for schedule(static) nowait
    for (std::ptrdiff_t i = 0; i < n; ++i) {
      const auto idx = static_cast<std::size_t>(i);
      const std::size_t b = objects.keys[idx] >> (64 - bits);
      mine[2 * b] += objects.weight(idx);
      mine[2 * b + 1] += 1;
    }
#pragma omp critical(hpart_first_histogram)
    for (std::size_t b = 0; b < 2 * buckets; ++b) hist[b] += mine[b];
  }
  return hist;
}

// Local objects whose top `bits` key bits name a flagged bucket, in local order.
std::vector<std::size_t> select_in_buckets(const CurveObjects& objects, const std::vector<unsigned char>& flagged,
                                           int bits) {
  const auto n = static_cast<std::ptrdiff_t>(objects.size());
  std::vector<std::vector<std::size_t>> per_thread(static_cast<std::size_t>(omp_get_max_threads()));
#pragma omp parallel
  {
    auto& mine = per_thread[static_cast<std::size_t>(omp_get_thread_num())];
#pragma omp for schedule(static) nowait
    for (std::ptrdiff_t i = 0; i < n; ++i)
      if (flagged[objects.keys[static_cast<std::size_t>(i)] >> (64 - bits)]) mine.push_back(static_cast<std::size_t>(i));
  }
  std::vector<std::size_t> all;
  for (const auto& part : per_thread) all.insert(all.end(), part.begin(), part.end());
  return all;
}

// Segments (by index) that hold a cut not yet within tolerance; sorted, unique.
std::vector<std::size_t> unresolved_segments(const std::vector<Segment>& segs, const std::vector<double>& cut_target,
                                             const std::vector<double>& cut_tol) {
  std::vector<std::int64_t> prefix(segs.size() + 1, 0);
  for (std::size_t s = 0; s < segs.size(); ++s) prefix[s + 1] = prefix[s] + segs[s].weight;
  std::vector<std::size_t> active;
  for (std::size_t j = 0; j < cut_target.size(); ++j) {
    const double t = cut_target[j];
    // First boundary strictly above the target; the segment before it contains the target.
    const auto above = std::upper_bound(prefix.begin(), prefix.end(), t,
                                        [](double x, std::int64_t p) { return x < static_cast<double>(p); });
    if (above == prefix.begin() || above == prefix.end()) continue;
    const auto s = static_cast<std::size_t>(above - prefix.begin()) - 1;
    const double below_gap = t - static_cast<double>(prefix[s]);
    const double above_gap = static_cast<double>(prefix[s + 1]) - t;
    if (std::min(below_gap, above_gap) <= cut_tol[j]) continue;
    if (segs[s].count <= 1 || segs[s].level >= 128) continue;  // cannot split further
    if (active.empty() || active.back() != s) active.push_back(s);
  }
  return active;
}

}  // namespace

std::vector<Order> find_splitters(const Comm& comm, const CurveObjects& objects, const SplitterSearchOptions& opts,
                                  SplitterSearchStats* stats) {
  const int K = opts.parts;
  const int first_bits = opts.first_bits;
  const std::size_t buckets = std::size_t{1} << first_bits;

  const detail::Stopwatch clock;
  std::vector<std::int64_t> hist = first_histogram(objects, first_bits);
  const double t_hist = clock.seconds();
  allreduce_sum(hist, comm);
  const double t_reduce = clock.seconds();
  std::vector<Segment> segs(buckets);
  std::int64_t total = 0;
  for (std::size_t b = 0; b < buckets; ++b) {
    segs[b] = Segment{static_cast<Order>(b) << (128 - first_bits), first_bits, hist[2 * b], hist[2 * b + 1]};
    total += hist[2 * b];
  }
  hist = {};

  // Cut j (1..K-1) wants the cumulative weight of parts 0..j-1; tolerance half the imbalance of
  // the smaller neighbouring part, so that no part drifts beyond the allowed imbalance.
  std::vector<double> cut_target, cut_tol;
  double cumulative = 0.0;
  for (int j = 1; j < K; ++j) {
    cumulative += opts.targets[static_cast<std::size_t>(j - 1)];
    cut_target.push_back(cumulative * static_cast<double>(total));
    const double smaller = std::min(opts.targets[static_cast<std::size_t>(j - 1)], opts.targets[static_cast<std::size_t>(j)]);
    cut_tol.push_back(0.5 * opts.imbalance * smaller * static_cast<double>(total));
  }

  SplitterSearchStats local_stats;
  local_stats.rounds = 1;
  std::vector<std::size_t> candidates;  // local objects inside the current active segments
  bool first_refinement = true;
  for (;;) {
    const std::vector<std::size_t> active = unresolved_segments(segs, cut_target, cut_tol);
    if (active.empty()) break;
    // Every active segment was created by the previous round, so all share one level.
    const int level = segs[active.front()].level;
    const int bits = std::min(opts.refine_bits, 128 - level);
    const std::size_t sub = std::size_t{1} << bits;
    std::vector<Order> active_prefix(active.size());
    for (std::size_t a = 0; a < active.size(); ++a) active_prefix[a] = prefix_of(segs[active[a]].start, level);

    auto active_index = [&](Order v) -> std::ptrdiff_t {
      const Order p = prefix_of(v, level);
      const auto it = std::lower_bound(active_prefix.begin(), active_prefix.end(), p);
      return (it != active_prefix.end() && *it == p) ? it - active_prefix.begin() : -1;
    };

    // Narrow the candidate list to the objects inside active segments.
    std::vector<std::size_t> next;
    if (first_refinement) {
      // First-level buckets are indexed by the top key bits: a flag table beats a search.
      std::vector<unsigned char> is_active(buckets, 0);
      for (std::size_t s : active) is_active[s] = 1;
      next = select_in_buckets(objects, is_active, first_bits);
      first_refinement = false;
    } else {
      for (std::size_t i : candidates)
        if (active_index(objects.order(i)) >= 0) next.push_back(i);
    }
    candidates.swap(next);
    local_stats.max_candidates = std::max(local_stats.max_candidates, candidates.size());

    std::vector<std::int64_t> sub_hist(2 * active.size() * sub, 0);
    const int shift = 128 - level - bits;
    for (std::size_t i : candidates) {
      const Order v = objects.order(i);
      const auto a = static_cast<std::size_t>(active_index(v));
      const auto k = static_cast<std::size_t>((v >> shift) & static_cast<Order>(sub - 1));
      sub_hist[2 * (a * sub + k)] += objects.weight(i);
      sub_hist[2 * (a * sub + k) + 1] += 1;
    }
    allreduce_sum(sub_hist, comm);

    std::vector<Segment> refined;
    refined.reserve(segs.size() + active.size() * (sub - 1));
    std::size_t a = 0;
    for (std::size_t s = 0; s < segs.size(); ++s) {
      if (a < active.size() && active[a] == s) {
        for (std::size_t k = 0; k < sub; ++k)
          refined.push_back(Segment{segs[s].start + (static_cast<Order>(k) << shift), level + bits,
                                    sub_hist[2 * (a * sub + k)], sub_hist[2 * (a * sub + k) + 1]});
        ++a;
      } else {
        refined.push_back(segs[s]);
      }
    }
    segs.swap(refined);
    ++local_stats.rounds;
  }

  const double t_refine = clock.seconds();
  // Bottleneck-optimal cuts on the discretised curve: exact integer weights, identical on
  // every rank, so every rank computes the same splitters without a broadcast.
  std::vector<std::int64_t> weights(segs.size());
  for (std::size_t s = 0; s < segs.size(); ++s) weights[s] = segs[s].weight;
  const std::vector<std::int64_t> cuts = balance::chains_optimal(weights, K, opts.targets);
  std::vector<Order> splitters(static_cast<std::size_t>(K) + 1);
  for (std::size_t j = 0; j < splitters.size(); ++j) {
    const auto c = static_cast<std::size_t>(cuts[j]);
    splitters[j] = c >= segs.size() ? kNoSplitter : segs[c].start;
  }
  splitters.front() = 0;
  splitters.back() = kNoSplitter;

  local_stats.segments = segs.size();
  detail::log(comm, 2, "sfc splitter search: histogram " + std::to_string(t_hist) + " s, allreduce " +
                           std::to_string(t_reduce - t_hist) + " s, refinement " + std::to_string(t_refine - t_reduce) +
                           " s, chains " + std::to_string(clock.seconds() - t_refine) + " s");
  if (stats) *stats = local_stats;
  detail::log(comm, 2, "sfc splitter search: " + std::to_string(local_stats.rounds) + " rounds, " +
                           std::to_string(local_stats.segments) + " curve segments, rank-0 candidates " +
                           std::to_string(local_stats.max_candidates));
  return splitters;
}

void assign_parts(const CurveObjects& objects, const std::vector<Order>& splitters, int first_bits,
                  std::span<part_t> parts) {
  // Interior splitters s_1..s_{K-1}: part(v) = number of them <= v.
  const std::vector<Order> inner(splitters.begin() + 1, splitters.end() - 1);
  const std::size_t buckets = std::size_t{1} << first_bits;
  // Per first-level bucket, the range of splitters that fall strictly inside it: most buckets
  // have none, and their objects get their part without a search.
  std::vector<std::int32_t> lo(buckets), hi(buckets);
  for (std::size_t b = 0; b < buckets; ++b) {
    const Order start = static_cast<Order>(b) << (128 - first_bits);
    lo[b] = static_cast<std::int32_t>(std::upper_bound(inner.begin(), inner.end(), start) - inner.begin());
    const Order end = b + 1 < buckets ? static_cast<Order>(b + 1) << (128 - first_bits) : kNoSplitter;
    hi[b] = static_cast<std::int32_t>(std::lower_bound(inner.begin(), inner.end(), end) - inner.begin());
  }
  const auto n = static_cast<std::ptrdiff_t>(objects.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const auto idx = static_cast<std::size_t>(i);
    const std::size_t b = objects.keys[idx] >> (64 - first_bits);
    if (lo[b] >= hi[b]) {
      parts[idx] = lo[b];
      continue;
    }
    const Order v = objects.order(idx);
    parts[idx] = static_cast<part_t>(std::upper_bound(inner.begin() + lo[b], inner.begin() + hi[b], v) - inner.begin());
  }
}

}  // namespace hpart::sfc
