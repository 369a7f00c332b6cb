#pragma once
// 1D weighted chains partitioning: cut a sequence of non-negative item weights into K
// consecutive parts. Pure kernels: no MPI. Used by the SFC partitioner on its discretised curve
// and by anyone who has weights in an order already.
//
// Cuts are returned as K+1 item offsets: part j holds items [cuts[j], cuts[j+1]),
// cuts[0] = 0, cuts[K] = n. Targets are optional relative part sizes (K positive values);
// empty means equal parts. Whenever n >= K every part holds at least one item (a zero-weight
// item counts), however heavy some items are. When K > n some parts are necessarily empty: the
// cuts then follow the targets as usual (within the bottleneck for chains_optimal), so the
// empty parts fall where the targets put them (not necessarily last), and a part may hold
// more than one item. If every weight is zero the partitioners split by item count instead.
//
// Errors (hpart::Error): invalid_argument for parts < 1, a targets span that is neither empty
// nor `parts` long, or a target that is not finite and > 0; invalid_input for a negative or
// non-finite weight, or weights whose sum overflows.
#include <cstdint>
#include <span>
#include <vector>

namespace hpart::balance {

// Greedy knapsack placement on the prefix sum: cut j goes to the item boundary whose prefix
// weight is nearest to the ideal cumulative target of parts 0..j-1 (ties: the lower boundary),
// among the boundaries that leave every part an item where n >= K. Where no cut has to move
// for that, each part is thus within the largest item weight of its target. Where one does
// (an item heavier than a part's target, or few items per part), the later cuts aim at the
// weight left in proportion to the targets left instead. O(n + K log n).
std::vector<std::int64_t> chains_greedy(std::span<const double> weights, int parts,
                                        std::span<const double> targets = {});

// Bottleneck-optimal chains partition (cf. Pinar & Aykanat 2004): minimises the largest
// part weight / target over all partitions into consecutive parts, with no part empty where
// n >= K. With equal targets that is also the optimum over partitions with empty parts; with
// unequal ones an empty part of a small target could be cheaper, and is not taken. Among the
// optimal partitions the cuts are placed as near the ideal cumulative targets as the optimum
// allows, so that parts stay even where the bottleneck does not bind (and the last parts are
// not starved); once the optimum moves a cut off its ideal, the later cuts aim at the weight
// left in proportion to the targets left.
// The optimum is exact, not within a tolerance: the objective is max_j (prefix[b_j] -
// prefix[a_j]) / share_j on the prefix sums as computed (share_j = target_j / sum of targets;
// with equal targets simply the heaviest part, in the weights' own type). O(n) to set up,
// then about O(K log n) per probe and at most 64 probes; where unequal targets make the
// non-empty optimum the greater, up to 64 more, each also visiting the items too heavy to
// form some part on their own.
std::vector<std::int64_t> chains_optimal(std::span<const double> weights, int parts,
                                         std::span<const double> targets = {});

// Same on integer weights (exact sums): what the distributed SFC search uses.
std::vector<std::int64_t> chains_optimal(std::span<const std::int64_t> weights, int parts,
                                         std::span<const double> targets = {});

// max_j weight(part j) / (total * target_j) - 1 of a cut vector: the imbalance it achieves
// (0 when the total weight is 0). cuts must be non-decreasing from 0 to n; K = cuts.size() - 1.
double chains_imbalance(std::span<const double> weights, std::span<const std::int64_t> cuts,
                        std::span<const double> targets = {});

}  // namespace hpart::balance
