#include "points/splitter_search.hpp"

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "kernels/chains.hpp"
#include "core/log.hpp"
#include "core/huge_pages.hpp"

namespace hpart::sfc {
namespace {

// One piece of the discretised curve: the order values sharing the top `level` bits of start.
struct Segment {
  Order start = 0;
  int level = 0;
  std::int64_t weight = 0;
  std::int64_t count = 0;
};

// The search's large arrays (histograms of 2^16 buckets, 10^5 segments: megabytes per call) in
// huge-page storage: inside a Rebalancer's pool scope each call reuses the last one's blocks, where
// fresh pages cost a fault each and made every other call ~3x slower on a VM (huge_pages.hpp).
using Counts = graphk::HugeVector<std::int64_t>;
using Segments = graphk::HugeVector<Segment>;


void allreduce_sum(Counts& v, const Comm& comm) {
  MPI_Allreduce(MPI_IN_PLACE, v.data(), static_cast<int>(v.size()), MPI_INT64_T, MPI_SUM, comm.get());
}

// Weighted histogram of the top `bits` bits of every key: weight and count per bucket.
Counts first_histogram(const CurveObjects& objects, int bits) {
  const std::size_t buckets = std::size_t{1} << bits;
  Counts hist(2 * buckets, 0);
  const auto n = static_cast<std::ptrdiff_t>(objects.size());
#pragma omp parallel
  {
    // Thread-private buckets: integer sums, so the merge order does not matter.
    Counts mine(2 * buckets, 0);
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

// A local object inside a range that holds an unresolved cut, copied out of the object arrays
// so that later rounds stream through a compact array instead of gathering by index. 24 bytes:
// the id (the low half of the order value) is fetched by index only in rounds that refine
// below the key's 64 bits, which only coincident points reach.
struct Candidate {
  std::uint64_t key;
  std::int64_t weight;
  std::uint32_t index;  // local object index
  std::int32_t cell;    // index of its range among the active ones, then of its cell in the round
};

// The local candidates, in one exactly sized allocation: growing vectors would copy them into
// fresh pages several times, and page faults dominate this pass on many machines. Huge-page
// storage, uninitialised (every slot is written before it is read): a third of 4M clustered
// points is 32 MB, 8000 faults of 4 KiB in a fresh process.
struct HugeArrayDelete {
  void operator()(void* p) const noexcept { graphk::free_huge_array(p); }
};
struct CandidateList {
  std::unique_ptr<Candidate[], HugeArrayDelete> data;
  std::size_t size = 0;
  [[nodiscard]] Candidate* begin() const { return data.get(); }
  [[nodiscard]] Candidate* end() const { return data.get() + size; }
};

// The local objects with slot_of(i) >= 0 (inside an active range), tagged with that slot.
// Two passes per thread (count, then fill at the thread's offset) keep the output in local order.
template <class SlotOf>
CandidateList select_candidates(const CurveObjects& objects, SlotOf slot_of) {
  const std::size_t n = objects.size();
  const auto threads = static_cast<std::size_t>(omp_get_max_threads());
  std::vector<std::size_t> offset(threads + 1, 0);
  CandidateList out;
#pragma omp parallel num_threads(static_cast<int>(threads))
  {
    // Explicit contiguous slices: the count and the fill must see the same objects per thread.
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t lo = n * t / threads, hi = n * (t + 1) / threads;
    std::size_t mine = 0;
    for (std::size_t i = lo; i < hi; ++i) mine += slot_of(i) >= 0 ? 1 : 0;
    offset[t + 1] = mine;
#pragma omp barrier
#pragma omp single
    {
      for (std::size_t k = 0; k < threads; ++k) offset[k + 1] += offset[k];
      out.size = offset[threads];
      // Candidate is trivial: the raw block holds them as written (implicit-lifetime type).
      static_assert(std::is_trivially_copyable_v<Candidate> && std::is_trivially_default_constructible_v<Candidate>);
      out.data.reset(static_cast<Candidate*>(graphk::allocate_huge_array(out.size * sizeof(Candidate))));
    }
    // Branch-free fill: write every object, advance only past those inside an active range (a
    // data-dependent branch here mispredicts often). Once the thread's slice is full, every
    // object left is outside; the predictable end check keeps the writes off the next slice.
    Candidate* dst = out.data.get() + offset[t];
    Candidate* const dst_end = out.data.get() + offset[t + 1];
    for (std::size_t i = lo; i < hi && dst != dst_end; ++i) {
      const std::int32_t a = slot_of(i);
      *dst = Candidate{objects.keys[i], objects.weight(i), static_cast<std::uint32_t>(i), a};
      dst += a >= 0 ? 1 : 0;
    }
  }
  return out;
}

// Adds each candidate to its cell (range slot * sub + next `bits` bits below `shift`) and
// leaves the cell index in the candidate for the next round's filter.
Counts cell_histogram(const CurveObjects& objects, CandidateList& cand, std::size_t cells,
                                         int shift, int bits) {
  Counts hist(2 * cells, 0);
  const Order mask = (static_cast<Order>(1) << bits) - 1;
  const bool key_bits_only = shift >= 64;
  for (Candidate& c : cand) {
    const Order v = key_bits_only ? static_cast<Order>(c.key) << 64 : objects.order(c.index);
    const auto cell = static_cast<std::size_t>(c.cell) * (std::size_t{1} << bits) +
                      static_cast<std::size_t>((v >> shift) & mask);
    hist[2 * cell] += c.weight;
    hist[2 * cell + 1] += 1;
    c.cell = static_cast<std::int32_t>(cell);
  }
  return hist;
}

// Keeps the candidates whose cell became an active range (remap[cell] >= 0), renumbered.
void keep_active(CandidateList& cand, const std::vector<std::int32_t>& remap) {
  std::size_t kept = 0;
  for (const Candidate& c : cand) {
    const std::int32_t a = remap[static_cast<std::size_t>(c.cell)];
    cand.data[kept] = Candidate{c.key, c.weight, c.index, a};  // branch-free, as in select_candidates
    kept += a >= 0 ? 1 : 0;
  }
  cand.size = kept;
}

// Bits per active range this round: all ranges together get at most 2^budget cells (at least
// one bit each, so that the cell index stays below 2^31 for any K <= 2^30).
int round_bits(std::size_t active, int budget, int level) {
  int log2_active = 0;
  while ((std::size_t{1} << log2_active) < active) ++log2_active;
  return std::min(std::max(budget - log2_active, 1), 128 - level);
}

// Segments (by index) that hold a cut not yet within tolerance; sorted, unique.
std::vector<std::size_t> unresolved_segments(const Segments& segs, const std::vector<double>& cut_target,
                                             const std::vector<double>& cut_tol) {
  Counts prefix(segs.size() + 1, 0);
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
  Counts hist = first_histogram(objects, first_bits);
  const double t_hist = clock.seconds();
  allreduce_sum(hist, comm);
  const double t_reduce = clock.seconds();
  Segments segs(buckets);
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
  CandidateList cand;                    // local objects inside the current active ranges
  std::vector<std::int32_t> first_slot;  // first-level bucket -> index of its active range, or -1
  Counts cell_of;                        // per segment: its cell in the last round, or -1
  std::size_t last_cells = 0;
  for (int round = 1;; ++round) {
    const std::vector<std::size_t> active = unresolved_segments(segs, cut_target, cut_tol);
    if (active.empty()) break;
    std::vector<std::int32_t> remap;  // cell of the last round -> index of its active range
    if (round > 1) {
      // Every active range is a cell of the last round (a resolved cut stays resolved).
      remap.assign(last_cells, -1);
      for (std::size_t a = 0; a < active.size(); ++a)
        remap[static_cast<std::size_t>(cell_of[active[a]])] = static_cast<std::int32_t>(a);
    }
    if (round == 1) {
      // First-level buckets are indexed by the top key bits: a slot table beats a search.
      first_slot.assign(buckets, -1);
      for (std::size_t a = 0; a < active.size(); ++a) first_slot[active[a]] = static_cast<std::int32_t>(a);
      cand = select_candidates(objects, [&](std::size_t i) { return first_slot[objects.keys[i] >> (64 - first_bits)]; });
    } else {
      keep_active(cand, remap);
    }
    local_stats.max_candidates = std::max(local_stats.max_candidates, cand.size);

    const int level = segs[active.front()].level;
    const int bits = round_bits(active.size(), opts.refine_budget_bits, level);
    const std::size_t sub = std::size_t{1} << bits;
    const int shift = 128 - level - bits;
    last_cells = active.size() * sub;
    Counts sub_hist = cell_histogram(objects, cand, last_cells, shift, bits);
    allreduce_sum(sub_hist, comm);

    Segments refined;
    refined.reserve(segs.size() + last_cells);
    cell_of.assign(segs.size() + last_cells - active.size(), -1);
    std::size_t a = 0;
    for (std::size_t s = 0; s < segs.size(); ++s) {
      if (a < active.size() && active[a] == s) {
        for (std::size_t k = 0; k < sub; ++k) {
          const std::size_t cell = a * sub + k;
          cell_of[refined.size()] = static_cast<std::int64_t>(cell);
          refined.push_back(Segment{segs[s].start + (static_cast<Order>(k) << shift), level + bits,
                                    sub_hist[2 * cell], sub_hist[2 * cell + 1]});
        }
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
  Counts weights(segs.size());
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
  // Per first-level bucket: lo = splitters at or below its start, and the first splitter strictly
  // inside it (kNoSplitter if none). With at most one inside, part = lo + (v >= first) needs no
  // branch; a data-dependent branch would mispredict on the many objects of clustered buckets.
  std::vector<std::int32_t> lo(buckets);
  std::vector<Order> first(buckets);
  std::vector<unsigned char> several(buckets);
  for (std::size_t b = 0; b < buckets; ++b) {
    const Order start = static_cast<Order>(b) << (128 - first_bits);
    const Order end = b + 1 < buckets ? static_cast<Order>(b + 1) << (128 - first_bits) : kNoSplitter;
    const auto l = std::upper_bound(inner.begin(), inner.end(), start) - inner.begin();
    const auto h = std::lower_bound(inner.begin(), inner.end(), end) - inner.begin();
    lo[b] = static_cast<std::int32_t>(l);
    first[b] = h > l ? inner[static_cast<std::size_t>(l)] : kNoSplitter;
    several[b] = h - l > 1;
  }
  const auto n = static_cast<std::ptrdiff_t>(objects.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const auto idx = static_cast<std::size_t>(i);
    const std::size_t b = objects.keys[idx] >> (64 - first_bits);
    const Order v = objects.order(idx);
    if (several[b]) [[unlikely]] {
      parts[idx] = static_cast<part_t>(std::upper_bound(inner.begin(), inner.end(), v) - inner.begin());
      continue;
    }
    parts[idx] = lo[b] + (v >= first[b] ? 1 : 0);
  }
}

}  // namespace hpart::sfc
