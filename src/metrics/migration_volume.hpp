#pragma once
// Migration volume, the one way every repartitioner counts what it moved: the objects whose part
// differs between `before` and `after` (same length) and their first weight (stride ncon; empty
// weights: unit). An empty `before` (no earlier partition) moved nothing.
#include <cstdint>
#include <span>

#include "hpart/comm.hpp"
#include "hpart/int_span.hpp"
#include "hpart/partition.hpp"
#include "hpart/types.hpp"

namespace hpart::detail {

// This rank's objects only (for lists every rank holds whole, e.g. a level's patches).
MigrationStats moved_here(std::span<const part_t> before, std::span<const part_t> after, std::span<const double> weights,
                          int ncon);

// Collective: summed over the ranks. Graph vertex weights are read in place (either width).
MigrationStats moved_everywhere(const Comm& comm, std::span<const part_t> before, std::span<const part_t> after,
                                std::span<const double> weights, int ncon);
MigrationStats moved_everywhere(const Comm& comm, std::span<const part_t> before, std::span<const part_t> after,
                                IntSpan weights, int ncon);

}  // namespace hpart::detail
