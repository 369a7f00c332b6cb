#pragma once
// hpart's shared-memory multilevel graph partitioner (pure: no MPI; OpenMP inside). Coarsening by
// heavy-edge matching, an initial partition of the coarsest graph by METIS, and on the way back
// up rebalancing plus k-way boundary FM refinement at every level; with more effort also a run
// coarsened by clustering and V-cycles (multilevel.cpp says how and why). The partition depends
// on the input, the seed and the effort only, not on the thread count.
// The graph must be symmetric (every edge listed at both ends with the same weight; not
// checked here: the distributed driver validates its input); other structural errors, negative
// weights and out-of-range parts throw hpart::Error. Empty vwgt / adjwgt mean unit weights, and
// vertex weights that are all zero are balanced as vertex counts.
#include <cstdint>
#include <span>
#include <vector>

#include "graph/csr_graph.hpp"
#include "graph/ml_graph_view.hpp"
#include "hpart/types.hpp"

namespace hpart::graphk {

struct MultilevelOptions {
  int parts = 2;
  double imbalance = 0.03;      // every constraint: part weight <= (1 + imbalance) * target
  std::vector<double> targets;  // optional relative part sizes (parts values > 0); empty: equal
  int seed = 1;
  // The effort (hpart::GraphEffort's fields, which say what each does; the defaults are the
  // standard preset's): coarsest graph of about max(coarsest_per_part x parts, 2000 x
  // coarsest_per_part / 60) vertices, METIS's tries there, FM passes per level and their horizon
  // (0: by size), V-cycles, the coarsening (cluster_rounds > 0: label propagation clustering
  // with that many rounds per level; 0: heavy-edge matching) and, with coarsenings 2, a second
  // run coarsened the other way, the better of the two kept.
  int coarsest_per_part = 60;
  int initial_tries = 2;
  int fm_passes = 4;
  std::int64_t fm_horizon = 0;
  int vcycles = 0;
  int cluster_rounds = 3;
  int coarsenings = 1;
  // The caller has validated the graph (ids in range, no self-loops, weights > 0: validate_graph
  // does it for partition_graph): the kernel's own pass over every edge is skipped.
  bool validated = false;
};

// Parts of every vertex, each in [0, parts). Honours the imbalance for every constraint whenever
// the vertex weights allow it, and leaves no part empty when there are at least `parts` vertices.
// With fewer vertices than parts every vertex gets a part of its own (the largest targets
// first) and the other parts stay empty.
std::vector<part_t> multilevel_partition(const CsrGraph& g, const MultilevelOptions& opts);
// The same on borrowed arrays (g.n is taken from g.xadj): a caller whose graph is already in
// these types lends it without a copy.
std::vector<part_t> multilevel_partition(const GraphView& g, const MultilevelOptions& opts);

// METIS_PartGraphKway on the whole graph (partition_graph's metis method), with the input guarded
// as the kernel's own METIS call is (see initial_partition): weights scaled into idx_t's range,
// all-zero vertex weights balanced as vertex counts, and k >= n (every vertex a part of its own)
// or a graph without edges packed instead of cut. One try (METIS's default), opts.seed.
std::vector<part_t> metis_kway(const CsrGraph& g, const MultilevelOptions& opts);

// Improves an existing partition in place (fewer cut edges, balance restored to the tolerance
// where it is violated, empty parts given a vertex when there are at least `parts` vertices):
// the refinement of the multilevel scheme on a single level. The cut of a partition within the
// tolerance and without empty parts never grows. FM as opts.fm_passes and opts.fm_horizon say.
void refine_partition(const CsrGraph& g, std::vector<part_t>& parts, const MultilevelOptions& opts);

// Refinement of one rank's block of a distributed graph: `g` holds the block's vertices and,
// after them, its ghosts (other ranks' neighbours, with their current parts in `parts` and, for
// balance, weight 0), flagged in `fixed`: ghosts never move. Part p's weight in `g` stays at or
// below max_weight[p * ncon + c] (the rank's share of the part's room; a part above it is
// relieved first). Rebalancing and k-way FM as in the multilevel scheme; empty parts are left
// alone (a part may have no vertex in this block).
void refine_block(const CsrGraph& g, std::vector<part_t>& parts, int k, std::span<const std::int64_t> max_weight,
                  std::span<const std::uint8_t> fixed);

// Total weight of cut edges (each edge once).
std::int64_t edge_cut(const CsrGraph& g, const std::vector<part_t>& parts);

}  // namespace hpart::graphk
