#pragma once
// What a PartitionMap holds: for points, curve levels (the box and curve the keys were computed
// in, and the first order value and label of each curve range); for grids, the partition's
// locator and the grid's extent. Immutable once built; every query is a const read.
#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "grid/grid_locator.hpp"
#include "hpart/assign.hpp"
#include "kernels/bounding_box.hpp"
#include "points/curve_objects.hpp"

namespace hpart::detail {

// One curve cut into ranges: range r holds the order values v = (key, id) with
// starts[r] <= v < starts[r + 1] (starts[0] = (0, 0), the last range open-ended) and carries
// labels[r] (a part; a node at a hierarchy's node level).
struct CurveLevel {
  int dim = 3;
  Curve curve = Curve::hilbert;
  geometry::BoundingBox box;
  std::vector<std::uint64_t> start_keys;  // ascending with start_ids as (key, id) pairs
  std::vector<gid_t> start_ids;
  std::vector<int> labels;

  // The grid the keys live on and a first-level index of the ranges, both set by finish() (the
  // mapper's constructor wants the box). Per bucket of keys (their top bits), the first and last
  // range that may hold them: most buckets hold one range, so most lookups need no search.
  geometry::CellMapper cells{geometry::BoundingBox{}, 3, 1};
  int bits = 21;  // cells per axis: 2^bits
  int bucket_shift = 63;
  std::vector<std::int32_t> bucket_lo, bucket_hi;

  void finish();  // derive cells and bits after the fields above are set
  [[nodiscard]] std::uint64_t key_of_cell(const std::array<std::uint32_t, 3>& c) const;
  [[nodiscard]] std::uint64_t key(const double* x) const {
    std::array<std::uint32_t, 3> c{0, 0, 0};
    for (int a = 0; a < dim; ++a) c[static_cast<std::size_t>(a)] = cells.cell(x[a], a);
    return key_of_cell(c);
  }
  // The range that holds (key, id): the bucket's, or a search between its first and last.
  [[nodiscard]] int range_of(std::uint64_t key, gid_t id) const;
  [[nodiscard]] int search(std::uint64_t key, gid_t id, int lo, int hi) const;
  // Marks hit[r] for every range r that meets the box [lo, hi] (dim values each, clamped to the
  // curve's cells like any coordinate); hit has one entry per range.
  void ranges_in_box(const double* lo, const double* hi, std::vector<char>& hit) const;
};

struct MapData {
  MapKind kind = MapKind::points;
  int dim = 3;
  int parts = 1;
  int ranks = 1;
  std::vector<int> owners;  // per part; empty: PartOwners{parts, ranks}

  CurveLevel top;                  // points: labels are parts; hierarchical: labels are nodes
  std::vector<CurveLevel> nodes;   // hierarchical: per node, labels are (global) parts

  std::array<std::int64_t, 3> extent{1, 1, 1};          // grid
  std::shared_ptr<const GridLocator> locator;            // grid; null: every cell in part 0

  [[nodiscard]] part_t locate(const double* x, gid_t id) const;  // points and hierarchical
};

}  // namespace hpart::detail
