#include "graph/repartition/graph_diffusion.hpp"

#include <mpi.h>

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "graph/repartition/graph_flow_plan.hpp"

namespace hpart::repart {

GraphDiffusion::GraphDiffusion(const Comm& comm, const Graph& g, const graph::GhostExchange& ghosts,
                               std::span<const part_t> home, int num_parts, double imbalance, double itr,
                               IntSpan sizes)
    : comm_(comm),
      g_(g),
      ghosts_(ghosts),
      home_(home),
      sizes_(sizes),
      parts_(home.begin(), home.end()),
      k_(num_parts),
      tolerance_(imbalance),
      itr_(itr),
      conn_(static_cast<std::size_t>(num_parts), 0.0) {
  const auto& adj = ghosts_.local_adjncy();
  const std::size_t n = parts_.size(), G = ghosts_.ghosts();
  ghost_nbr_start_.assign(G + 1, 0);
  for (std::size_t e = 0; e < g_.entries(); ++e)  // xadj[n] entries (xadj may be empty when n = 0)
    if (static_cast<std::size_t>(adj[e]) >= n) ++ghost_nbr_start_[static_cast<std::size_t>(adj[e]) - n + 1];
  std::partial_sum(ghost_nbr_start_.begin(), ghost_nbr_start_.end(), ghost_nbr_start_.begin());
  ghost_nbr_.resize(static_cast<std::size_t>(ghost_nbr_start_[G]));
  std::vector<std::int32_t> fill(ghost_nbr_start_.begin(), ghost_nbr_start_.end() - 1);
  for (std::size_t v = 0; v < n; ++v)
    for (auto e = g_.xadj[v]; e < g_.xadj[v + 1]; ++e) {
      const auto u = static_cast<std::size_t>(adj[static_cast<std::size_t>(e)]);
      if (u >= n) ghost_nbr_[static_cast<std::size_t>(fill[u - n]++)] = static_cast<std::int32_t>(v);
    }
  measure();
}

namespace {

// Marks local vertex v (mark[v] = 1), appending it to `added` (when given) the first time.
void mark_vertex(std::size_t v, std::vector<char>& mark, std::vector<std::int32_t>* added) {
  if (mark[v]) return;
  mark[v] = 1;
  if (added != nullptr) added->push_back(static_cast<std::int32_t>(v));
}

}  // namespace

void GraphDiffusion::mark_neighbours(std::size_t v, std::vector<char>& mark, std::vector<std::int32_t>* added) const {
  const auto& adj = ghosts_.local_adjncy();
  const std::size_t n = parts_.size();
  for (auto e = g_.xadj[v]; e < g_.xadj[v + 1]; ++e) {
    const auto u = static_cast<std::size_t>(adj[static_cast<std::size_t>(e)]);
    if (u < n) mark_vertex(u, mark, added);
  }
}

void GraphDiffusion::refetch_ghosts(std::vector<char>& mark, std::vector<std::int32_t>* added) {
  std::vector<part_t> fresh = ghosts_.fetch(std::span<const part_t>(parts_));
  for (std::size_t k = 0; k < fresh.size(); ++k)
    if (fresh[k] != ghost_parts_[k])
      for (auto j = ghost_nbr_start_[k]; j < ghost_nbr_start_[k + 1]; ++j)
        mark_vertex(static_cast<std::size_t>(ghost_nbr_[static_cast<std::size_t>(j)]), mark, added);
  ghost_parts_ = std::move(fresh);
}

void GraphDiffusion::measure() {
  ghost_parts_ = ghosts_.fetch(std::span<const part_t>(parts_));
  sum_weights();
}

void GraphDiffusion::sum_weights() {
  weight_.assign(static_cast<std::size_t>(k_), 0.0);
  for (std::size_t v = 0; v < parts_.size(); ++v) weight_[static_cast<std::size_t>(parts_[v])] += w(v);
  MPI_Allreduce(MPI_IN_PLACE, weight_.data(), k_, MPI_DOUBLE, MPI_SUM, comm_.get());
}

double GraphDiffusion::imbalance() const {
  const double mean = std::accumulate(weight_.begin(), weight_.end(), 0.0) / static_cast<double>(k_);
  return mean > 0.0 ? *std::max_element(weight_.begin(), weight_.end()) / mean - 1.0 : 0.0;
}

void GraphDiffusion::connect(std::size_t v) {
  const auto& adj = ghosts_.local_adjncy();
  for (auto e = g_.xadj[v]; e < g_.xadj[v + 1]; ++e) {
    const auto q = static_cast<std::size_t>(part_at(adj[static_cast<std::size_t>(e)]));
    if (conn_[q] == 0.0) touched_.push_back(static_cast<part_t>(q));
    conn_[q] += g_.adjwgt.empty() ? 1.0 : static_cast<double>(g_.adjwgt[static_cast<std::size_t>(e)]);
  }
}

void GraphDiffusion::disconnect() {
  for (part_t q : touched_) conn_[static_cast<std::size_t>(q)] = 0.0;
  touched_.clear();
}

namespace {

// Boundary layers a round may peel towards its flows before the flows are planned afresh, and
// the depth (in layers of the current boundary) a flow may plan to take through an interface.
constexpr int kMaxLayers = 32;
constexpr double kFlowLayers = 4.0;

// Rank 0's flows for the gathered arcs, broadcast to every rank.
std::vector<ArcFlow> plan_on_root(const Comm& comm, int K, const std::vector<std::int64_t>& keys,
                                  const std::vector<double>& vals, const std::vector<double>& weights, double aim) {
  const auto R = static_cast<std::size_t>(comm.size());
  int count = static_cast<int>(keys.size());
  std::vector<int> counts(R), displs(R + 1, 0), counts2(R), displs2(R + 1, 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm.get());
  for (std::size_t r = 0; r < R; ++r) {
    displs[r + 1] = displs[r] + counts[r];
    counts2[r] = 2 * counts[r], displs2[r + 1] = 2 * displs[r + 1];
  }
  const bool root = comm.rank() == 0;
  std::vector<std::int64_t> all_keys(root ? static_cast<std::size_t>(displs[R]) : 0);
  std::vector<double> all_vals(2 * all_keys.size());
  MPI_Gatherv(keys.data(), count, MPI_INT64_T, all_keys.data(), counts.data(), displs.data(), MPI_INT64_T, 0,
              comm.get());
  MPI_Gatherv(vals.data(), 2 * count, MPI_DOUBLE, all_vals.data(), counts2.data(), displs2.data(), MPI_DOUBLE, 0,
              comm.get());
  std::vector<double> packed;  // (p, q, amount) per flow
  if (root) {
    std::vector<QuotientArc> arcs(all_keys.size());
    for (std::size_t i = 0; i < arcs.size(); ++i)
      arcs[i] = {static_cast<int>(all_keys[i] / K), static_cast<int>(all_keys[i] % K), all_vals[2 * i],
                 all_vals[2 * i + 1]};
    const std::vector<QuotientArc> merged = merge_arcs(std::move(arcs));
    for (const ArcFlow& f : plan_flows(K, merged, balancing_excess(weights, aim), kFlowLayers))
      packed.insert(packed.end(), {static_cast<double>(f.p), static_cast<double>(f.q), f.amount});
  }
  int n = static_cast<int>(packed.size());
  MPI_Bcast(&n, 1, MPI_INT, 0, comm.get());
  packed.resize(static_cast<std::size_t>(n));
  MPI_Bcast(packed.data(), n, MPI_DOUBLE, 0, comm.get());
  std::vector<ArcFlow> flows(packed.size() / 3);
  for (std::size_t i = 0; i < flows.size(); ++i)
    flows[i] = {static_cast<int>(packed[3 * i]), static_cast<int>(packed[3 * i + 1]), packed[3 * i + 2]};
  return flows;
}

struct Candidate {
  double score = 0.0;
  gid_t gid = 0;
  double w = 0.0;
  std::int32_t v = 0, arc = 0;
};

}  // namespace

int GraphDiffusion::balance(int max_rounds) {
  const std::size_t n = parts_.size();
  const gid_t first = g_.vtxdist[static_cast<std::size_t>(comm_.rank())];
  int rounds = 0;
  while (rounds < max_rounds && imbalance() > tolerance_) {
    // The quotient arcs this rank sees: cut and boundary weight per (part, neighbouring part).
    std::unordered_map<std::int64_t, std::pair<double, double>> local;
    for (std::size_t v = 0; v < n; ++v) {
      connect(v);
      const part_t p = parts_[v];
      for (part_t q : touched_) {
        if (q == p) continue;
        auto& a = local[static_cast<std::int64_t>(p) * k_ + q];
        a.first += conn_[static_cast<std::size_t>(q)];
        a.second += w(v);
      }
      disconnect();
    }
    std::vector<std::int64_t> keys;
    std::vector<double> vals;
    for (const auto& [key, a] : local) keys.push_back(key), vals.insert(vals.end(), {a.first, a.second});
    // Aim below the tolerance so that rounding of the selections keeps the result within it.
    const std::vector<ArcFlow> flows = plan_on_root(comm_, k_, keys, vals, weight_, 0.5 * tolerance_);
    if (flows.empty()) break;

    // Layer by layer: each boundary vertex of a source is a candidate of its best outgoing flow
    // with some amount left; what a layer moved (summed across ranks) is taken off the flows.
    std::vector<int> out_begin(static_cast<std::size_t>(k_) + 1, 0);
    for (const ArcFlow& f : flows) ++out_begin[static_cast<std::size_t>(f.p) + 1];
    std::partial_sum(out_begin.begin(), out_begin.end(), out_begin.begin());
    std::vector<double> remaining(flows.size());
    for (std::size_t a = 0; a < flows.size(); ++a) remaining[a] = flows[a].amount;
    double moved = 0.0;  // this round, all ranks (+ 1 per vertex: weightless vertices count too)
    // The vertices to evaluate in a layer. The first layer evaluates every vertex of a part with
    // flows out; a later one only those whose evaluation can have changed: the last layer's
    // candidates that were not taken (a flow may have run out), the vertices it moved, and the
    // neighbours of moved vertices, local or ghost. Any other vertex sees the same parts and no
    // new flow, so it stays what it was, and the candidates (sorted below) are exactly those a
    // pass over every vertex would find.
    std::vector<std::int32_t> check, next;
    std::vector<char> marked(n, 0);
    for (std::size_t v = 0; v < n; ++v) check.push_back(static_cast<std::int32_t>(v));
    for (int layer = 0; layer < kMaxLayers; ++layer) {
      if (layer > 0) {
        refetch_ghosts(marked, &next);
        check.swap(next);
        next.clear();
        for (const std::int32_t v : check) marked[static_cast<std::size_t>(v)] = 0;
        if (full_scan_) {
          check.resize(n);
          std::iota(check.begin(), check.end(), 0);
        }
      }
      std::vector<Candidate> cands;
      std::vector<double> cand_weight(flows.size(), 0.0);
      for (const std::int32_t vi : check) {
        const auto v = static_cast<std::size_t>(vi);
        const auto p = static_cast<std::size_t>(parts_[v]);
        if (out_begin[p] == out_begin[p + 1]) continue;
        connect(v);
        Candidate best{-1e300, first + static_cast<gid_t>(v), w(v), static_cast<std::int32_t>(v), -1};
        for (int a = out_begin[p]; a < out_begin[p + 1]; ++a) {
          const auto q = static_cast<std::size_t>(flows[static_cast<std::size_t>(a)].q);
          if (conn_[q] == 0.0 || !(remaining[static_cast<std::size_t>(a)] > 0.0)) continue;
          const double s = move_gain(conn_[q], conn_[p], size(v), static_cast<std::size_t>(home_[v]) == q,
                                     static_cast<std::size_t>(home_[v]) == p, itr_);
          if (s > best.score) best.score = s, best.arc = a;
        }
        disconnect();
        if (best.arc < 0) continue;
        cand_weight[static_cast<std::size_t>(best.arc)] += best.w;
        cands.push_back(best);
      }
      // This rank's share of each flow: proportional to its candidates' weight.
      std::vector<double> all_weight = cand_weight;
      MPI_Allreduce(MPI_IN_PLACE, all_weight.data(), static_cast<int>(all_weight.size()), MPI_DOUBLE, MPI_SUM,
                    comm_.get());
      std::sort(cands.begin(), cands.end(), [](const Candidate& a, const Candidate& b) {
        if (a.arc != b.arc) return a.arc < b.arc;
        return a.score != b.score ? a.score > b.score : a.gid < b.gid;
      });
      std::vector<double> took(flows.size() + 1, 0.0);  // per flow; last: vertices moved
      std::vector<double> order;
      for (std::size_t i = 0; i < cands.size();) {
        std::size_t j = i;
        while (j < cands.size() && cands[j].arc == cands[i].arc) ++j;
        const auto a = static_cast<std::size_t>(cands[i].arc);
        const double quota =
            all_weight[a] <= remaining[a] ? cand_weight[a] : remaining[a] * cand_weight[a] / all_weight[a];
        order.clear();
        for (std::size_t c = i; c < j; ++c) order.push_back(cands[c].w);
        const std::size_t take = take_count(order, quota);
        for (std::size_t c = i; c < i + take; ++c) {
          const auto v = static_cast<std::size_t>(cands[c].v);
          parts_[v] = static_cast<part_t>(flows[a].q);
          took[a] += cands[c].w;
          took.back() += 1.0;
          mark_vertex(v, marked, &next);
          mark_neighbours(v, marked, &next);
        }
        for (std::size_t c = i + take; c < j; ++c)  // not taken: evaluated again next layer
          mark_vertex(static_cast<std::size_t>(cands[c].v), marked, &next);
        i = j;
      }
      MPI_Allreduce(MPI_IN_PLACE, took.data(), static_cast<int>(took.size()), MPI_DOUBLE, MPI_SUM, comm_.get());
      for (std::size_t a = 0; a < flows.size(); ++a) remaining[a] -= took[a];
      moved += std::accumulate(took.begin(), took.end(), 0.0);
      if (!(took.back() > 0.0)) break;  // no flow could take a vertex: the next layer would not either
    }
    ++rounds;
    measure();
    if (!(moved > 0.0)) break;  // no flow found a vertex to move: more rounds would not either
  }
  return rounds;
}

void GraphDiffusion::refine(int passes) {
  const std::size_t n = parts_.size();
  const double R = comm_.size();
  // A move needs a neighbour in the target part, so only boundary vertices are visited: marked
  // are those that may be one (every vertex with a neighbour in another part at the start, then
  // the neighbours of every move, local or ghost). The visiting order is unchanged (ascending),
  // and so is every result: an unmarked vertex has no move.
  std::vector<char> marked(n, 0);
  const auto& adj = ghosts_.local_adjncy();
  for (std::size_t v = 0; v < n; ++v)
    for (auto e = g_.xadj[v]; e < g_.xadj[v + 1] && !marked[v]; ++e)
      marked[v] = part_at(adj[static_cast<std::size_t>(e)]) != parts_[v] ? 1 : 0;
  for (int pass = 0; pass < passes; ++pass) {
    const double mean = std::accumulate(weight_.begin(), weight_.end(), 0.0) / static_cast<double>(k_);
    const double limit = (1.0 + tolerance_) * mean;
    std::vector<double> room(static_cast<std::size_t>(k_));
    for (std::size_t q = 0; q < room.size(); ++q) room[q] = std::max(0.0, limit - weight_[q]) / R;
    for (std::size_t v = 0; v < n; ++v) {
      if (!marked[v] && !full_scan_) continue;
      const part_t p = parts_[v];
      connect(v);
      const bool interior = touched_.empty() || (touched_.size() == 1 && touched_[0] == p);
      part_t best = p;
      double best_gain = 1e-9;  // strictly positive: a move must pay for itself
      for (part_t q : touched_) {
        if (q == p || (pass % 2 == 0) != (q > p)) continue;
        const double gain = move_gain(conn_[static_cast<std::size_t>(q)], conn_[static_cast<std::size_t>(p)], size(v),
                                      home_[v] == q, home_[v] == p, itr_);
        if (gain > best_gain && w(v) <= room[static_cast<std::size_t>(q)]) best = q, best_gain = gain;
      }
      disconnect();
      if (best == p) {
        if (interior) marked[v] = 0;
        continue;
      }
      parts_[v] = best;
      mark_neighbours(v, marked, nullptr);
      // What this rank moves out of p is room only this rank's share of p can use again.
      room[static_cast<std::size_t>(best)] -= w(v);
      room[static_cast<std::size_t>(p)] += w(v);
    }
    refetch_ghosts(marked, nullptr);
    sum_weights();
  }
}

}  // namespace hpart::repart
