#pragma once
// Point and box assign (cf. Zoltan's LB_Point_Assign / LB_Box_Assign): a PartitionMap is a
// compact descriptor of a partition, O(K) memory and identical on every rank, that answers
// "which part (and which rank) owns this coordinate" and "which parts meet this box" with no
// communication. Build it once, collectively, from a partition (map_of); query it anywhere
// (const and thread-safe); save it as text and load it elsewhere (a restart, another code).
//
//   const hpart::Partition p = hpart::partition_points(comm, pts, opts);
//   const hpart::PartitionMap map = hpart::map_of(comm, pts, opts, p);
//   int r = map.rank_of(std::array{x, y, z});          // any coordinate, no communication
//   std::vector<hpart::part_t> near = map.parts_in_box(lo, hi);
//
// Point maps hold the curve (Hilbert or Morton), the global bounding box the keys were computed
// in, and one splitter per curve range: the (key, id) of its first object and the part it
// belongs to. Coordinates outside that box are clamped to it (the curve's natural extension),
// so every coordinate gets a part. Ties: the partitioner breaks equal keys by global id, so a
// point whose key equals a splitter's may belong to either side. part_of(x, id) resolves it
// exactly (for every point the partition saw, located part == assigned part); part_of(x)
// without an id is exact where x's key is not shared across a cut (at a tied cut: the later
// part), and parts_at(x) lists every part that may hold x's key.
// Grid maps answer for cells (and coordinates in cell units); hierarchical point maps nest a
// node-level curve and one rank-level curve per node. docs/assign.md has the details and the
// saved format.
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hpart/box.hpp"
#include "hpart/comm.hpp"
#include "hpart/grid.hpp"
#include "hpart/hierarchy.hpp"
#include "hpart/partition.hpp"
#include "hpart/point_set.hpp"
#include "hpart/points.hpp"
#include "hpart/types.hpp"

namespace hpart {

namespace detail {
struct MapData;  // the descriptor's immutable content (src/assign/map_data.hpp)
}

enum class MapKind {
  points,               // curve ranges of one curve (partition_points, a fresh Rebalancer partition)
  grid,                 // a grid partition's locator (sfc ranges, cut tree or tensor blocks)
  hierarchical_points,  // node-level curve ranges, then each node's own curve ranges
};
const char* to_string(MapKind k);

class PartitionMap {
 public:
  PartitionMap() = default;  // empty: num_parts() == 0; queries throw hpart::Error

  [[nodiscard]] bool empty() const { return !data_; }
  [[nodiscard]] MapKind kind() const;
  [[nodiscard]] int dim() const;
  [[nodiscard]] int num_parts() const;
  [[nodiscard]] int num_ranks() const;  // ranks of the communicator the map was built on

  // Queries: no communication, const, thread-safe. A coordinate is dim() values (grids: cell
  // units, cell c spans [c, c + 1) per axis). Throws hpart::Error: invalid_argument for a wrong
  // length or an empty map, invalid_input for a NaN or infinite coordinate.
  [[nodiscard]] part_t part_of(std::span<const double> x) const;
  // Exact for the objects the partition saw: the id they had there (PointSet::ids, or when none
  // were given the rank-order index: rank r's i-th point is sum of counts of ranks < r, plus i).
  [[nodiscard]] part_t part_of(std::span<const double> x, gid_t id) const;
  // Every part a point at x may be in (several only where x's curve cell holds a tied splitter).
  [[nodiscard]] std::vector<part_t> parts_at(std::span<const double> x) const;
  [[nodiscard]] part_t part_of(const Cell& cell) const;  // grid maps only
  // The owner rank of a part: owner_of_part when the map was given one (hierarchical
  // partitions), else the library's default PartOwners{num_parts, num_ranks} (migration.hpp).
  [[nodiscard]] int rank_of_part(part_t p) const;
  [[nodiscard]] int rank_of(std::span<const double> x) const { return rank_of_part(part_of(x)); }

  // Batch: coords holds n * dim() values, parts n (ids: n, or empty as in part_of(x)).
  // OpenMP-parallel; throws like part_of (size_mismatch for lengths that disagree).
  void assign(std::span<const double> coords, std::span<part_t> parts) const;
  void assign(std::span<const double> coords, std::span<const gid_t> ids, std::span<part_t> parts) const;

  // Every part whose region meets the closed box [lo, hi] (dim() values each), ascending. Exact
  // at the curve's cell resolution (points) or exactly over cells (grids). Throws
  // invalid_argument for lo > hi on an axis or a wrong length.
  [[nodiscard]] std::vector<part_t> parts_in_box(std::span<const double> lo, std::span<const double> hi) const;
  [[nodiscard]] std::vector<part_t> parts_in_box(const Box& cells) const;  // grid maps only
  [[nodiscard]] std::vector<int> ranks_in_box(std::span<const double> lo, std::span<const double> hi) const;

  // The descriptor as versioned text (header "hpart-partition-map 1", hexadecimal floats and
  // integers, so no endianness or rounding question) and back. load validates everything and
  // throws hpart::Error (io) for bad, truncated or wrong-version input.
  [[nodiscard]] std::string save() const;
  static PartitionMap load(std::string_view text);
  void save_file(const std::string& path) const;
  static PartitionMap load_file(const std::string& path);

  explicit PartitionMap(std::shared_ptr<const detail::MapData> data) : data_(std::move(data)) {}
  [[nodiscard]] const detail::MapData& data() const;

 private:
  std::shared_ptr<const detail::MapData> data_;
};

// Collective, O(K) communication once: the map of a point partition whose parts are ranges of
// the opts.curve order of `points` (partition_points, relabelled or not; a fresh partition of the
// Rebalancer). points and opts.curve must be those the partition was made from. An incremental
// (diffusion) repartition is not a set of curve ranges: invalid_input, on every rank.
// owner_of_part: K ranks, or empty for the default owners. Throws the same hpart::Error on every
// rank for bad input or arguments that differ across ranks.
PartitionMap map_of(const Comm& comm, const PointSet& points, const PointOptions& opts, const Partition& partition,
                    std::span<const int> owner_of_part = {});
// Grids: from the partition's locator (any method), checked identical on every rank.
PartitionMap map_of(const Comm& comm, const Grid& grid, const GridPartition& partition,
                    std::span<const int> owner_of_part = {});
PartitionMap map_of(const Comm& comm, const Grid& grid, const HierGridPartition& partition);
// Hierarchical points: the node level in the global box, each node's parts in its points' box.
PartitionMap map_of(const Comm& comm, const PointSet& points, const HierPointOptions& opts,
                    const HierPartition& partition);

}  // namespace hpart
