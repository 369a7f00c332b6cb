#pragma once
// The distributed refiner: the one place where a partition of a distributed level (BlockLevel:
// each rank's block in local ids with its ghosts) is improved. Every graph method refines
// through it: the graph method at each uncoarsened level, geometric+refine on the input graph's
// block. Two ways to choose the moves share the level, the ghost plan and the rule that each
// rank may fill only its share (1/R) of a part's room, so that concurrent moves never push a
// part past its bound:
//  - kernel_fm: the shared-memory kernel's k-way FM on every block at once, ghosts fixed at their
//    owners' parts (the quality path; balance kept by per-rank budgets);
//  - label_propagation: size-constrained label propagation rounds, then a balance repair (the
//    cheap path: one sweep per round, fit for a start that is already good, e.g. a curve).
#include <vector>

#include "graph/coarsening/block_level.hpp"
#include "hpart/comm.hpp"

namespace hpart::graph {

struct BlockRefine {
  enum class Moves { kernel_fm, label_propagation };
  Moves moves = Moves::kernel_fm;
  int rounds = 1;  // kernel_fm: whole passes; label_propagation: rounds (stops early when none moves)
};

// Collective: refines `parts` (the level's local vertices) so that every part weighs at most
// limits[part * ncon + c] (global bounds); label_propagation also repairs a start above them.
void refine_blocks(const Comm& comm, const BlockLevel& level, int K, const std::vector<double>& limits,
                   std::vector<part_t>& parts, const BlockRefine& how = {});

}  // namespace hpart::graph
