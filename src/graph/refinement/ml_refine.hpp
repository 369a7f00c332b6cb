#pragma once
// Refinement of one level of the multilevel partitioner: rebalancing (moves out of overloaded
// parts, least cut loss per unit of weight first; a tabu search with exchanges where several
// tight constraints leave no single move), filling empty parts, and k-way boundary FM (one
// priority queue of boundary vertices by gain, negative moves allowed, rolled back to the best
// prefix). The moves are sequential and ordered by the input alone; only the evaluation of all
// boundary vertices at the start of a level is parallel (per vertex, order-independent), so the
// result does not depend on the thread count. ml_refine.cpp holds FM, ml_rebalance.cpp the rest.
#include <cstdint>
#include <span>
#include <vector>

#include "graph/refinement/ml_balance.hpp"
#include "core/huge_pages.hpp"
#include "graph/ml_graph_view.hpp"
#include "graph/refinement/ml_heap.hpp"
#include "hpart/types.hpp"

namespace hpart::graphk {

struct RefineParams {
  int fm_rounds = 4;              // FM passes at most
  std::int64_t fm_stall = 0;      // moves without improvement before a pass stops; 0: by size
  double min_round_gain = 1e-3;   // stop when a pass gains less than this fraction of the cut
  // A rank's block of a distributed graph rather than a whole graph: its ghosts (fixed) stand
  // for other ranks' vertices and the bounds are the rank's share of each part's room, so empty
  // parts are normal here (not filled) and the exchange searches, which assume the whole graph
  // is in view, are skipped.
  bool block = false;
};

class Refiner {
 public:
  // `fixed` (empty, or one flag per vertex): vertices that never move (another rank's ghosts).
  Refiner(const GraphView& g, const Balance& b, std::span<part_t> part, std::span<const std::uint8_t> fixed = {});

  // Rebalance where a bound is broken, fill empty parts, FM passes (and where balance needed
  // exchange_rebalance, exchanges of vertex pairs: tight bounds leave them as the only moves).
  void refine(const RefineParams& p);

  // Moves vertices out of parts above their bound into parts with room; true when every bound
  // holds afterwards.
  bool rebalance();
  // Where rebalance() is stuck (several constraints: no part has room for a vertex in every
  // one): a tabu search with moves and exchanges of two vertices on a potential (the sum of
  // squared relative excesses over the targets), which may pass through states where a part at
  // its bound takes weight and hands other weight on. Keeps the best state; true when every
  // bound holds afterwards. Small graphs only (see the limits below).
  bool exchange_rebalance();
  // Gives every empty part one vertex (when there are at least k vertices): the vertex whose
  // move cuts the least edge weight, among those that fit.
  void fill_empty_parts();

  [[nodiscard]] std::span<const std::int64_t> part_weights() const { return pw_; }
  // Whether balance needed exchange_rebalance (a hard instance).
  [[nodiscard]] bool repaired() const { return repaired_; }

 private:
  struct Move {
    std::int32_t v;
    part_t from;
  };
  struct Target {
    part_t part = -1;        // -1: none; kAnyPart: no adjacent part fits, any part with room
    std::int64_t gain = 0;   // cut reduction of the move
    bool boundary = false;   // v has a neighbour in another part
    std::int64_t external = 0;  // edge weight from v to other parts
    std::int64_t internal = 0;  // edge weight from v to its own part
  };
  // Per-thread scratch of an evaluation: connection to each part, and the parts touched.
  struct Scratch {
    std::vector<std::int64_t> conn;
    std::vector<part_t> touched;
    void clear() {
      for (part_t p : touched) conn[static_cast<std::size_t>(p)] = 0;
      touched.clear();
    }
  };
  static constexpr part_t kAnyPart = -2;
  // Exchanges and moves to every part look at vertex pairs or all parts per vertex.
  static constexpr std::int32_t kExchangeMaxVertices = 20000;
  static constexpr std::int32_t kEveningMaxVertices = 5000;
  static constexpr std::int64_t kSwapMaxTable = std::int64_t{1} << 22;  // n * k connection entries
  static constexpr std::int64_t kTabuTenure = 12;     // steps a moved vertex stays put
  static constexpr std::int64_t kTabuSteps = 20000;   // steps at most
  static constexpr std::int64_t kTabuPatience = 400;  // steps without a better state
  static constexpr std::int64_t kTabuWork = 50'000'000;  // candidate moves looked at, at most

  // FM (ml_refine.cpp).
  Target evaluate(std::int32_t v, Scratch& s) const;  // best FM move of v (thread-safe)
  std::int64_t prepare_fm();                          // evaluates every vertex; returns the cut
  std::int64_t fm_pass(std::int64_t stall);           // one pass; returns its gain (>= 0)
  std::int64_t swap_pass();                           // exchanges that lower the cut; its gain
  void touch(std::int32_t v);                         // v's neighbourhood changed

  // Weights and moves (ml_refine.cpp).
  [[nodiscard]] bool fits(part_t p, std::int32_t v) const;
  [[nodiscard]] bool over(part_t p) const;
  [[nodiscard]] double load(part_t p) const;
  // v may not move: it is fixed, or its part's only vertex.
  [[nodiscard]] bool pinned(std::int32_t v) const;
  void move(std::int32_t v, part_t to);
  // Fills s with v's connection to each other part and adds it to external; returns the weight
  // to v's own part (the one pass over v's edges that scan and evaluate share; thread-safe).
  std::int64_t connect(std::int32_t v, Scratch& s, std::int64_t& external) const;
  std::int64_t scan(std::int32_t v);  // fills scratch_ for v's other parts; returns internal weight
  void reset_scan();

  // Balance (ml_rebalance.cpp).
  [[nodiscard]] bool helps(std::int32_t v) const;  // has weight in an overloaded constraint of its part
  [[nodiscard]] double rebalance_priority(std::int32_t v, std::int64_t gain) const;
  Target rebalance_target(std::int32_t v);
  [[nodiscard]] part_t lightest_fitting(std::int32_t v) const;
  [[nodiscard]] double potential_change(part_t p, const std::int64_t* add, const std::int64_t* sub) const;
  // exchange_rebalance's tabu search (ml_rebalance.cpp).
  struct Exchange;  // its state
  // Whether v has weight in a constraint where its part a is above the target.
  [[nodiscard]] bool above_target(part_t a, std::int32_t v) const;
  // The sum over parts and constraints of the squared relative excess over the target.
  [[nodiscard]] double excess_potential() const;
  // The worst excess over a bound, relative to the bound (<= 0: every bound holds), and where.
  double worst_excess(part_t& p, int& cw) const;
  void shift(Exchange& x, std::int32_t v, part_t to);  // move() that keeps x.conn
  void exchange_candidates(Exchange& x, std::int32_t v, std::int64_t step, part_t p, int cw);
  bool exchange_step(Exchange& x, std::int64_t step, part_t p, int cw);

  const GraphView& g_;
  const Balance& b_;
  std::span<part_t> part_;
  std::span<const std::uint8_t> fixed_;
  std::vector<std::int64_t> pw_;     // k * ncon part weights
  std::vector<std::int32_t> count_;  // vertices per part
  Scratch scratch_;
  HugeVector<std::uint8_t> locked_;
  HugeVector<Move> moves_;
  VertexHeap<std::int64_t> heap_;
  VertexHeap<double> rheap_;
  // FM candidates: the boundary vertices, plus vertices near moves since. Their best move is
  // cached between passes (gain_, has_target_) and recomputed where a neighbour moved (dirty_),
  // so passes after the first cost O(boundary) instead of O(boundary edges).
  // Per-vertex arrays in huge-page storage: fresh every level (see huge_pages.hpp).
  HugeVector<std::int32_t> list_;
  HugeVector<std::uint8_t> in_list_, dirty_, has_target_;
  HugeVector<std::int64_t> gain_;
  HugeVector<std::int64_t> wdeg_;  // weighted degree of every vertex
  bool repaired_ = false;
};

}  // namespace hpart::graphk
