// Names of the presets (types.hpp), shared by every kind's options and the command line.
#include <string>

#include "hpart/error.hpp"
#include "hpart/types.hpp"

namespace hpart {

const char* to_string(Preset p) {
  switch (p) {
    case Preset::fast: return "fast";
    case Preset::standard: return "standard";
    case Preset::strong: return "strong";
  }
  return "unknown";
}

Preset preset_from_string(const char* name) {
  const std::string s = name ? name : "";
  if (s == "fast") return Preset::fast;
  if (s == "standard" || s == "default") return Preset::standard;
  if (s == "strong") return Preset::strong;
  throw Error(ErrorCode::invalid_argument, "unknown preset '" + s + "': choose fast, standard or strong");
}

}  // namespace hpart
