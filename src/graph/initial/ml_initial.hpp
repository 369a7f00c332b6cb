#pragma once
// Initial partition of the coarsest graph: METIS_PartGraphRecursive with the parts' shares as
// tpwgts (the best of a few cuts); graphs METIS cannot take (no edges, no more vertices than
// parts) are packed directly.
#include <cstdint>
#include <vector>

#include "graph/refinement/ml_balance.hpp"
#include "graph/ml_graph_view.hpp"
#include "hpart/types.hpp"

namespace hpart::graphk {

struct InitialOptions {
  double imbalance = 0.03;  // METIS's ubvec - 1 on the coarsest graph
  int tries = 2;            // METIS_OPTION_NCUTS: partitions computed, the smallest cut kept
  int seed = 1;
  bool kway = false;        // METIS_PartGraphKway instead of METIS_PartGraphRecursive
};

// METIS's input guarded: weights scaled so that the sums METIS forms in idx_t (32 bits in
// Debian's build) fit: each constraint's vertex weights and the edge weights total at most 2^29
// before rounding (vertex weights to the nearest integer, edge weights kept >= 1, so at most
// 2^29 + n / 2 and 2^29 + adjacency entries after it), and the
// graphs METIS cannot cut well (k == 1, k >= n: it may put everything in one part; no edges)
// packed instead. METIS's balance is then to the scaled weights: callers measure the result
// on the exact ones.
std::vector<part_t> initial_partition(const GraphView& g, const Balance& b, const InitialOptions& o);

// Heaviest vertices first, each to an empty part (the largest share first) while there is one,
// then to the part of least relative load (ties: the lower part): with n <= k every vertex has
// a part of its own. Used where there is no edge to guide a cut.
std::vector<part_t> pack_vertices(const GraphView& g, const Balance& b);

}  // namespace hpart::graphk
