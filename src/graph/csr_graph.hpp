#pragma once
// A graph held whole by one process (a rank's coarse graph, a gathered graph, a unit test's
// input): compressed sparse rows with 0-based local ids. Pure: no MPI. The multilevel kernels
// work on this; the distributed driver builds it.
#include <cstdint>
#include <vector>

#include "core/huge_pages.hpp"

namespace hpart::graphk {

struct CsrGraph {
  // Huge-page storage (see huge_pages.hpp): the distributed driver builds one per level.
  HugeVector<std::int64_t> xadj{0};  // n + 1 offsets
  HugeVector<std::int32_t> adjncy;   // neighbours, 0-based, symmetric, no self-loops
  HugeVector<std::int64_t> vwgt;     // n * ncon vertex weights (>= 0), vertex-major; empty: unit
  HugeVector<std::int64_t> adjwgt;   // one per adjncy entry (> 0); empty: unit
  // Or the same in 32 bits (a distributed coarse level whose graph's edge weights sum below
  // 2^31: see GraphView::adjwgt32); at most one of the two is set.
  HugeVector<std::int32_t> adjwgt32;
  int ncon = 1;

  [[nodiscard]] std::int32_t vertices() const { return static_cast<std::int32_t>(xadj.size() - 1); }
  [[nodiscard]] std::int64_t weight(std::int32_t v, int c = 0) const {
    return vwgt[static_cast<std::size_t>(v) * static_cast<std::size_t>(ncon) + static_cast<std::size_t>(c)];
  }
  [[nodiscard]] bool unit_edges() const { return adjwgt.empty() && adjwgt32.empty(); }
  [[nodiscard]] std::int64_t ewgt(std::size_t e) const {
    if (!adjwgt32.empty()) return adjwgt32[e];
    return adjwgt.empty() ? 1 : adjwgt[e];
  }
};

}  // namespace hpart::graphk
