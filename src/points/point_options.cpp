// Names of the curves, and the point presets.
#include <string>

#include "hpart/error.hpp"
#include "hpart/points.hpp"

namespace hpart {

const char* to_string(Curve c) {
  switch (c) {
    case Curve::hilbert: return "hilbert";
    case Curve::morton: return "morton";
  }
  return "unknown";
}

Curve curve_from_string(const char* name) {
  const std::string s = name ? name : "";
  if (s == "hilbert") return Curve::hilbert;
  if (s == "morton") return Curve::morton;
  throw Error(ErrorCode::invalid_argument, "unknown curve '" + s + "': choose hilbert or morton");
}

PointOptions PointOptions::preset(Preset p, int parts) {
  PointOptions o;
  o.parts = parts;
  if (p == Preset::fast) o.curve = Curve::morton, o.imbalance = 0.01;
  if (p == Preset::strong) o.imbalance = 0.0001;
  return o;
}

}  // namespace hpart
