#pragma once
// Integer types shared by every hpart interface.
#include <cstdint>

namespace hpart {

using gid_t = std::int64_t;   // global object id; 64-bit so ids never wrap on large runs
using part_t = std::int32_t;  // part id in [0, K)

}  // namespace hpart
