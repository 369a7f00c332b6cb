// hpart's multilevel k-way graph partitioner (see multilevel.hpp). The scheme is METIS's, with a
// stronger refinement:
//  1. coarsen by size-constrained label propagation clustering (or, cluster_rounds 0, by
//     heavy-edge matching, rating w^2 / (size u * size v)) until about max(60 k, 2000)
//     vertices remain, or a step shrinks the graph by less than 15%;
//  2. partition the coarsest graph with METIS (recursive bisection, the best of two cuts);
//  3. on the way back up, project and refine every level: rebalance where a bound is broken,
//     fill empty parts, then k-way FM passes over the boundary (negative-gain moves allowed and
//     rolled back to the best prefix: what lets it leave METIS's greedy optima);
//  4. (V-cycles, opts.vcycles) coarsen again matching only within parts, so the partition is
//     every coarse level's too, and refine on the way up: the coarse levels' FM moves whole
//     clusters, which the finest level's single-vertex moves cannot. The best result is kept.
// The numbers above (60 per part, two tries, FM passes) are the standard effort's; opts sets them.
// Why clustering is the default coarsening: its first level is ~5x smaller than matching's (a
// matching at best halves the vertices and keeps ~90% of a mesh's edges), so the levels take
// ~half the memory (grid3d: peak 446 -> ~255 MB), and its clusters follow dense regions, which
// random geometric graphs reward (rgg2d: 11% less cut; grid3d within 3% either way; the shared
// graphs 0.3% less), at about the same speed with 3 rounds (docs/benchmarks.md, "Coarsening by clustering").
// Matching runs in fixed blocks of vertices, contraction, projection and the evaluation of
// boundary vertices per vertex in parallel; the moves are sequential and seeded by opts.seed,
// so the partition is the same for any thread count.
#include "graph/multilevel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "graph/refinement/ml_balance.hpp"
#include "graph/coarsening/ml_coarsen.hpp"
#include "graph/ml_graph_view.hpp"
#include "graph/initial/ml_initial.hpp"
#include "graph/refinement/ml_refine.hpp"
#include "hpart/error.hpp"
#include "metrics/part_ids.hpp"

namespace hpart::graphk {
namespace {

// Coarsest graph size: large enough that METIS (itself multilevel) sees the global structure,
// and that coarse vertices stay small against a part (1.5 / 60 of one at most).
// Per part: MultilevelOptions::coarsest_per_part, 60 in the standard effort, where the floor is
// 2000 vertices (what fewer than 34 parts get); other efforts scale the floor alike.
constexpr std::int32_t kCoarsenMin = 2000;
constexpr std::int32_t kCoarsenMinParts = 60;  // (the per-part count kCoarsenMin belongs to)
// METIS's tolerance on the coarsest graph, as a fraction of the caller's. With one constraint
// the caller's own: half of it gives the projected parts more room, but METIS cuts worse (2%
// more cut on the shared graphs in geometric mean, 20% on add20 at k = 64). With several,
// METIS balances them badly anyway, and a third of the tolerance leaves the repair less to do
// (test.mgraph, k = 64: 2% less cut).
constexpr double kInitialTolerance = 1.0;
constexpr double kInitialToleranceMulti = 0.3;
// Hard balance (see the coarsest level below): rounds at most, and rounds without improvement.
constexpr int kHardRounds = 12;
constexpr int kHardPatience = 3;

[[noreturn]] void fail(ErrorCode code, const char* caller, const std::string& what) {
  throw Error(code, std::string(caller) + ": " + what);
}

void check_options(const MultilevelOptions& o, const char* caller) {
  if (o.parts < 1) fail(ErrorCode::invalid_argument, caller, "parts must be >= 1, got " + std::to_string(o.parts));
  if (!std::isfinite(o.imbalance) || o.imbalance < 0.0)
    fail(ErrorCode::invalid_argument, caller, "imbalance must be finite and >= 0, got " + std::to_string(o.imbalance));
  if (!o.targets.empty() && o.targets.size() != static_cast<std::size_t>(o.parts))
    fail(ErrorCode::invalid_argument, caller,
         "targets must be empty or hold one value per part (" + std::to_string(o.parts) + "), got " +
             std::to_string(o.targets.size()));
  for (std::size_t p = 0; p < o.targets.size(); ++p)
    if (!std::isfinite(o.targets[p]) || o.targets[p] <= 0.0)
      fail(ErrorCode::invalid_argument, caller,
           "target " + std::to_string(p) + " must be finite and > 0, got " + std::to_string(o.targets[p]));
  const auto in = [&](const char* name, std::int64_t v, std::int64_t lo, std::int64_t hi) {
    if (v < lo || v > hi)
      fail(ErrorCode::invalid_argument, caller,
           std::string(name) + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " +
               std::to_string(v));
  };
  in("coarsest_per_part", o.coarsest_per_part, 1, 10000);
  in("initial_tries", o.initial_tries, 1, 100);
  in("fm_passes", o.fm_passes, 0, 100);
  in("fm_horizon", o.fm_horizon, 0, 100000000);
  in("vcycles", o.vcycles, 0, 20);
  in("cluster_rounds", o.cluster_rounds, 0, 20);
  in("coarsenings", o.coarsenings, 1, 2);
}

// The graph as the kernels see it. Empty vwgt / adjwgt mean unit weights, and vertex weights
// that are all zero are replaced by unit ones (as the point partitioners balance counts then):
// otherwise every partition would be "balanced" and nothing would keep parts apart.
struct Input {
  GraphView view;
  HugeVector<std::int64_t> vwgt;  // substitute vertex weights, when used (no edge weights: unit)
};

void prepare(const GraphView& g, Input& in, const char* caller, bool validated = false) {
  if (g.ncon < 1) fail(ErrorCode::invalid_argument, caller, "ncon must be >= 1, got " + std::to_string(g.ncon));
  if (g.xadj.empty() || g.xadj.front() != 0) fail(ErrorCode::invalid_input, caller, "xadj must start with 0");
  if (g.xadj.size() - 1 > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    fail(ErrorCode::invalid_input, caller, "more than 2^31 - 1 vertices");
  const auto n = static_cast<std::int32_t>(g.xadj.size() - 1);
  const auto nc = static_cast<std::size_t>(g.ncon);
  for (std::int32_t v = 0; v < n; ++v)
    if (g.xadj[static_cast<std::size_t>(v) + 1] < g.xadj[static_cast<std::size_t>(v)])
      fail(ErrorCode::invalid_input, caller, "xadj decreases at vertex " + std::to_string(v));
  if (static_cast<std::size_t>(g.xadj.back()) != g.adjncy.size())
    fail(ErrorCode::size_mismatch, caller,
         "xadj[n] is " + std::to_string(g.xadj.back()) + " but adjncy holds " + std::to_string(g.adjncy.size()));
  if (!g.adjwgt.empty() && !g.adjwgt32.empty())
    fail(ErrorCode::invalid_argument, caller, "adjwgt and adjwgt32 are both set: give one");
  if (!g.unit_edges() && g.adjwgt.size() + g.adjwgt32.size() != g.adjncy.size())
    fail(ErrorCode::size_mismatch, caller, "adjwgt must hold one weight per adjncy entry (or none)");
  if (!g.vwgt.empty() && g.vwgt.size() != static_cast<std::size_t>(n) * nc)
    fail(ErrorCode::size_mismatch, caller, "vwgt must hold n * ncon weights (or none)");
  // The edge checks run in parallel and agree on the first bad vertex, then name its problem.
  auto check_vertex = [&](std::int32_t v, bool report) {
    for (std::int64_t e = g.xadj[static_cast<std::size_t>(v)]; e < g.xadj[static_cast<std::size_t>(v) + 1]; ++e) {
      const std::int32_t u = g.adjncy[static_cast<std::size_t>(e)];
      if (u < 0 || u >= n || u == v) {
        if (report)
          fail(ErrorCode::invalid_input, caller,
               "vertex " + std::to_string(v) + " has neighbour " + std::to_string(u) +
                   (u == v ? " (a self-loop)" : " (out of range)"));
        return false;
      }
      if (g.ewgt(e) <= 0) {
        if (report) fail(ErrorCode::invalid_input, caller, "edge weights must be > 0 (vertex " + std::to_string(v) + ")");
        return false;
      }
    }
    return true;
  };
  std::int32_t first_bad = n;
#pragma omp parallel for schedule(static) reduction(min : first_bad) if (!validated)
  for (std::int32_t v = 0; v < (validated ? 0 : n); ++v)
    if (v < first_bad && !check_vertex(v, false)) first_bad = v;
  if (first_bad < n) check_vertex(first_bad, true);
  // Totals must fit comfortably in 64 bits: part weights and gains are summed in int64.
  constexpr auto kLimit = std::int64_t{1} << 62;
  bool any = false;
  std::vector<std::int64_t> total(nc, 0);
  for (std::size_t i = 0; i < g.vwgt.size(); ++i) {
    const std::int64_t w = g.vwgt[i];
    if (w < 0) fail(ErrorCode::invalid_input, caller, "vertex " + std::to_string(i / nc) + " has a negative weight");
    if (w > kLimit - total[i % nc]) fail(ErrorCode::invalid_input, caller, "the vertex weights' sum overflows");
    total[i % nc] += w;
    any = any || w > 0;
  }
  // Edge weights are > 0 (checked above), each < 2^62: their sum overflows 64 bits only if the
  // saturated parallel sum reaches the limit.
  std::int64_t etotal = 0;
  const auto m = static_cast<std::int64_t>(g.unit_edges() ? 0 : g.adjncy.size());
#pragma omp parallel for schedule(static) reduction(+ : etotal)
  for (std::int64_t e = 0; e < m; ++e) etotal = std::min(kLimit, etotal + std::min(kLimit, g.ewgt(e)));
  if (etotal >= kLimit) fail(ErrorCode::invalid_input, caller, "the edge weights' sum overflows");
  in.view = g;
  in.view.n = n;
  if (!any) {
    in.vwgt.assign(static_cast<std::size_t>(n) * nc, 1);
    in.view.vwgt = in.vwgt;
  }
}

std::vector<double> shares_of(const MultilevelOptions& o) {
  if (!o.targets.empty()) return o.targets;
  return std::vector<double>(static_cast<std::size_t>(o.parts), 1.0);
}

RefineParams refine_params(const MultilevelOptions& o) {
  RefineParams p;
  p.fm_rounds = o.fm_passes;
  p.fm_stall = o.fm_horizon;
  return p;
}

// Returns whether balance needed the exchange search (a hard instance).
bool refine_level(const GraphView& g, const Balance& b, std::vector<part_t>& part, const RefineParams& params) {
  Refiner r(g, b, part);
  r.refine(params);
  return r.repaired();
}

// (excess over the tolerance, cut): lower is better.
std::pair<double, std::int64_t> quality(const GraphView& g, const Balance& b, double imbalance,
                                        const std::vector<part_t>& part) {
  std::int64_t cut = 0;
#pragma omp parallel for schedule(static) reduction(+ : cut)
  for (std::int32_t v = 0; v < g.n; ++v)
    for (std::int64_t e = g.begin(v); e < g.end(v); ++e)
      if (part[static_cast<std::size_t>(g.nbr(e))] != part[static_cast<std::size_t>(v)]) cut += g.ewgt(e);
  return {std::max(0.0, max_imbalance(b, part_weights(g, part, b.k)) - imbalance), cut / 2};
}

// The levels of one coarsening, finest first (the caller's graph is not among them). `part`
// (empty, or the finest level's partition): a V-cycle's, matched within parts; its projection
// onto each level is returned in coarse_parts (coarse_parts[i] for levels[i]).
struct Hierarchy {
  std::vector<std::unique_ptr<CoarseLevel>> levels;
  std::vector<std::vector<part_t>> coarse_parts;
  [[nodiscard]] GraphView coarsest(const GraphView& fine) const { return levels.empty() ? fine : levels.back()->view(); }
};

// cluster_rounds > 0: by clustering (coarsen_once).
Hierarchy coarsen(const GraphView& fine, const Balance& bal, const MultilevelOptions& opts, std::uint64_t seed,
                  std::span<const part_t> part, int cluster_rounds) {
  // Coarse vertices may weigh up to 1.5x an average coarsest vertex.
  const auto coarsen_to = static_cast<std::int32_t>(std::min<std::int64_t>(
      std::max<std::int64_t>(std::int64_t{opts.coarsest_per_part} * bal.k,
                             std::int64_t{kCoarsenMin} * opts.coarsest_per_part / kCoarsenMinParts),
      std::numeric_limits<std::int32_t>::max()));
  std::vector<std::int64_t> max_vwgt(static_cast<std::size_t>(fine.ncon));
  for (std::size_t c = 0; c < max_vwgt.size(); ++c)
    max_vwgt[c] = std::max<std::int64_t>(1, static_cast<std::int64_t>(1.5 * static_cast<double>(bal.total[c]) / coarsen_to));
  Hierarchy h;
  // Every coarse edge weight sums fine ones: below 2^31 in total, they all fit 32 bits.
  const bool narrow = fine.edge_total() < (std::int64_t{1} << 31);
  GraphView cur = fine;
  std::span<const part_t> cur_part = part;
  while (cur.n > coarsen_to) {
    auto level = std::make_unique<CoarseLevel>(coarsen_once(cur, max_vwgt, seed + h.levels.size(), 0, narrow, cur_part, cluster_rounds));
    const std::int32_t cn = level->n;
    if (cn == cur.n) break;  // nothing matched: the level would only cost time
    const bool slow = static_cast<double>(cn) > kMinShrink * static_cast<double>(cur.n);
    if (!part.empty()) {  // every coarse vertex lies in one part: its members'
      std::vector<part_t> cp(static_cast<std::size_t>(cn));
      const HugeVector<std::int32_t>& cmap = level->cmap;
      // Sequential: the members of a coarse vertex would write its entry from several threads.
      for (std::int32_t v = 0; v < cur.n; ++v)
        cp[static_cast<std::size_t>(cmap[static_cast<std::size_t>(v)])] = cur_part[static_cast<std::size_t>(v)];
      h.coarse_parts.push_back(std::move(cp));
      cur_part = h.coarse_parts.back();
    }
    h.levels.push_back(std::move(level));
    cur = h.levels.back()->view();
    if (slow) break;
  }
  return h;
}

// Projects `part` (the coarsest level's) level by level onto `fine`, refining every level; the
// levels are freed on the way.
void uncoarsen(const GraphView& fine, Hierarchy& h, const Balance& bal, const RefineParams& params,
               std::vector<part_t>& part) {
  for (std::size_t i = h.levels.size(); i-- > 0;) {
    const GraphView finer = i == 0 ? fine : h.levels[i - 1]->view();
    const HugeVector<std::int32_t>& cmap = h.levels[i]->cmap;
    std::vector<part_t> projected(static_cast<std::size_t>(finer.n));
#pragma omp parallel for schedule(static)
    for (std::int32_t v = 0; v < finer.n; ++v)
      projected[static_cast<std::size_t>(v)] = part[static_cast<std::size_t>(cmap[static_cast<std::size_t>(v)])];
    h.levels[i].reset();  // the coarse graph is no longer needed
    part.swap(projected);
    refine_level(finer, bal, part, params);
  }
}

// One V-cycle on `part` (the fine graph's partition): coarsened within parts, refined on every
// level from the coarsest up. Cycle c's matchings have seeds of their own.
std::vector<part_t> vcycle(const GraphView& fine, const Balance& bal, const MultilevelOptions& opts,
                           const RefineParams& params, const std::vector<part_t>& part, int c, int cluster_rounds) {
  const std::uint64_t seed = static_cast<std::uint64_t>(opts.seed) * 1000003ULL + 65537ULL * static_cast<std::uint64_t>(c);
  Hierarchy h = coarsen(fine, bal, opts, seed, part, cluster_rounds);
  std::vector<part_t> out = h.levels.empty() ? part : std::move(h.coarse_parts.back());
  h.coarse_parts.clear();
  refine_level(h.coarsest(fine), bal, out, params);
  uncoarsen(fine, h, bal, params, out);
  return out;
}

// Steps 1-3 of the scheme: coarsening (cluster_rounds > 0: by clustering), METIS's initial
// partition of the coarsest graph, refinement on every level on the way up.
std::vector<part_t> multilevel_cycle(const GraphView& fine, const Balance& bal, const MultilevelOptions& opts,
                                     const RefineParams& params, int cluster_rounds) {
  const int k = bal.k;
  // 1. Coarsening.
  Hierarchy h = coarsen(fine, bal, opts, static_cast<std::uint64_t>(opts.seed) * 1000003ULL, {}, cluster_rounds);
  const GraphView cur = h.coarsest(fine);

  // 2. Initial partition of the coarsest graph, refined there.
  InitialOptions io;
  io.imbalance = opts.imbalance * (fine.ncon > 1 ? kInitialToleranceMulti : kInitialTolerance);
  io.tries = opts.initial_tries;
  io.seed = opts.seed;
  std::vector<part_t> part = initial_partition(cur, bal, io);
  std::vector<part_t> start = part;
  if (refine_level(cur, bal, part, params)) {
    // Balance needed the exchange search (several tight constraints), and the cut then depends
    // much on where the repair starts. Alternate FM at twice the tolerance (parts have room
    // and the cut recovers) with repair to the tolerance, from METIS's partition, keeping the
    // best state. test.mgraph, k = 64, 12 seeds: mean cut 545 -> 535 (METIS k-way: 438, but
    // 10-12% above the targets; at that imbalance this partitioner cuts 427).
    const Balance loose = make_balance(cur, k, 2.0 * opts.imbalance, shares_of(opts));
    auto best = quality(cur, bal, opts.imbalance, part);
    for (int round = 0, stale = 0; round < kHardRounds && stale < kHardPatience; ++round) {
      refine_level(cur, loose, start, params);
      refine_level(cur, bal, start, params);
      const auto q = quality(cur, bal, opts.imbalance, start);
      if (q < best) {
        best = q;
        part = start;
        stale = 0;
      } else {
        ++stale;
      }
    }
  }

  // 3. Uncoarsening: project to the finer level, refine there.
  uncoarsen(fine, h, bal, params, part);
  return part;
}

}  // namespace

std::vector<part_t> multilevel_partition(const CsrGraph& graph, const MultilevelOptions& opts) {
  return multilevel_partition(view_of(graph), opts);
}

std::vector<part_t> multilevel_partition(const GraphView& graph, const MultilevelOptions& opts) {
  constexpr const char* caller = "multilevel_partition";
  check_options(opts, caller);
  const HugeArrayScope reuse;  // the levels reuse each other's freed arrays
  Input in;
  prepare(graph, in, caller, opts.validated);
  const GraphView& fine = in.view;
  const int k = opts.parts;
  if (fine.n == 0) return {};
  if (k == 1) return std::vector<part_t>(static_cast<std::size_t>(fine.n), 0);
  const std::vector<double> shares = shares_of(opts);
  const Balance bal = make_balance(fine, k, opts.imbalance, shares);
  // k >= n: every vertex gets a part of its own (the largest shares first), the rest stay empty.
  if (fine.n <= k) return pack_vertices(fine, bal);
  const RefineParams params = refine_params(opts);

  // 1-3 with the options' coarsening; with coarsenings 2, again with the other, keeping the better.
  int coarsening = opts.cluster_rounds;  // the better run's: the V-cycles coarsen alike
  std::vector<part_t> part = multilevel_cycle(fine, bal, opts, params, coarsening);
  if (opts.coarsenings > 1) {
    // Where the first run matched, the second clusters with the standard effort's rounds.
    const int other_rounds = opts.cluster_rounds > 0 ? 0 : MultilevelOptions{}.cluster_rounds;
    std::vector<part_t> other = multilevel_cycle(fine, bal, opts, params, other_rounds);
    if (quality(fine, bal, opts.imbalance, other) < quality(fine, bal, opts.imbalance, part)) {
      part.swap(other);
      coarsening = other_rounds;
    }
  }

  // 4. V-cycles from the best partition so far.
  if (opts.vcycles > 0) {
    auto best = quality(fine, bal, opts.imbalance, part);
    for (int c = 1; c <= opts.vcycles; ++c) {
      std::vector<part_t> next = vcycle(fine, bal, opts, params, part, c, coarsening);
      const auto q = quality(fine, bal, opts.imbalance, next);
      if (q < best) {  // (else the next cycle, with other matchings, starts from the same best)
        best = q;
        part.swap(next);
      }
    }
  }
  return part;
}

std::vector<part_t> metis_kway(const CsrGraph& graph, const MultilevelOptions& opts) {
  constexpr const char* caller = "metis_kway";
  check_options(opts, caller);
  Input in;
  prepare(view_of(graph), in, caller, opts.validated);
  if (in.view.n == 0) return {};
  InitialOptions io;
  io.imbalance = opts.imbalance;
  io.tries = 1;
  io.seed = opts.seed;
  io.kway = true;
  return initial_partition(in.view, make_balance(in.view, opts.parts, opts.imbalance, shares_of(opts)), io);
}

void refine_partition(const CsrGraph& graph, std::vector<part_t>& parts, const MultilevelOptions& opts) {
  constexpr const char* caller = "refine_partition";
  check_options(opts, caller);
  Input in;
  prepare(view_of(graph), in, caller);
  if (parts.size() != static_cast<std::size_t>(in.view.n))
    fail(ErrorCode::size_mismatch, caller,
         "parts holds " + std::to_string(parts.size()) + " values for " + std::to_string(in.view.n) + " vertices");
  if (const std::size_t v = detail::first_bad_part(parts, opts.parts); v < parts.size())
    fail(ErrorCode::invalid_input, caller,
         "vertex " + std::to_string(v) + " is in part " + std::to_string(parts[v]) + ", outside [0, " +
             std::to_string(opts.parts) + ")");
  if (in.view.n == 0 || opts.parts == 1) return;
  const std::vector<double> shares = shares_of(opts);
  const Balance bal = make_balance(in.view, opts.parts, opts.imbalance, shares);
  refine_level(in.view, bal, parts, refine_params(opts));
}

void refine_block(const CsrGraph& graph, std::vector<part_t>& parts, int k, std::span<const std::int64_t> max_weight,
                  std::span<const std::uint8_t> fixed) {
  const GraphView g = view_of(graph);
  const auto nc = static_cast<std::size_t>(g.ncon);
  if (parts.size() != static_cast<std::size_t>(g.n) || fixed.size() != parts.size() ||
      max_weight.size() != static_cast<std::size_t>(k) * nc || g.vwgt.size() != parts.size() * nc)
    fail(ErrorCode::internal, "refine_block", "array lengths disagree");
  if (g.n == 0 || k == 1) return;
  Balance b;
  b.k = k;
  b.ncon = g.ncon;
  b.share.assign(static_cast<std::size_t>(k), 1.0 / k);
  b.total.assign(nc, 0);
  for (std::int32_t v = 0; v < g.n; ++v)
    for (std::size_t c = 0; c < nc; ++c) b.total[c] += g.weights(v)[c];
  b.maxw.assign(max_weight.begin(), max_weight.end());
  b.target.resize(b.maxw.size());
  b.inv_maxw.resize(b.maxw.size());
  for (std::size_t i = 0; i < b.maxw.size(); ++i) {
    b.target[i] = static_cast<double>(b.maxw[i]);
    b.inv_maxw[i] = 1.0 / static_cast<double>(std::max<std::int64_t>(b.maxw[i], 1));
  }
  Refiner r(g, b, parts, fixed);
  RefineParams params;
  params.block = true;
  r.refine(params);
}

std::int64_t edge_cut(const CsrGraph& g, const std::vector<part_t>& parts) {
  const std::int32_t n = g.vertices();
  if (parts.size() != static_cast<std::size_t>(n))
    fail(ErrorCode::size_mismatch, "edge_cut",
         "parts holds " + std::to_string(parts.size()) + " values for " + std::to_string(n) + " vertices");
  std::int64_t cut = 0;
#pragma omp parallel for schedule(static) reduction(+ : cut)
  for (std::int32_t v = 0; v < n; ++v)
    for (std::int64_t e = g.xadj[static_cast<std::size_t>(v)]; e < g.xadj[static_cast<std::size_t>(v) + 1]; ++e)
      if (parts[static_cast<std::size_t>(g.adjncy[static_cast<std::size_t>(e)])] != parts[static_cast<std::size_t>(v)])
        cut += g.ewgt(static_cast<std::size_t>(e));
  return cut / 2;
}

}  // namespace hpart::graphk
