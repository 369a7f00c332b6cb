#pragma once
// Partitioning options: a plain struct with defaults, plus named presets.
#include <span>

namespace hpart {

enum class Method {
  hilbert,  // Hilbert-curve order: the best locality of the curves; the default
  morton,   // Morton (Z) order: cheaper keys, somewhat larger part boundaries
};

struct Options {
  int parts = 1;            // K >= 1, independent of the number of ranks; K > N gives empty parts
  Method method = Method::hilbert;
  // Allowed imbalance of the first weight: max part weight / target - 1. The splitter search
  // refines until every cut is within half of it, or until a cut sits between two objects.
  double imbalance = 0.001;
  // Optional relative target size per part (K values, positive; normalised by hpart).
  // Empty means equal parts.
  std::span<const double> target_sizes;
};

// Named presets for the common cases.
namespace presets {
inline Options points(int parts) {
  Options o;
  o.parts = parts;
  return o;
}
inline Options fast(int parts) {
  Options o;
  o.parts = parts;
  o.method = Method::morton;
  o.imbalance = 0.01;
  return o;
}
}  // namespace presets

const char* to_string(Method m);
Method method_from_string(const char* name);  // throws hpart::Error for an unknown name

}  // namespace hpart
