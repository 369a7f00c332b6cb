#pragma once
// AMR patch lists: the boxes of one refinement level, each with a cost, distributed over parts
// (cf. AMReX DistributionMapping). A patch is an indivisible object; what matters is the balance
// of the patch costs and, for the curve methods, that a part's patches lie together.
//
// A level's patch list is metadata (a few thousand boxes), which AMR codes replicate on every
// rank; partition_patches gathers the boxes and costs (56 bytes a patch) so that every rank
// computes the same assignment, never the cells. Each rank passes the patches it holds now (any
// split, including none); the result does not depend on that split.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "hpart/box.hpp"
#include "hpart/comm.hpp"
#include "hpart/grid.hpp"
#include "hpart/partition.hpp"
#include "hpart/points.hpp"

namespace hpart {

struct PatchList {
  int dim = 2;                                 // 2 or 3
  std::array<std::int64_t, 3> extent{1, 1, 1};  // the level's index domain (limits as Grid)
  std::span<const Box> boxes;                  // this rank's patches: non-empty, inside the
                                               // domain, pairwise disjoint over all ranks
  std::span<const double> cost;                // per patch (finite, >= 0), or empty: cell count
};

enum class PatchMethod {
  knapsack,  // largest cost first onto the lightest part, then swap refinement: best balance,
             // no locality (AMReX KNAPSACK)
  sfc,       // patches in curve order of their centres, cut into consecutive bottleneck-optimal
             // chains: locality first (AMReX SFC, with exact instead of greedy cuts)
  sfc_swap,  // sfc, then the swap refinement for the bottleneck: a few patches leave their
             // curve range where that lowers the heaviest part
};

struct PatchOptions {
  int parts = 1;
  PatchMethod method = PatchMethod::sfc_swap;
  Curve curve = Curve::hilbert;    // sfc, sfc_swap
  // knapsack, sfc_swap: the swap refinement stops once the heaviest part is within this of the
  // mean (each swap costs some locality), or when no swap helps any more. 0: refine to the end.
  double imbalance = 0.001;

  // fast: sfc (curve chains, no swap refinement); standard: the defaults (sfc_swap to 0.1%);
  // strong: sfc_swap refined until no swap helps.
  static PatchOptions preset(Preset p, int parts);
};

// The Partition of the local patches (in input order; weights = patch costs), plus:
struct PatchPartition : Partition {
  std::vector<Box> boxes;  // per part: the bounding box of its patches (empty box: no patch)
};

// Collective. Validates (dim, extent, boxes inside and disjoint, cost length and values, parts)
// and throws the same hpart::Error on every rank. Deterministic: the same global patch list gives
// the same parts for any number of ranks and threads.
PatchPartition partition_patches(const Comm& comm, const PatchList& patches, const PatchOptions& opts);

// Rebalancing a patch assignment whose costs changed (or whose patches were regridded with their
// parts kept), starting from the current parts: moves and swaps of single patches from the
// heaviest part (the swap refinement of the methods above) until the heaviest part is within the
// tolerance, so that only a few patches change owner. A patch keeps its part otherwise.
struct PatchRepartOptions {
  int parts = 1;
  double imbalance = 0.02;  // max / mean - 1 to reach; refinement stops there
};

// The new part of each local patch, part boxes and metrics; migrated: the patches whose part
// changed and their cost; steps: the moves and swaps made (the same on every rank).
using PatchRepartition = Repartition<PatchPartition>;

// Collective. current: the part of each local patch (one per list.boxes entry, in [0, parts)).
// Validates as partition_patches, plus current and the options, on every rank. Deterministic:
// the result does not depend on how the list is spread over ranks.
PatchRepartition repartition_patches(const Comm& comm, const PatchList& patches, std::span<const part_t> current,
                                     const PatchRepartOptions& opts);

// Collective: for a patch partition, what each part exchanges when every patch fills a ghost
// layer of width `halo` (corners included) from the patches around it (AMReX FillBoundary): per
// part, the parts owning cells in the ghost layers of its patches, how many such cells, and the
// contact kind (as grid_neighbours). Ghost cells filled by a patch of the same part are local.
GridNeighbours patch_neighbours(const Comm& comm, const PatchList& patches, const PatchPartition& p, int halo = 1);

const char* to_string(PatchMethod m);
PatchMethod patch_method_from_string(const char* name);  // throws hpart::Error for an unknown name

}  // namespace hpart
