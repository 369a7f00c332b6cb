// Names of the presets (types.hpp), shared by every kind's options and the command line.
#include "hpart/types.hpp"
#include "kernels/enum_names.hpp"

namespace hpart {

constexpr detail::EnumNames<Preset, 4> kPresets{{
    {Preset::fast, "fast"}, {Preset::standard, "standard"}, {Preset::strong, "strong"}, {Preset::standard, "default"}}};

const char* to_string(Preset p) { return detail::enum_name(kPresets, p); }

Preset preset_from_string(const char* name) { return detail::enum_from_name(kPresets, name, "preset"); }

}  // namespace hpart
