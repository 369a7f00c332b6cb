#pragma once
// hpart's shared-memory multilevel graph partitioner (pure: no MPI; OpenMP inside). Coarsening by
// size-constrained label propagation (or matching), an initial partition of the coarsest graph
// by METIS, and on the way back up size-constrained label propagation plus boundary FM
// refinement (cf. KaMinPar, METIS). Deterministic for a given seed and thread count.
#include <cstdint>
#include <vector>

#include "graph/csr_graph.hpp"
#include "hpart/types.hpp"

namespace hpart::graphk {

struct MultilevelOptions {
  int parts = 2;
  double imbalance = 0.03;      // every constraint: part weight <= (1 + imbalance) * target
  std::vector<double> targets;  // optional relative part sizes (parts values > 0); empty: equal
  int seed = 1;
};

// Parts of every vertex, each in [0, parts). Honours the imbalance for every constraint whenever
// the vertex weights allow it, and leaves no part empty when there are at least `parts` vertices.
std::vector<part_t> multilevel_partition(const CsrGraph& g, const MultilevelOptions& opts);

// Improves an existing partition in place (fewer cut edges, balance restored to the tolerance
// where it is violated): the refinement of the multilevel scheme on a single level. Used by the
// distributed driver on gathered coarse graphs and by geometric+refine.
void refine_partition(const CsrGraph& g, std::vector<part_t>& parts, const MultilevelOptions& opts);

// Total weight of cut edges (each edge once).
std::int64_t edge_cut(const CsrGraph& g, const std::vector<part_t>& parts);

}  // namespace hpart::graphk
