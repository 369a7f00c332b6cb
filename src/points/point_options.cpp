// Names of the curves, and the point presets.
#include "hpart/points.hpp"
#include "kernels/enum_names.hpp"

namespace hpart {

constexpr detail::EnumNames<Curve, 2> kCurves{{{Curve::hilbert, "hilbert"}, {Curve::morton, "morton"}}};

const char* to_string(Curve c) { return detail::enum_name(kCurves, c); }

Curve curve_from_string(const char* name) { return detail::enum_from_name(kCurves, name, "curve"); }

PointOptions PointOptions::preset(Preset p, int parts) {
  PointOptions o;
  o.parts = parts;
  if (p == Preset::fast) o.curve = Curve::morton, o.imbalance = 0.01;
  if (p == Preset::strong) o.imbalance = 0.0001;
  return o;
}

}  // namespace hpart
