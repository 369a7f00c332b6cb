#pragma once
// The pure pieces of incremental graph repartitioning (repartition_graph): the quotient graph's
// arcs, the excess to remove, the flows over the quotient graph, the gain of a move under the
// ParMETIS-style cut / migration trade-off, and how many ranked candidates realise a quota.
// MPI-free.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace hpart::repart {

// One directed arc p -> q of the quotient graph as seen from p's side: the weight of the edges
// between p and q that p's vertices hold (each cut edge is seen once from each end, so arc
// p -> q and arc q -> p carry the same cut), and the weight of p's vertices adjacent to q (the
// layer that can move to q in one round).
struct QuotientArc {
  int p = 0, q = 0;
  double cut = 0.0;
  double boundary = 0.0;
};

// Sums the arcs with the same (p, q); the result is sorted by (p, q), so every rank merging the
// same arcs in the same order gets the same list.
std::vector<QuotientArc> merge_arcs(std::vector<QuotientArc> arcs);

// Per part, the load to remove (> 0) or to receive (< 0): parts above (1 + aim) x mean supply
// what they carry beyond it; parts below the mean demand their deficit, scaled so that the
// demand equals the supply (nearer sinks are then not overfilled). Zero total weight: all zero.
std::vector<double> balancing_excess(std::span<const double> part_weights, double aim);

struct ArcFlow {
  int p = 0, q = 0;     // from part p to part q
  double amount = 0.0;  // > 0
};

// The flows that remove `excess` over the quotient graph of `num_parts` parts (merged arcs):
// transport_flow, with each edge's capacity its cut and each direction's limit `layers` times its
// source's boundary weight towards the other end (what that many boundary layers of similar size
// hold), so that flows prefer wide interfaces to deep narrow incursions. Returns the directed
// flows > 0, sorted by (p, q).
std::vector<ArcFlow> plan_flows(int num_parts, std::span<const QuotientArc> merged, std::span<const double> excess,
                                double layers = 1.0);

// Gain of moving a vertex of weight w from its current part to a target part, with `to_target`
// and `to_current` its edge weight towards each: cut saved, plus the migration saved divided by
// itr (ParMETIS's ratio of communication to redistribution cost: cost = itr x cut + migrated
// weight). Moving back to its home part (its part before the repartition) saves its migration,
// moving away from home costs it, moving between two foreign parts costs nothing more.
inline double move_gain(double to_target, double to_current, double w, bool target_is_home, bool at_home,
                        double itr) {
  const double migration = target_is_home ? w : at_home ? -w : 0.0;
  return (to_target - to_current) + migration / itr;
}

// How many of the candidates (their weights, in the order they are to be taken) realise `quota`:
// the longest prefix whose every vertex, when taken, brings the total at most half its weight
// beyond the quota (the nearest total to the quota that a prefix reaches, rounding halves up).
std::size_t take_count(std::span<const double> weights_in_order, double quota);

}  // namespace hpart::repart
