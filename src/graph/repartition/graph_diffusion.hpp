#pragma once
// Incremental repartitioning of a distributed graph by diffusion over its quotient graph (the
// parts, adjacent where edges are cut). Each balancing round measures the part weights and the
// quotient arcs (cut weight, and the weight of each part's boundary vertices towards each
// neighbour), rank 0 plans the flows that remove the excess (transport_flow, limited per arc by
// 4x that boundary weight) and broadcasts them, and every rank realises each flow p -> q layer
// by layer with its share of what is left of it (proportional to its candidates' weight, one
// allreduce): the boundary vertices of p adjacent to q, best gain first (cut saved, with
// ParMETIS's itr trade-off against migration); what every rank took is summed (one allreduce)
// and the ghost parts refreshed before the next layer. Rounds repeat until the imbalance is
// within the tolerance. Then a few passes of boundary
// refinement take only moves whose gain is positive and that keep every part within the limit.
// The first weight is balanced; other constraints are carried along unbalanced.
#include <cstdint>
#include <span>
#include <vector>

#include "core/ghost_exchange.hpp"
#include "hpart/comm.hpp"
#include "hpart/graph.hpp"
#include "hpart/types.hpp"

namespace hpart::repart {

class GraphDiffusion {
 public:
  // Collective. g valid, home: the current part of each local vertex in [0, num_parts) (both
  // validated by the caller); ghosts: g's ghost plan.
  GraphDiffusion(const Comm& comm, const Graph& g, const graph::GhostExchange& ghosts, std::span<const part_t> home,
                 int num_parts, double imbalance, double itr, IntSpan sizes = {});

  // Collective: balancing rounds until the first weight's imbalance (max / mean - 1) is within
  // the tolerance, at most max_rounds; returns the rounds run (0: already balanced).
  int balance(int max_rounds);
  // Collective: `passes` refinement passes (alternately towards higher and lower part ids, so
  // that two neighbours on different ranks never swap), each part's room below the limit split
  // evenly between the ranks.
  void refine(int passes);

  // For tests: evaluate every vertex in every layer and refinement pass instead of the frontier
  // (the vertices whose evaluation can have changed). The results must be identical.
  void set_full_scan(bool on) { full_scan_ = on; }

  [[nodiscard]] double imbalance() const;  // of the last measured part weights
  [[nodiscard]] const std::vector<part_t>& parts() const { return parts_; }
  std::vector<part_t> take_parts() { return std::move(parts_); }

 private:
  void measure();  // ghost parts and part weights
  void sum_weights();  // part weights
  // Fetches the ghost parts again and marks (mark[v] = 1, v appended to `added` when given and
  // not marked before) the local neighbours of every ghost whose part changed.
  void refetch_ghosts(std::vector<char>& mark, std::vector<std::int32_t>* added);
  // Marks v's local neighbours (as refetch_ghosts does).
  void mark_neighbours(std::size_t v, std::vector<char>& mark, std::vector<std::int32_t>* added) const;
  [[nodiscard]] double w(std::size_t v) const {
    return g_.vwgt.empty() ? 1.0 : static_cast<double>(g_.vwgt[v * static_cast<std::size_t>(g_.ncon)]);
  }
  // What moving v costs in the migration term of a move's gain: its size when given, else w(v).
  [[nodiscard]] double size(std::size_t v) const {
    return sizes_.empty() ? w(v) : static_cast<double>(sizes_[v]);
  }
  [[nodiscard]] part_t part_at(std::int32_t u) const {
    const auto i = static_cast<std::size_t>(u);
    return i < parts_.size() ? parts_[i] : ghost_parts_[i - parts_.size()];
  }
  // Edge weight of local vertex v towards each neighbouring part (dense conn_, touched_ lists them).
  void connect(std::size_t v);
  void disconnect();

  Comm comm_;
  const Graph g_;  // a view (spans) of the caller's arrays: copied, so a temporary view may be passed
  const graph::GhostExchange& ghosts_;
  std::span<const part_t> home_;
  IntSpan sizes_;
  std::vector<part_t> parts_, ghost_parts_;
  int k_;
  double tolerance_, itr_;
  bool full_scan_ = false;
  std::vector<double> weight_;  // global part weights (first weight)
  std::vector<double> conn_;
  std::vector<part_t> touched_;
  // The local neighbours of each ghost (CSR by ghost index): a ghost's part change can only
  // change what its neighbours see, so layers and refinement passes revisit those alone.
  std::vector<std::int32_t> ghost_nbr_start_, ghost_nbr_;
};

}  // namespace hpart::repart
