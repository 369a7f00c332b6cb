#pragma once
// Box-to-box redistribution after a repartition: every rank sends the intersection of its old
// box with each new box to that box's rank, and builds its new field from the pieces. Heat is
// checked to be conserved (allreduce of the total and of an exact checksum before and after).
#include <cstdint>
#include <vector>

#include "heat_field.hpp"
#include "hpart/comm.hpp"

namespace hpart_heat {

struct Redistribution {
  HeatField field;             // this rank's new box, ghosts zero (the next exchange fills them)
  std::int64_t migrated = 0;   // cells that changed rank, over all ranks
};

// Collective. old_boxes[r] / new_boxes[r]: rank r's box before and after (every rank passes the
// same lists). Throws hpart::Error(internal) on every rank if heat was not conserved.
Redistribution redistribute(const hpart::Comm& comm, const HeatField& old, const std::vector<hpart::Box>& old_boxes,
                            const std::vector<hpart::Box>& new_boxes);

}  // namespace hpart_heat
