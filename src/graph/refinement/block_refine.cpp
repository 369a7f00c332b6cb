#include "graph/refinement/block_refine.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>

#include "graph/multilevel.hpp"

namespace hpart::graph {
namespace {

// ---- kernel_fm ---------------------------------------------------------------------------

void kernel_fm(const Comm& comm, const BlockLevel& level, int K, const std::vector<double>& limits,
               std::vector<part_t>& parts) {
  const auto nc = static_cast<std::size_t>(level.graph.ncon);
  const auto n = static_cast<std::size_t>(level.n);
  const std::vector<part_t> ghost_parts = level.plan->fetch(std::span<const part_t>(parts));
  std::vector<long long> local(static_cast<std::size_t>(K) * nc, 0);
  for (std::size_t v = 0; v < n; ++v)
    for (std::size_t c = 0; c < nc; ++c) local[static_cast<std::size_t>(parts[v]) * nc + c] += level.graph.vwgt[v * nc + c];
  std::vector<long long> global = local;
  comm.sum(std::span<long long>(global));
  // Each rank may fill 1/R of a part's room; a part above its bound sheds weight in proportion
  // to each rank's share of it.
  std::vector<std::int64_t> budget(local.size());
  const double R = comm.size();
  for (std::size_t i = 0; i < budget.size(); ++i) {
    const double room = limits[i] - static_cast<double>(global[i]);
    const double mine = static_cast<double>(local[i]);
    budget[i] = static_cast<std::int64_t>(
        room >= 0 ? mine + std::floor(room / R)
                  : std::floor(mine + room * mine / std::max(static_cast<double>(global[i]), 1.0)));
  }
  std::vector<part_t> all(parts.begin(), parts.end());
  all.insert(all.end(), ghost_parts.begin(), ghost_parts.end());
  std::vector<std::uint8_t> fixed(all.size(), 0);
  std::fill(fixed.begin() + static_cast<std::ptrdiff_t>(n), fixed.end(), 1);
  graphk::refine_block(level.graph, all, K, budget, fixed);
  std::copy(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n), parts.begin());
}

// ---- label_propagation -------------------------------------------------------------------
// Each boundary vertex moves to the adjacent part it is most connected to, when that cuts fewer
// edges and the part has room; then a balance repair moves the cheapest vertices out of
// overweight parts. Alternating rounds allow only moves to higher / lower part ids, so that two
// neighbours on different ranks never swap places in the same round.

// The level's locals as the rounds read them: vertex weights, rows, a part for any local id
// (ghosts after the n locals).
struct Block {
  const BlockLevel& level;
  std::size_t n, nc;
  explicit Block(const BlockLevel& l)
      : level(l), n(static_cast<std::size_t>(l.n)), nc(static_cast<std::size_t>(l.graph.ncon)) {}
  [[nodiscard]] double weight(std::size_t v, std::size_t c) const { return static_cast<double>(level.graph.vwgt[v * nc + c]); }
};

std::vector<double> part_weights(const Comm& comm, const Block& b, int K, const std::vector<part_t>& parts) {
  std::vector<double> w(static_cast<std::size_t>(K) * b.nc, 0.0);
  for (std::size_t v = 0; v < b.n; ++v)
    for (std::size_t c = 0; c < b.nc; ++c) w[static_cast<std::size_t>(parts[v]) * b.nc + c] += b.weight(v, c);
  comm.sum(std::span<double>(w));
  return w;
}

// Connection weight of a vertex to each part among its neighbours (dense over K, reset after
// use); `parts` lists them in the order of the row.
struct Connections {
  std::vector<std::int64_t> to;
  std::vector<part_t> parts;
  explicit Connections(int K) : to(static_cast<std::size_t>(K), 0) {}
  void gather(const Block& b, std::size_t v, const std::vector<part_t>& local, const std::vector<part_t>& ghost) {
    const graphk::CsrGraph& g = b.level.graph;
    for (auto e = g.xadj[v]; e < g.xadj[v + 1]; ++e) {
      const auto u = static_cast<std::size_t>(g.adjncy[static_cast<std::size_t>(e)]);
      const part_t q = u < b.n ? local[u] : ghost[u - b.n];
      if (to[static_cast<std::size_t>(q)] == 0) parts.push_back(q);
      to[static_cast<std::size_t>(q)] += g.ewgt(static_cast<std::size_t>(e));
    }
  }
  void clear() {
    for (part_t q : parts) to[static_cast<std::size_t>(q)] = 0;
    parts.clear();
  }
};

// Whether vertex v fits into the room left in part q, in every constraint.
bool fits(const Block& b, const std::vector<double>& room, part_t q, std::size_t v) {
  for (std::size_t c = 0; c < b.nc; ++c)
    if (b.weight(v, c) > room[static_cast<std::size_t>(q) * b.nc + c]) return false;
  return true;
}

// Takes vertex v's weight from the room left in part q.
void take(const Block& b, std::vector<double>& room, part_t q, std::size_t v) {
  for (std::size_t c = 0; c < b.nc; ++c) room[static_cast<std::size_t>(q) * b.nc + c] -= b.weight(v, c);
}

// `rounds` rounds (stopping after an odd round without moves); each round gives every rank 1/R
// of each part's remaining room.
void propagate_labels(const Comm& comm, const Block& b, int K, const std::vector<double>& limits, int rounds,
                      std::vector<part_t>& parts, Connections& conn) {
  const double R = comm.size();
  for (int round = 0; round < rounds; ++round) {
    const std::vector<part_t> ghost_parts = b.level.plan->fetch(std::span<const part_t>(parts));
    const std::vector<double> w = part_weights(comm, b, K, parts);
    std::vector<double> room(w.size());
    for (std::size_t i = 0; i < w.size(); ++i) room[i] = std::max(0.0, limits[i] - w[i]) / R;
    long long moves = 0;
    for (std::size_t v = 0; v < b.n; ++v) {
      const part_t p = parts[v];
      conn.gather(b, v, parts, ghost_parts);
      part_t best = p;
      std::int64_t best_gain = 0;
      for (part_t q : conn.parts) {
        if (q == p || (round % 2 == 0) != (q > p)) continue;
        const std::int64_t gain = conn.to[static_cast<std::size_t>(q)] - conn.to[static_cast<std::size_t>(p)];
        if ((gain > best_gain || (gain == best_gain && gain > 0 && q < best)) && fits(b, room, q, v)) {
          best = q;
          best_gain = gain;
        }
      }
      conn.clear();
      if (best != p) {
        take(b, room, best, v);
        parts[v] = best;
        ++moves;
      }
    }
    if (comm.sum(moves) == 0 && round % 2 == 1) break;
  }
}

struct RepairCandidate {
  std::int64_t loss;
  std::size_t v;
  part_t to;
};

// The candidates of one repair round: each vertex of an overweight part with the part it would
// go to (the adjacent part with room it is most connected to, else the part with the most room)
// and what its cut would lose; sorted by loss, then vertex.
std::vector<RepairCandidate> repair_candidates(const Block& b, int K, const std::vector<part_t>& parts,
                                               const std::vector<part_t>& ghost_parts,
                                               const std::vector<double>& excess, const std::vector<double>& room,
                                               Connections& conn) {
  const std::size_t nc = b.nc;
  // The two lowest parts of most room (room does not change while candidates are chosen).
  part_t roomiest[2] = {-1, -1};
  for (part_t q = 0; nc == 1 && q < K; ++q) {
    const double r = room[static_cast<std::size_t>(q)];
    if (roomiest[0] < 0 || r > room[static_cast<std::size_t>(roomiest[0])]) {
      roomiest[1] = roomiest[0];
      roomiest[0] = q;
    } else if (roomiest[1] < 0 || r > room[static_cast<std::size_t>(roomiest[1])]) {
      roomiest[1] = q;
    }
  }
  std::vector<RepairCandidate> cand;
  for (std::size_t v = 0; v < b.n; ++v) {
    const part_t p = parts[v];
    bool heavy = false;
    for (std::size_t c = 0; c < nc; ++c) heavy = heavy || excess[static_cast<std::size_t>(p) * nc + c] > 0.0;
    if (!heavy) continue;
    conn.gather(b, v, parts, ghost_parts);
    part_t best = -1;
    std::int64_t best_conn = -1;
    for (part_t q : conn.parts)
      if (q != p && fits(b, room, q, v) && conn.to[static_cast<std::size_t>(q)] > best_conn) {
        best = q;
        best_conn = conn.to[static_cast<std::size_t>(q)];
      }
    const std::int64_t own = conn.to[static_cast<std::size_t>(p)];
    conn.clear();
    if (best < 0) {  // no adjacent part has room: the part with the most room in constraint 0
      if (nc == 1) {
        // The lowest part of most room other than p: it fits if any part does (O(1), not O(K)).
        const part_t q = roomiest[0] != p ? roomiest[0] : roomiest[1];
        if (q >= 0 && room[static_cast<std::size_t>(q)] > 0.0 && fits(b, room, q, v)) best = q;
      } else {
        double most = 0.0;
        for (part_t q = 0; q < K; ++q)
          if (q != p && room[static_cast<std::size_t>(q) * nc] > most && fits(b, room, q, v)) {
            most = room[static_cast<std::size_t>(q) * nc];
            best = q;
          }
      }
      best_conn = 0;
    }
    if (best >= 0) cand.push_back({own - best_conn, v, best});
  }
  std::sort(cand.begin(), cand.end(), [](const RepairCandidate& a, const RepairCandidate& c) {
    return a.loss < c.loss || (a.loss == c.loss && a.v < c.v);
  });
  return cand;
}

// Out of each overweight part, the vertices that lose least, to the adjacent part with room
// (else the part with the most room), each rank its share of the excess.
void repair_balance(const Comm& comm, const Block& b, int K, const std::vector<double>& limits,
                    std::vector<part_t>& parts, Connections& conn) {
  const std::size_t nc = b.nc;
  const double R = comm.size();
  std::vector<double> last;  // the part weights the previous round started from
  for (int round = 0; round < 20; ++round) {
    std::vector<double> w = part_weights(comm, b, K, parts);
    std::vector<double> excess(w.size()), room(w.size());
    bool over = false;
    for (std::size_t i = 0; i < w.size(); ++i) {
      excess[i] = std::max(0.0, w[i] - limits[i]);
      room[i] = std::max(0.0, limits[i] - w[i]) / R;
      over = over || excess[i] > 0.0;
    }
    // Nothing moved in the last round (the weights, the same on every rank, did not change):
    // the next would find the same nothing to do (e.g. vertices heavier than any part's room,
    // as with more parts than vertices), so stop rather than spend the rounds' O(K) passes.
    if (!over || w == last) return;
    last = std::move(w);
    const std::vector<double>& weights = last;
    const std::vector<part_t> ghost_parts = b.level.plan->fetch(std::span<const part_t>(parts));
    // This rank's share of each part's excess, in proportion to its weight there.
    std::vector<double> mine(weights.size(), 0.0);
    for (std::size_t v = 0; v < b.n; ++v)
      for (std::size_t c = 0; c < nc; ++c) mine[static_cast<std::size_t>(parts[v]) * nc + c] += b.weight(v, c);
    std::vector<double> shed(weights.size());
    for (std::size_t i = 0; i < weights.size(); ++i) shed[i] = weights[i] > 0 ? excess[i] * mine[i] / weights[i] * 1.05 : 0.0;
    for (const RepairCandidate& c : repair_candidates(b, K, parts, ghost_parts, excess, room, conn)) {
      const part_t p = parts[c.v];
      bool needed = false;
      for (std::size_t k = 0; k < nc; ++k) needed = needed || shed[static_cast<std::size_t>(p) * nc + k] > 0.0;
      if (!needed || !fits(b, room, c.to, c.v)) continue;
      take(b, room, c.to, c.v);
      for (std::size_t k = 0; k < nc; ++k) shed[static_cast<std::size_t>(p) * nc + k] -= b.weight(c.v, k);
      parts[c.v] = c.to;
    }
  }
}

}  // namespace

void refine_blocks(const Comm& comm, const BlockLevel& level, int K, const std::vector<double>& limits,
                   std::vector<part_t>& parts, const BlockRefine& how) {
  if (how.moves == BlockRefine::Moves::kernel_fm) {
    for (int round = 0; round < how.rounds; ++round) kernel_fm(comm, level, K, limits, parts);
    return;
  }
  const Block b(level);
  Connections conn(K);
  propagate_labels(comm, b, K, limits, how.rounds, parts, conn);
  repair_balance(comm, b, K, limits, parts, conn);
}

}  // namespace hpart::graph
