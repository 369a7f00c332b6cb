#pragma once
// The one range check of part ids: every caller that takes a part per object (evaluate_partition,
// the graph calls through check_vertex_parts, Migration, the multilevel kernel's refine_partition,
// the Rebalancer, the patch and PNG entry points) finds the first bad id here, and words the
// message for its own objects (the tests compare the messages).
#include <cstddef>
#include <span>
#include <string>

#include "hpart/types.hpp"

namespace hpart::detail {

// The local index of the first part id outside [0, parts), or ids.size() when there is none.
std::size_t first_bad_part(std::span<const part_t> ids, int parts);

// The same as a message naming the local object ("part 7 of local object 3 is outside [0, 4)"),
// or an empty string when every id is in range.
std::string check_part_ids(std::span<const part_t> ids, int parts);

}  // namespace hpart::detail
