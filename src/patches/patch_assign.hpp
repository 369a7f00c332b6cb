#pragma once
// Assigning indivisible items with costs to K parts: the kernels behind partition_patches. Pure
// (no MPI). Items come in a canonical order (curve order of the patch centres), so that ties are
// broken the same way whatever the input distribution was.
#include <cstdint>
#include <span>
#include <vector>

#include "hpart/types.hpp"

namespace hpart::patches {

// Largest cost first, each onto the currently lightest part (ties: the lower item index, then
// the lower part id): the LPT rule, within 4/3 of the optimal bottleneck. Every part gets an item
// when there are at least K items.
std::vector<part_t> assign_knapsack(std::span<const double> cost, int parts);

// Consecutive chains of the items in the given order, bottleneck-optimal (balance::chains_optimal).
std::vector<part_t> assign_chains(std::span<const double> cost, int parts);

// Improves an assignment's bottleneck by moves and swaps between the heaviest part and the others:
// each step applies the single move (one item to another part) or swap (two items exchanged)
// whose pair of part loads ends lowest, provided that is below the current heaviest load. Stops
// when no step lowers it, or after max_steps. No part is emptied. Returns the steps taken.
// Also stops once the heaviest load is <= good_enough (each step trades some locality for
// balance, so a caller with a tolerance stops there).
int refine_by_swaps(std::span<const double> cost, std::vector<part_t>& parts, int num_parts, int max_steps,
                    double good_enough = 0.0);

// max part load / mean part load - 1 (0 when everything costs 0).
double assignment_imbalance(std::span<const double> cost, std::span<const part_t> parts, int num_parts);

}  // namespace hpart::patches
