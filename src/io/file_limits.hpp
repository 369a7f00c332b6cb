#pragma once
// Bounds every graph file reader applies to a file's declared shape (MPI-free: the fuzzed line
// parsers include it).
#include "hpart/types.hpp"

namespace hpart::detail {

// The largest vertex or edge count a graph file may declare (every format): 2m and 1-based ids
// then never overflow 64 bits.
inline constexpr gid_t kMaxFileCount = gid_t{1} << 62;

}  // namespace hpart::detail
