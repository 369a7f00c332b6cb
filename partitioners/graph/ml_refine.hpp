#pragma once
// Refinement of one level: rebalancing (moves out of overloaded parts, least cut loss per unit
// of weight first), filling empty parts, and k-way boundary FM (one priority queue of boundary
// vertices by gain, negative moves allowed, rolled back to the best prefix). Sequential and
// seeded by the input alone, so the result does not depend on the thread count.
#include <cstdint>
#include <span>
#include <vector>

#include "graph/ml_balance.hpp"
#include "graph/ml_graph_view.hpp"
#include "graph/ml_heap.hpp"
#include "hpart/types.hpp"

namespace hpart::graphk {

struct RefineParams {
  int fm_rounds = 4;            // FM passes at most (each starts from all boundary vertices)
  std::int64_t fm_stall = 0;    // moves without improvement before a pass stops; 0: by size
  double min_round_gain = 1e-3; // stop when a pass gains less than this fraction of the cut
};

class Refiner {
 public:
  Refiner(const GraphView& g, const Balance& b, std::span<part_t> part);

  // Rebalance, fill empty parts, FM passes, and a last rebalance should anything remain.
  void refine(const RefineParams& p);
  // Moves vertices out of parts above their bound into parts with room; true when every bound
  // holds afterwards.
  bool rebalance();
  // Where rebalance() is stuck (several constraints: no part has room for a vertex in every
  // one): moves and exchanges of two vertices that lower a potential (the sum of squared
  // relative excesses over the targets), even through a part they overload a little.
  // Strictly decreasing, so it ends; true when every bound holds afterwards.
  bool exchange_rebalance();
  // Gives every empty part one vertex (when there are at least k vertices), the vertex whose
  // move cuts the least edge weight among those that fit.
  void fill_empty_parts();
  // One FM pass; returns its gain (>= 0: worse prefixes are rolled back).
  std::int64_t fm_pass(std::int64_t stall);
  // Exchanges of two boundary vertices between adjacent parts that lower the cut and keep every
  // bound: what tight constraints leave to improve when no single vertex fits anywhere. Small
  // graphs only (a connectivity table of n * k entries). Returns the gain.
  std::int64_t swap_pass();

  [[nodiscard]] std::span<const std::int64_t> part_weights() const { return pw_; }
  // Whether balance needed exchange_rebalance (a hard instance: the driver tries other starts).
  [[nodiscard]] bool repaired() const { return repaired_; }

 private:
  struct Move {
    std::int32_t v;
    part_t from;
  };
  struct Target {
    part_t part;            // -1: none; kAnyPart: no adjacent part fits, any part with room
    std::int64_t gain;      // cut reduction of the move
    bool boundary = false;  // v has a neighbour in another part
  };
  static constexpr part_t kAnyPart = -2;

  std::int64_t scan(std::int32_t v);  // fills conn_ for v's other parts; returns internal weight
  void reset_scan();
  [[nodiscard]] bool fits(part_t p, std::int32_t v) const;
  [[nodiscard]] bool over(part_t p) const;
  [[nodiscard]] double load(part_t p) const;
  [[nodiscard]] bool helps(std::int32_t v) const;  // has weight in an overloaded constraint of its part
  [[nodiscard]] double rebalance_priority(std::int32_t v, std::int64_t gain) const;
  Target fm_target(std::int32_t v);
  Target rebalance_target(std::int32_t v);
  part_t lightest_fitting(std::int32_t v) const;
  [[nodiscard]] double potential_change(part_t p, const std::int64_t* add, const std::int64_t* sub) const;
  // Exchange and evening steps scan vertex pairs or every part per vertex: small graphs only.
  static constexpr std::int32_t kExchangeMaxVertices = 20000;
  static constexpr std::int32_t kEveningMaxVertices = 5000;
  static constexpr std::int64_t kSwapMaxTable = std::int64_t{1} << 22;  // n * k entries at most
  static constexpr std::int64_t kTabuTenure = 12;      // steps a moved vertex stays put
  static constexpr std::int64_t kTabuSteps = 20000;    // steps at most
  static constexpr std::int64_t kTabuPatience = 400;   // steps without a better state
  void move(std::int32_t v, part_t to);
  std::int64_t collect_boundary();  // fills list_ with the boundary vertices; returns the cut
  void enlist(std::int32_t v);


  const GraphView& g_;
  const Balance& b_;
  std::span<part_t> part_;
  std::vector<std::int64_t> pw_;
  std::vector<std::int64_t> conn_;
  std::vector<part_t> touched_;
  std::vector<std::uint8_t> locked_;
  // FM candidates: the boundary vertices, plus vertices near moves since (checked when a pass
  // starts). Keeps passes O(boundary) instead of O(edges).
  std::vector<std::int32_t> list_;
  std::vector<std::uint8_t> in_list_;
  std::vector<Move> moves_;
  VertexHeap<std::int64_t> heap_;
  VertexHeap<double> rheap_;
  bool repaired_ = false;
};

}  // namespace hpart::graphk
