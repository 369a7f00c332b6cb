// Distributed refinement: rounds of size-constrained label propagation (each boundary vertex
// moves to the adjacent part it is most connected to, when that cuts fewer edges and the part
// has room), then a balance repair that moves the cheapest vertices out of overweight parts.
// Ranks move concurrently, so each round gives every rank 1/R of each part's remaining room, and
// alternating rounds allow only moves to higher / lower part ids so that two neighbours on
// different ranks never swap places in the same round.
#include <mpi.h>

#include <algorithm>
#include <span>
#include <numeric>

#include "graph/refinement/dist_refine.hpp"
#include "core/ghost_exchange.hpp"

namespace hpart::graph {
namespace {

std::vector<double> part_weights(const Comm& comm, const GraphFile& L, int K, const std::vector<part_t>& parts) {
  const auto nc = static_cast<std::size_t>(L.ncon);
  std::vector<double> w(static_cast<std::size_t>(K) * nc, 0.0);
  for (std::size_t v = 0; v < parts.size(); ++v)
    for (std::size_t c = 0; c < nc; ++c) w[static_cast<std::size_t>(parts[v]) * nc + c] += static_cast<double>(L.vwgt[v * nc + c]);
  MPI_Allreduce(MPI_IN_PLACE, w.data(), static_cast<int>(w.size()), MPI_DOUBLE, MPI_SUM, comm.get());
  return w;
}

// Connection weight of a vertex to each part among its neighbours (dense over K, reset after use).
struct Connections {
  std::vector<std::int64_t> to;
  std::vector<part_t> parts;
  explicit Connections(int K) : to(static_cast<std::size_t>(K), 0) {}
  template <class PartAt>
  void gather(const GraphFile& L, std::span<const std::int32_t> ladj, std::size_t v, PartAt&& part_at) {
    for (auto e = L.xadj[v]; e < L.xadj[v + 1]; ++e) {
      const part_t q = part_at(ladj[static_cast<std::size_t>(e)]);
      if (to[static_cast<std::size_t>(q)] == 0) parts.push_back(q);
      to[static_cast<std::size_t>(q)] += L.adjwgt[static_cast<std::size_t>(e)];
    }
  }
  void clear() {
    for (part_t q : parts) to[static_cast<std::size_t>(q)] = 0;
    parts.clear();
  }
};

// Whether vertex v fits into the room left in part q, in every constraint.
bool fits(const GraphFile& L, const std::vector<double>& room, part_t q, std::size_t v) {
  const std::size_t nc = static_cast<std::size_t>(L.ncon);
  for (std::size_t c = 0; c < nc; ++c)
    if (static_cast<double>(L.vwgt[v * nc + c]) > room[static_cast<std::size_t>(q) * nc + c]) return false;
  return true;
}

// Takes vertex v's weight (x sign) from the room left in part q.
void take(const GraphFile& L, std::vector<double>& room, part_t q, std::size_t v, double sign) {
  const std::size_t nc = static_cast<std::size_t>(L.ncon);
  for (std::size_t c = 0; c < nc; ++c) room[static_cast<std::size_t>(q) * nc + c] -= sign * static_cast<double>(L.vwgt[v * nc + c]);
}

// Size-constrained label propagation: `rounds` rounds (stopping after an odd round without moves).
void propagate_labels(const Comm& comm, const GraphFile& L, const GhostExchange& ghosts, int K,
                      const std::vector<double>& limits, int rounds, std::vector<part_t>& parts, Connections& conn) {
  const std::size_t n = L.xadj.size() - 1;
  const double R = comm.size();
  const auto& ladj = ghosts.local_adjncy();
  for (int round = 0; round < rounds; ++round) {
    const std::vector<part_t> ghost_parts = ghosts.fetch(std::span<const part_t>(parts));
    const auto part_at = [&](std::int32_t u) {
      return static_cast<std::size_t>(u) < n ? parts[static_cast<std::size_t>(u)] : ghost_parts[static_cast<std::size_t>(u) - n];
    };
    const std::vector<double> w = part_weights(comm, L, K, parts);
    std::vector<double> room(w.size());
    for (std::size_t i = 0; i < w.size(); ++i) room[i] = std::max(0.0, limits[i] - w[i]) / R;
    long long moves = 0;
    for (std::size_t v = 0; v < n; ++v) {
      const part_t p = parts[v];
      conn.gather(L, ladj, v, part_at);
      part_t best = p;
      std::int64_t best_gain = 0;
      for (part_t q : conn.parts) {
        if (q == p || (round % 2 == 0) != (q > p)) continue;
        const std::int64_t gain = conn.to[static_cast<std::size_t>(q)] - conn.to[static_cast<std::size_t>(p)];
        if ((gain > best_gain || (gain == best_gain && gain > 0 && q < best)) && fits(L, room, q, v)) {
          best = q;
          best_gain = gain;
        }
      }
      conn.clear();
      if (best != p) {
        take(L, room, best, v, 1.0);
        parts[v] = best;
        ++moves;
      }
    }
    MPI_Allreduce(MPI_IN_PLACE, &moves, 1, MPI_LONG_LONG, MPI_SUM, comm.get());
    if (moves == 0 && round % 2 == 1) break;
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
std::vector<RepairCandidate> repair_candidates(const GraphFile& L, const GhostExchange& ghosts, int K,
                                               const std::vector<part_t>& parts, const std::vector<part_t>& ghost_parts,
                                               const std::vector<double>& excess, const std::vector<double>& room,
                                               Connections& conn) {
  const std::size_t n = L.xadj.size() - 1, nc = static_cast<std::size_t>(L.ncon);
  const auto& ladj = ghosts.local_adjncy();
  const auto part_at = [&](std::int32_t u) {
    return static_cast<std::size_t>(u) < n ? parts[static_cast<std::size_t>(u)] : ghost_parts[static_cast<std::size_t>(u) - n];
  };
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
  for (std::size_t v = 0; v < n; ++v) {
    const part_t p = parts[v];
    bool heavy = false;
    for (std::size_t c = 0; c < nc; ++c) heavy = heavy || excess[static_cast<std::size_t>(p) * nc + c] > 0.0;
    if (!heavy) continue;
    conn.gather(L, ladj, v, part_at);
    part_t best = -1;
    std::int64_t best_conn = -1;
    for (part_t q : conn.parts)
      if (q != p && fits(L, room, q, v) && conn.to[static_cast<std::size_t>(q)] > best_conn) {
        best = q;
        best_conn = conn.to[static_cast<std::size_t>(q)];
      }
    const std::int64_t own = conn.to[static_cast<std::size_t>(p)];
    conn.clear();
    if (best < 0) {  // no adjacent part has room: the part with the most room in constraint 0
      if (nc == 1) {
        // The lowest part of most room other than p: it fits if any part does (O(1), not O(K)).
        const part_t q = roomiest[0] != p ? roomiest[0] : roomiest[1];
        if (q >= 0 && room[static_cast<std::size_t>(q)] > 0.0 && fits(L, room, q, v)) best = q;
      } else {
        double most = 0.0;
        for (part_t q = 0; q < K; ++q)
          if (q != p && room[static_cast<std::size_t>(q) * nc] > most && fits(L, room, q, v)) {
            most = room[static_cast<std::size_t>(q) * nc];
            best = q;
          }
      }
      best_conn = 0;
    }
    if (best >= 0) cand.push_back({own - best_conn, v, best});
  }
  std::sort(cand.begin(), cand.end(), [](const RepairCandidate& a, const RepairCandidate& b) {
    return a.loss < b.loss || (a.loss == b.loss && a.v < b.v);
  });
  return cand;
}

// Balance repair: out of each overweight part, the vertices that lose least, to the adjacent
// part with room (else the part with the most room), each rank its share of the excess.
void repair_balance(const Comm& comm, const GraphFile& L, const GhostExchange& ghosts, int K,
                    const std::vector<double>& limits, std::vector<part_t>& parts, Connections& conn) {
  const std::size_t n = L.xadj.size() - 1, nc = static_cast<std::size_t>(L.ncon);
  const double R = comm.size();
  std::vector<double> last;  // the part weights the previous round started from
  for (int round = 0; round < 20; ++round) {
    std::vector<double> w = part_weights(comm, L, K, parts);
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
    const std::vector<part_t> ghost_parts = ghosts.fetch(std::span<const part_t>(parts));
    // This rank's share of each part's excess, in proportion to its weight there.
    std::vector<double> mine(weights.size(), 0.0);
    for (std::size_t v = 0; v < n; ++v)
      for (std::size_t c = 0; c < nc; ++c) mine[static_cast<std::size_t>(parts[v]) * nc + c] += static_cast<double>(L.vwgt[v * nc + c]);
    std::vector<double> shed(weights.size());
    for (std::size_t i = 0; i < weights.size(); ++i) shed[i] = weights[i] > 0 ? excess[i] * mine[i] / weights[i] * 1.05 : 0.0;
    const std::vector<RepairCandidate> cand = repair_candidates(L, ghosts, K, parts, ghost_parts, excess, room, conn);
    for (const RepairCandidate& c : cand) {
      const part_t p = parts[c.v];
      bool needed = false;
      for (std::size_t k = 0; k < nc; ++k) needed = needed || shed[static_cast<std::size_t>(p) * nc + k] > 0.0;
      if (!needed || !fits(L, room, c.to, c.v)) continue;
      take(L, room, c.to, c.v, 1.0);
      for (std::size_t k = 0; k < nc; ++k) shed[static_cast<std::size_t>(p) * nc + k] -= static_cast<double>(L.vwgt[c.v * nc + k]);
      parts[c.v] = c.to;
    }
  }
}

}  // namespace

void refine(const Comm& comm, const GraphFile& L, const GhostExchange& ghosts, int K,
            const std::vector<double>& limits, int rounds, std::vector<part_t>& parts) {
  Connections conn(K);
  propagate_labels(comm, L, ghosts, K, limits, rounds, parts, conn);
  repair_balance(comm, L, ghosts, K, limits, parts, conn);
}

GraphFile explicit_weights(const Graph& g) {
  GraphFile L;
  L.vtxdist.assign(g.vtxdist.begin(), g.vtxdist.end());
  L.xadj.assign(g.xadj.begin(), g.xadj.end());
  if (L.xadj.empty()) L.xadj.assign(1, 0);  // a rank without vertices may pass no offsets at all
  L.adjncy.resize(g.entries());
  for (std::size_t e = 0; e < L.adjncy.size(); ++e) L.adjncy[e] = g.neighbour(e);  // 64-bit, whichever width came
  L.ncon = g.ncon;
  L.global_vertices = L.vtxdist.empty() ? 0 : L.vtxdist.back();
  const std::size_t n = g.local_vertices();
  L.vwgt = g.vwgt.empty() ? std::vector<std::int64_t>(n * static_cast<std::size_t>(g.ncon), 1)
                          : std::vector<std::int64_t>(g.vwgt.begin(), g.vwgt.end());
  L.adjwgt = g.adjwgt.empty() ? std::vector<std::int64_t>(g.entries(), 1)
                              : std::vector<std::int64_t>(g.adjwgt.begin(), g.adjwgt.end());
  return L;
}


}  // namespace hpart::graph
