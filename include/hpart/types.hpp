#pragma once
// Integer types shared by every hpart interface.
#include <cstdint>

namespace hpart {

using gid_t = std::int64_t;   // global object id; 64-bit so ids never wrap on large runs
using part_t = std::int32_t;  // part id in [0, K)

// Named option sets, the same three for every kind of object (PointOptions::preset,
// GridOptions::preset, ...): fast trades quality for time, standard is each kind's defaults,
// strong spends time on quality. Where a kind has nothing to trade, two presets coincide
// (said at each kind's preset()).
enum class Preset { fast, standard, strong };
const char* to_string(Preset p);
Preset preset_from_string(const char* name);  // "fast", "standard" (or "default"), "strong"

}  // namespace hpart
