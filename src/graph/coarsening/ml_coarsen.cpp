// Heavy-edge matching and contraction (see ml_coarsen.hpp).
#include "graph/coarsening/ml_coarsen.hpp"

#include <algorithm>
#include <memory>
#include <numeric>
#include <utility>

#include "graph/coarsening/ml_random.hpp"

namespace hpart::graphk {
namespace {

constexpr std::int32_t kUnmatched = -1;
// The matching runs in fixed blocks of consecutive vertices, in parallel; the block size is a
// constant (never the thread count), so the matching is the same for any number of threads.
constexpr std::int32_t kBlock = 1 << 16;

struct Matcher {
  const GraphView& g;
  std::span<const std::int64_t> maxw;
  std::span<const part_t> part;  // empty, or pairs only within a part (a V-cycle)
  HugeVector<std::int32_t> match;
  // 1 / size of every vertex for the rating. Size: the weights relative to the totals, so that
  // an average vertex has size ~1; at least 1/64, so that zero weights keep ratings finite.
  HugeVector<double> inv_size;

  void compute_sizes() {
    std::vector<std::int64_t> total(static_cast<std::size_t>(g.ncon), 0);
    for (std::int32_t v = 0; v < g.n; ++v)
      for (int c = 0; c < g.ncon; ++c) total[static_cast<std::size_t>(c)] += g.weight(v, c);
    std::vector<double> scale;
    for (std::int64_t t : total) scale.push_back(static_cast<double>(g.n) / static_cast<double>(std::max<std::int64_t>(t, 1)));
    inv_size.resize(static_cast<std::size_t>(g.n));
#pragma omp parallel for schedule(static)
    for (std::int32_t v = 0; v < g.n; ++v) {
      double s = 0.0;
      for (int c = 0; c < g.ncon; ++c) s += static_cast<double>(g.weight(v, c)) * scale[static_cast<std::size_t>(c)];
      inv_size[static_cast<std::size_t>(v)] = 1.0 / std::max(s, 1.0 / 64.0);
    }
  }

  [[nodiscard]] bool light(std::int32_t u) const {
    const std::int64_t* w = g.weights(u);
    for (int c = 0; c < g.ncon; ++c)
      if (w[c] > maxw[static_cast<std::size_t>(c)]) return false;
    return true;
  }
  [[nodiscard]] bool fits(std::int32_t u, std::int32_t v) const {
    if (!part.empty() && part[static_cast<std::size_t>(u)] != part[static_cast<std::size_t>(v)]) return false;
    const std::int64_t* a = g.weights(u);
    const std::int64_t* b = g.weights(v);
    for (int c = 0; c < g.ncon; ++c)
      if (a[c] + b[c] > maxw[static_cast<std::size_t>(c)]) return false;
    return true;
  }
  void pair(std::int32_t u, std::int32_t v) {
    match[static_cast<std::size_t>(u)] = v;
    match[static_cast<std::size_t>(v)] = u;
  }
  [[nodiscard]] bool free(std::int32_t u) const { return match[static_cast<std::size_t>(u)] == kUnmatched; }

  // The visiting order of block [lo, hi): the identity with half the entries swapped at random
  // (METIS's cheap shuffle, which keeps most of the input's locality: a fully random order makes
  // matching and contraction cache-hostile on large meshes), then stably sorted by degree capped
  // at 0.7 of the average, so that low-degree vertices, which have few partners, choose first.
  [[nodiscard]] std::vector<std::int32_t> visit_order(std::int32_t lo, std::int32_t hi, std::uint64_t seed) const {
    const std::int32_t n = hi - lo;
    std::vector<std::int32_t> tperm(static_cast<std::size_t>(n));
    std::iota(tperm.begin(), tperm.end(), lo);
    Rng rng(seed);
    if (n > 8) {
      const auto span = static_cast<std::uint32_t>(n - 3);
      for (std::int32_t s = 0; s < n / 8; ++s) {
        const std::uint32_t a = rng.below(span), b = rng.below(span);
        for (std::uint32_t j = 0; j < 4; ++j) std::swap(tperm[a + j], tperm[b + j]);
      }
    }
    const std::int64_t avg = g.n > 0 ? g.xadj[static_cast<std::size_t>(g.n)] / g.n : 0;
    const auto cap = static_cast<std::int64_t>(0.7 * static_cast<double>(avg));
    std::vector<std::int32_t> count(static_cast<std::size_t>(cap) + 2, 0);
    auto key = [&](std::int32_t v) { return std::min(g.end(v) - g.begin(v), cap); };
    for (std::int32_t v : tperm) ++count[static_cast<std::size_t>(key(v)) + 1];
    for (std::size_t i = 1; i < count.size(); ++i) count[i] += count[i - 1];
    std::vector<std::int32_t> perm(static_cast<std::size_t>(n));
    for (std::int32_t v : tperm) perm[static_cast<std::size_t>(count[static_cast<std::size_t>(key(v))]++)] = v;
    return perm;
  }

  // Heavy-edge matching: a free vertex takes the free neighbour of the best rating w(e)^2 /
  // (size(u) size(v)) (KaHIP's "expansion*2": heavy edges between light vertices first, so that
  // coarse vertices stay even instead of snowballing; measured on 128^3 grids, k = 16: 4% less
  // cut than plain edge weight) - the first of equal ones: with unit weights, a random matching
  // in the visiting order. Within a block only neighbours in the block are looked at (other
  // blocks change concurrently), and a vertex whose best edge leaves the block waits for the
  // sequential pass over the rest, so blocks do not change which edges count as best. Pairs
  // too heavy for maxw are skipped.
  void heavy_edge(std::span<const std::int32_t> order, std::int32_t lo, std::int32_t hi, bool whole,
                  std::vector<std::int32_t>& islands) {
    for (std::int32_t u : order) {
      if (!free(u)) continue;
      if (!light(u)) {
        pair(u, u);  // too heavy to grow: stays a vertex of its own
        continue;
      }
      if (g.begin(u) == g.end(u)) {
        if (whole) islands.push_back(u);
        continue;
      }
      std::int32_t best = kUnmatched;
      double best_rating = 0.0, heaviest = 0.0;
      // u's own size is the same factor in all its ratings: left out.
      for (std::int64_t e = g.begin(u); e < g.end(u); ++e) {
        const std::int32_t v = g.nbr(e);
        const auto w = static_cast<double>(g.ewgt(e));
        const double rating = w * w * inv_size[static_cast<std::size_t>(v)];
        if (!whole && (v < lo || v >= hi)) {
          if (rating > heaviest && fits(u, v)) heaviest = rating;
          continue;
        }
        if (free(v) && rating > best_rating && fits(u, v)) {
          best = v;
          best_rating = rating;
        }
      }
      if (best != kUnmatched && best_rating >= heaviest) pair(u, best);
    }
  }

  // 2-hop matching (METIS 5.1): free vertices of degree <= maxdeg that share a neighbour are
  // paired, so that stars (a hub with many leaves) and similar structures still shrink.
  void two_hop(std::int64_t maxdeg) {
    for (std::int32_t x = 0; x < g.n; ++x) {
      std::int32_t last = kUnmatched;
      for (std::int64_t e = g.begin(x); e < g.end(x); ++e) {
        const std::int32_t u = g.nbr(e);
        if (!free(u) || g.end(u) - g.begin(u) > maxdeg || !light(u)) continue;
        if (last == kUnmatched) {
          last = u;
        } else if (fits(last, u)) {
          pair(last, u);
          last = kUnmatched;
        }
      }
    }
  }

  [[nodiscard]] std::int64_t count_free() const {
    std::int64_t f = 0;
    for (std::int32_t v = 0; v < g.n; ++v) f += free(v) && g.begin(v) != g.end(v) ? 1 : 0;
    return f;
  }
};

// The matching: blocks of kBlock vertices in parallel, then what is left free in order of the
// vertex ids, two-hop matches when many are free, and the isolated vertices among themselves.
void match_vertices(Matcher& m, std::int32_t n, std::int32_t blocks, std::uint64_t seed) {
  std::vector<std::int32_t> islands;
  if (blocks > 1) {
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int32_t b = 0; b < blocks; ++b) {
      const std::int32_t lo = b * kBlock, hi = std::min(n, lo + kBlock);
      const std::vector<std::int32_t> order = m.visit_order(lo, hi, seed * 0x100000001b3ULL + static_cast<std::uint64_t>(b));
      std::vector<std::int32_t> none;
      m.heavy_edge(order, lo, hi, false, none);
    }
    // The rest in order of the vertex ids: what is free now mostly lies at block borders.
    std::vector<std::int32_t> rest;
    for (std::int32_t v = 0; v < n; ++v)
      if (m.free(v)) rest.push_back(v);
    m.heavy_edge(rest, 0, n, true, islands);
  } else {
    m.heavy_edge(m.visit_order(0, n, seed), 0, n, true, islands);
  }
  if (m.count_free() > n / 10) m.two_hop(2);
  if (m.count_free() > n / 10) m.two_hop(64);
  // Isolated vertices pair among themselves (they have no neighbour to merge with).
  for (std::size_t i = 0; i + 1 < islands.size(); i += 2)
    if (m.fits(islands[i], islands[i + 1])) m.pair(islands[i], islands[i + 1]);
}

// The fine vertices of each coarse vertex: a matching's pairs (first == second when it has one),
// or, from clustering, each coarse vertex's members[start[i], start[i + 1]) in ascending order.
struct Clusters {
  std::int32_t n = 0;
  HugeVector<std::int32_t> first, second;
  HugeVector<std::int32_t> start, members;  // clustering only (then first and second are empty)

  // f(fine vertex) for every member of coarse vertex i, in ascending order.
  template <class F>
  void each_member(std::int32_t i, F&& f) const {
    const auto c = static_cast<std::size_t>(i);
    if (start.empty()) {
      f(first[c]);
      if (second[c] != first[c]) f(second[c]);
      return;
    }
    for (std::int32_t j = start[c]; j < start[c + 1]; ++j) f(members[static_cast<std::size_t>(j)]);
  }
};

// Coarse vertices are numbered in the order of their lowest fine vertex: per block counts, a
// prefix sum, then each block numbers its own (all in parallel). Fills cmap (n entries).
Clusters number_clusters(const Matcher& m, std::int32_t n, std::int32_t blocks, HugeVector<std::int32_t>& cmap) {
  cmap.assign(static_cast<std::size_t>(n), 0);
  auto partner = [&](std::int32_t u) {
    const std::int32_t v = m.match[static_cast<std::size_t>(u)];
    return v == kUnmatched ? u : v;
  };
  std::vector<std::int32_t> offset(static_cast<std::size_t>(blocks) + 1, 0);
#pragma omp parallel for schedule(static)
  for (std::int32_t b = 0; b < blocks; ++b) {
    std::int32_t c = 0;
    for (std::int32_t u = b * kBlock; u < std::min(n, (b + 1) * kBlock); ++u) c += partner(u) >= u ? 1 : 0;
    offset[static_cast<std::size_t>(b) + 1] = c;
  }
  for (std::size_t b = 0; b < static_cast<std::size_t>(blocks); ++b) offset[b + 1] += offset[b];
  const std::int32_t cn = offset[static_cast<std::size_t>(blocks)];
  Clusters cl{cn, HugeVector<std::int32_t>(static_cast<std::size_t>(cn)), HugeVector<std::int32_t>(static_cast<std::size_t>(cn))};
  HugeVector<std::int32_t>& first = cl.first;
  HugeVector<std::int32_t>& second = cl.second;
#pragma omp parallel for schedule(static)
  for (std::int32_t b = 0; b < blocks; ++b) {
    std::int32_t cv = offset[static_cast<std::size_t>(b)];
    for (std::int32_t u = b * kBlock; u < std::min(n, (b + 1) * kBlock); ++u) {
      const std::int32_t v = partner(u);
      if (v < u) continue;
      first[static_cast<std::size_t>(cv)] = u;
      second[static_cast<std::size_t>(cv)] = v;
      ++cv;
    }
  }
  // cmap of a pair's second vertex may lie in another block: written once per coarse vertex.
#pragma omp parallel for schedule(static)
  for (std::int32_t i = 0; i < cn; ++i) {
    cmap[static_cast<std::size_t>(first[static_cast<std::size_t>(i)])] = i;
    cmap[static_cast<std::size_t>(second[static_cast<std::size_t>(i)])] = i;
  }
  return cl;
}

// The coarse vertex weights and the exact coarse degrees (the distinct coarse neighbours of each
// cluster), as c.xadj's prefix sums. Two passes over the fine adjacency (this one and
// contract_rows) rather than rows built at upper-bound offsets and compacted, because fresh memory
// is what costs: on our 2-core VM first touch ran at ~0.6 GB/s (~1.7 ms per MB), and the bound
// arrays were 1.4x the coarse adjacency (rgg2d, first level: 138 MB) plus, with threads, an
// exact-size copy of it.
void coarse_degrees(const GraphView& g, const Clusters& cl, CoarseLevel& c) {
  const std::int32_t cn = cl.n;
  const auto ncon = static_cast<std::size_t>(g.ncon);
  c.vwgt.assign(static_cast<std::size_t>(cn) * ncon, 0);
  c.xadj.assign(static_cast<std::size_t>(cn) + 1, 0);
#pragma omp parallel
  {
    HugeVector<std::int32_t> stamp(static_cast<std::size_t>(cn), -1);  // stamp[cu] == i: counted for i
#pragma omp for schedule(dynamic, 4096)
    for (std::int32_t i = 0; i < cn; ++i) {
      std::int64_t degree = 0;
      cl.each_member(i, [&](std::int32_t f) {
        for (std::int64_t e = g.begin(f); e < g.end(f); ++e) {
          const std::int32_t cu = c.cmap[static_cast<std::size_t>(g.nbr(e))];
          if (cu == i || stamp[static_cast<std::size_t>(cu)] == i) continue;
          stamp[static_cast<std::size_t>(cu)] = i;
          ++degree;
        }
        const std::int64_t* w = g.weights(f);
        for (std::size_t k = 0; k < ncon; ++k) c.vwgt[static_cast<std::size_t>(i) * ncon + k] += w[k];
      });
      c.xadj[static_cast<std::size_t>(i) + 1] = degree;
    }
  }
  for (std::size_t i = 0; i < static_cast<std::size_t>(cn); ++i) c.xadj[i + 1] += c.xadj[i];
}

// Each coarse row written once at its final offset (c.xadj), into c.adjncy and wgt; W is the
// coarse weight's type.
template <class W>
void contract_rows(const GraphView& g, const Clusters& cl, CoarseLevel& c, W* wgt) {
  const std::int32_t cn = cl.n;
  std::int32_t* adj = c.adjncy.data();
#pragma omp parallel
  {
    // marker[cu]: where coarse neighbour cu sits in the row being built; a position inside the
    // current row's range can only have been written for this row (the ranges are disjoint).
    HugeVector<std::int64_t> marker(static_cast<std::size_t>(cn), -1);
#pragma omp for schedule(dynamic, 4096)
    for (std::int32_t i = 0; i < cn; ++i) {
      const std::int64_t start = c.xadj[static_cast<std::size_t>(i)];
      std::int64_t pos = start;
      cl.each_member(i, [&](std::int32_t f) {
        for (std::int64_t e = g.begin(f); e < g.end(f); ++e) {
          const std::int32_t cu = c.cmap[static_cast<std::size_t>(g.nbr(e))];
          if (cu == i) continue;
          const std::int64_t at = marker[static_cast<std::size_t>(cu)];
          if (at >= start && at < pos) {
            wgt[at] += static_cast<W>(g.ewgt(e));
          } else {
            marker[static_cast<std::size_t>(cu)] = pos;
            adj[pos] = cu;
            wgt[pos] = static_cast<W>(g.ewgt(e));
            ++pos;
          }
        }
      });
    }
  }
}

// The clustering's visiting order: windows of kClusterWindow consecutive vertices, in order,
// each shuffled. A random order over the whole graph made every visit a cache miss (grid3d:
// 4.7 s against 2.1 s, the same cut); windows keep the input's locality, and their size is a
// constant, so the order does not depend on the thread count.
constexpr std::int32_t kClusterWindow = 1 << 14;

std::vector<std::int32_t> cluster_order(std::int32_t n, Rng& rng) {
  std::vector<std::int32_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  for (std::int32_t lo = 0; lo < n; lo += kClusterWindow) {
    const std::int32_t hi = std::min(n, lo + kClusterWindow);
    for (std::int32_t i = hi - 1; i > lo; --i)
      std::swap(order[static_cast<std::size_t>(i)],
                order[static_cast<std::size_t>(lo + static_cast<std::int32_t>(rng.below(static_cast<std::uint32_t>(i - lo + 1))))]);
  }
  return order;
}

// Size-constrained label propagation (KaMinPar's coarsening): every vertex, in a shuffled order,
// joins the neighbouring cluster it has the most edge weight to, if the cluster stays within
// max_vwgt (and, in a V-cycle, lies in its part); a few rounds. Clusters grow as far as the
// weight bound allows, so one step shrinks the graph several times where matching halves it,
// and they follow dense regions instead of pairing along single edges. Ties between other
// clusters are broken at random (a vertex stays where a tie includes its own): taking the first
// of equal ones, as unit-weight meshes have everywhere, grew clusters along the adjacency's first
// direction into strands (grid3d k 16: 106638 cut, 95343 with random ties). Sequential (the
// order and the seeded draws alone decide), so independent of the thread count.
// Returns each vertex's cluster label (a member's vertex id).
HugeVector<std::int32_t> cluster_labels(const Matcher& m, std::uint64_t seed, int rounds) {
  const GraphView& g = m.g;
  const auto n = static_cast<std::size_t>(g.n);
  const auto nc = static_cast<std::size_t>(g.ncon);
  HugeVector<std::int32_t> label(n);
  std::vector<std::int64_t> cw(n * nc);  // cluster weights by label
  for (std::size_t v = 0; v < n; ++v) {
    label[v] = static_cast<std::int32_t>(v);
    for (std::size_t c = 0; c < nc; ++c) cw[v * nc + c] = g.weights(static_cast<std::int32_t>(v))[c];
  }
  // A vertex's connection to each neighbouring cluster, in the order the clusters first appear
  // among its neighbours (which the random tie-breaking then sees alike on every path). Up to
  // kListDegree neighbours they are summed in a short list (a mesh vertex's row stays in cache);
  // above, in `conn`, indexed by label and allocated on the first such vertex.
  constexpr std::int64_t kListDegree = 32;
  std::vector<std::pair<std::int32_t, std::int64_t>> near;
  std::vector<std::int64_t> conn;
  Rng rng(seed);
  const std::vector<std::int32_t> order = cluster_order(g.n, rng);
  for (int round = 0; round < rounds; ++round) {
    std::size_t moved = 0;
    for (std::int32_t v : order) {
      const auto vi = static_cast<std::size_t>(v);
      const std::int32_t own = label[vi];
      const std::int64_t* w = g.weights(v);
      near.clear();
      if (g.end(v) - g.begin(v) <= kListDegree) {
        for (std::int64_t e = g.begin(v); e < g.end(v); ++e) {
          const std::int32_t c = label[static_cast<std::size_t>(g.nbr(e))];
          auto it = std::find_if(near.begin(), near.end(), [c](const auto& p) { return p.first == c; });
          if (it == near.end()) near.emplace_back(c, g.ewgt(e));
          else it->second += g.ewgt(e);
        }
      } else {
        if (conn.empty()) conn.assign(n, 0);
        for (std::int64_t e = g.begin(v); e < g.end(v); ++e) {
          const auto c = static_cast<std::size_t>(label[static_cast<std::size_t>(g.nbr(e))]);
          if (conn[c] == 0) near.emplace_back(static_cast<std::int32_t>(c), 0);
          conn[c] += g.ewgt(e);
        }
        for (auto& [c, sum] : near) sum = std::exchange(conn[static_cast<std::size_t>(c)], 0);
      }
      std::int32_t best = own;
      std::int64_t best_conn = 0;
      for (const auto& [c, sum] : near)
        if (c == own) best_conn = sum;
      std::uint32_t ties = 1;  // clusters seen at best_conn (reservoir sampling among them)
      for (const auto& [c, sum] : near) {
        const auto ci = static_cast<std::size_t>(c);
        if (c == own || sum < best_conn) continue;
        const bool tie = sum == best_conn;
        if (tie && best == own) continue;
        if (!m.part.empty() && m.part[ci] != m.part[vi]) continue;  // (a label is a member of its part)
        bool fits = true;
        for (std::size_t k = 0; k < nc && fits; ++k) fits = cw[ci * nc + k] + w[k] <= m.maxw[k];
        if (!fits) continue;
        if (tie && rng.below(++ties) != 0) continue;
        if (!tie) ties = 1;
        best = c;
        best_conn = sum;
      }
      if (best == own) continue;
      for (std::size_t k = 0; k < nc; ++k) {
        cw[static_cast<std::size_t>(own) * nc + k] -= w[k];
        cw[static_cast<std::size_t>(best) * nc + k] += w[k];
      }
      label[vi] = best;
      ++moved;
    }
    if (moved * 100 < n) break;  // settled: another round would move almost nothing
  }
  return label;
}

// Coarse vertices of the labels, numbered in the order of their lowest member (as the
// matching's); fills cmap.
Clusters number_labels(const HugeVector<std::int32_t>& label, std::int32_t n, HugeVector<std::int32_t>& cmap) {
  cmap.assign(static_cast<std::size_t>(n), 0);
  HugeVector<std::int32_t> id(static_cast<std::size_t>(n), -1);
  Clusters cl;
  for (std::int32_t v = 0; v < n; ++v) {
    std::int32_t& c = id[static_cast<std::size_t>(label[static_cast<std::size_t>(v)])];
    if (c < 0) c = cl.n++;
    cmap[static_cast<std::size_t>(v)] = c;
  }
  cl.start.assign(static_cast<std::size_t>(cl.n) + 1, 0);
  for (std::int32_t v = 0; v < n; ++v) ++cl.start[static_cast<std::size_t>(cmap[static_cast<std::size_t>(v)]) + 1];
  for (std::size_t i = 0; i < static_cast<std::size_t>(cl.n); ++i) cl.start[i + 1] += cl.start[i];
  cl.members.resize(static_cast<std::size_t>(n));
  std::vector<std::int32_t> at(cl.start.begin(), cl.start.end() - 1);
  for (std::int32_t v = 0; v < n; ++v)
    cl.members[static_cast<std::size_t>(at[static_cast<std::size_t>(cmap[static_cast<std::size_t>(v)])]++)] = v;
  return cl;
}

}  // namespace

CoarseLevel coarsen_once(const GraphView& g, std::span<const std::int64_t> max_vwgt, std::uint64_t seed,
                         std::size_t spare, bool narrow, std::span<const part_t> part, int cluster_rounds) {
  const std::int32_t n = g.n;
  CoarseLevel out;
  Clusters cl;
  if (cluster_rounds > 0) {
    const Matcher m{g, max_vwgt, part, {}, {}};  // its weight bound and part test
    cl = number_labels(cluster_labels(m, seed, cluster_rounds), n, out.cmap);
  }
  // Clustering stalls where vertices have no neighbour they may join (a distributed block whose
  // edges all lead to other ranks' ghosts, the leaves of a star); matching still pairs vertices
  // that share a neighbour there, so such a level is matched instead.
  if (cluster_rounds <= 0 || static_cast<double>(cl.n) > kMinShrink * static_cast<double>(n)) {
    Matcher m{g, max_vwgt, part, HugeVector<std::int32_t>(static_cast<std::size_t>(n), kUnmatched), {}};
    m.compute_sizes();
    const std::int32_t blocks = (n + kBlock - 1) / kBlock;
    match_vertices(m, n, blocks, seed);
    cl = number_clusters(m, n, blocks, out.cmap);
  }
  CoarseLevel& c = out;
  c.n = cl.n;
  c.ncon = g.ncon;
  coarse_degrees(g, cl, c);
  const auto used = static_cast<std::size_t>(c.xadj[static_cast<std::size_t>(cl.n)]);
  c.adjncy.reserve(used + spare);
  c.adjncy.resize(used);
  if (narrow) {
    c.adjwgt32.reserve(used + spare);
    c.adjwgt32.resize(used);
    contract_rows(g, cl, c, c.adjwgt32.data());
  } else {
    c.adjwgt.reserve(used + spare);
    c.adjwgt.resize(used);
    contract_rows(g, cl, c, c.adjwgt.data());
  }
  return out;
}

}  // namespace hpart::graphk
