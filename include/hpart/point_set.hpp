#pragma once
// A distributed point set, borrowed: each rank passes spans over its own objects; hpart reads
// them during the call and keeps no pointer afterwards.
#include <cstddef>
#include <span>

#include "hpart/int_span.hpp"
#include "hpart/types.hpp"

namespace hpart {

struct PointSet {
  // Interleaved coordinates: x0 y0 [z0] x1 y1 [z1] ...; size = n * dim.
  std::span<const double> coords;
  int dim = 3;  // 2 or 3
  // Optional object weights, ncon per object interleaved (w0[0..ncon) w1[0..ncon) ...).
  // Empty means unit weights. The first weight is balanced; all are reported.
  std::span<const double> weights;
  int ncon = 1;
  // Optional global ids (non-negative, unique). Empty means: ids are assigned in rank order,
  // rank r's objects numbered after those of ranks < r. Ids break ties between equal keys,
  // which makes the partition independent of how the input is spread over ranks.
  IntSpan ids;  // at 32 or 64 bits, read in place

  [[nodiscard]] std::size_t size() const { return dim > 0 ? coords.size() / static_cast<std::size_t>(dim) : 0; }
};

}  // namespace hpart
