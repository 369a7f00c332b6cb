// PartitionMap's queries: local, const, no communication. Point maps look up curve ranges;
// grid maps ask the partition's locator (grid_map.cpp).
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include "assign/grid_map.hpp"
#include "assign/map_data.hpp"
#include "kernels/enum_names.hpp"

namespace hpart {
namespace {

constexpr detail::EnumNames<MapKind, 3> kKinds{{{MapKind::points, "points"},
                                                 {MapKind::grid, "grid"},
                                                 {MapKind::hierarchical_points, "hierarchical_points"}}};

[[noreturn]] void fail(ErrorCode code, const std::string& what) { throw Error(code, "hpart::PartitionMap: " + what); }

void check_coordinate(const detail::MapData& d, std::span<const double> x, const char* name) {
  if (x.size() != static_cast<std::size_t>(d.dim))
    fail(ErrorCode::invalid_argument, std::string(name) + " has " + std::to_string(x.size()) + " values; the map is " +
                                          std::to_string(d.dim) + "-dimensional");
  for (std::size_t a = 0; a < x.size(); ++a)
    if (!std::isfinite(x[a]))
      fail(ErrorCode::invalid_input, std::string(name) + "[" + std::to_string(a) + "] = " + std::to_string(x[a]) +
                                         ": coordinates must be finite");
}

// The parts of the ranges marked in hit (one level's labels).
void mark_labels(const detail::CurveLevel& level, const std::vector<char>& hit, std::vector<char>& parts) {
  for (std::size_t r = 0; r < hit.size(); ++r)
    if (hit[r]) parts[static_cast<std::size_t>(level.labels[r])] = 1;
}

std::vector<part_t> listed(const std::vector<char>& parts) {
  std::vector<part_t> out;
  for (std::size_t p = 0; p < parts.size(); ++p)
    if (parts[p]) out.push_back(static_cast<part_t>(p));
  return out;
}

// One point, no checks: the hot path of part_of and assign.
part_t locate(const detail::MapData& d, const double* x, gid_t id) {
  return d.kind == MapKind::grid ? detail::grid_part_of(d, x) : d.locate(x, id);
}

}  // namespace

const char* to_string(MapKind k) { return detail::enum_name(kKinds, k); }

const detail::MapData& PartitionMap::data() const {
  if (!data_) fail(ErrorCode::invalid_argument, "the map is empty (default-constructed): build it with map_of or load");
  return *data_;
}

MapKind PartitionMap::kind() const { return data().kind; }
int PartitionMap::dim() const { return data().dim; }
int PartitionMap::num_parts() const { return data_ ? data_->parts : 0; }
int PartitionMap::num_ranks() const { return data().ranks; }

part_t PartitionMap::part_of(std::span<const double> x) const {
  check_coordinate(data(), x, "x");
  // No id: the last range whose first object's key is <= x's key, as if x had the largest id.
  // Exact wherever x's key is not shared across a cut (unique keys), so the first object of a
  // range is located in its own part; at a tied cut, the later part (parts_at lists both).
  return locate(*data_, x.data(), std::numeric_limits<gid_t>::max());
}

part_t PartitionMap::part_of(std::span<const double> x, gid_t id) const {
  check_coordinate(data(), x, "x");
  if (id < 0) fail(ErrorCode::invalid_argument, "id " + std::to_string(id) + " is negative");
  return locate(*data_, x.data(), id);
}

std::vector<part_t> PartitionMap::parts_at(std::span<const double> x) const {
  const detail::MapData& d = data();
  check_coordinate(d, x, "x");
  if (d.kind == MapKind::grid) return {detail::grid_part_of(d, x.data())};
  std::vector<char> parts(static_cast<std::size_t>(d.parts), 0);
  constexpr gid_t kLast = std::numeric_limits<gid_t>::max();
  const std::uint64_t key = d.top.key(x.data());
  for (int r = d.top.range_of(key, 0); r <= d.top.range_of(key, kLast); ++r) {
    const int label = d.top.labels[static_cast<std::size_t>(r)];
    if (d.kind == MapKind::points) {
      parts[static_cast<std::size_t>(label)] = 1;
      continue;
    }
    const detail::CurveLevel& node = d.nodes[static_cast<std::size_t>(label)];
    const std::uint64_t k = node.key(x.data());
    for (int q = node.range_of(k, 0); q <= node.range_of(k, kLast); ++q)
      parts[static_cast<std::size_t>(node.labels[static_cast<std::size_t>(q)])] = 1;
  }
  return listed(parts);
}

part_t PartitionMap::part_of(const Cell& cell) const {
  const detail::MapData& d = data();
  if (d.kind != MapKind::grid) fail(ErrorCode::invalid_argument, "part_of(Cell) needs a grid map; this one is " + std::string(to_string(d.kind)));
  return detail::grid_part_of_cell(d, cell);
}

int PartitionMap::rank_of_part(part_t p) const {
  const detail::MapData& d = data();
  if (p < 0 || p >= d.parts)
    fail(ErrorCode::invalid_argument, "part " + std::to_string(p) + " is outside [0, " + std::to_string(d.parts) + ")");
  if (!d.owners.empty()) return d.owners[static_cast<std::size_t>(p)];
  return static_cast<int>((static_cast<long long>(p) * d.ranks) / d.parts);  // PartOwners' rule (migration.hpp)
}

void PartitionMap::assign(std::span<const double> coords, std::span<part_t> parts) const {
  assign(coords, {}, parts);
}

void PartitionMap::assign(std::span<const double> coords, std::span<const gid_t> ids, std::span<part_t> parts) const {
  const detail::MapData& d = data();
  const auto dim = static_cast<std::size_t>(d.dim);
  if (coords.size() != parts.size() * dim || (!ids.empty() && ids.size() != parts.size()))
    fail(ErrorCode::size_mismatch, std::to_string(coords.size()) + " coordinates, " + std::to_string(ids.size()) +
                                       " ids and " + std::to_string(parts.size()) + " parts: expected " +
                                       std::to_string(d.dim) + " coordinates per part and one id per part or none");
  const auto n = static_cast<std::ptrdiff_t>(parts.size());
  constexpr std::uint64_t kExp = 0x7ff0000000000000ULL;  // all exponent bits set: inf or NaN
  std::uint64_t bad = 0;
  gid_t bad_id = 0;
#pragma omp parallel for schedule(static) reduction(| : bad) reduction(min : bad_id)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const double* x = coords.data() + static_cast<std::size_t>(i) * dim;
    for (std::size_t a = 0; a < dim; ++a) bad |= (std::bit_cast<std::uint64_t>(x[a]) & kExp) == kExp;
    const gid_t id = ids.empty() ? std::numeric_limits<gid_t>::max() : ids[static_cast<std::size_t>(i)];
    bad_id = std::min(bad_id, id);
    parts[static_cast<std::size_t>(i)] = locate(d, x, std::max<gid_t>(id, 0));
  }
  if (bad) {
    for (std::size_t i = 0; i < coords.size(); ++i)
      if (!std::isfinite(coords[i]))
        fail(ErrorCode::invalid_input, "coordinate " + std::to_string(i % dim) + " of point " + std::to_string(i / dim) +
                                           " is " + std::to_string(coords[i]) + ": coordinates must be finite");
  }
  if (bad_id < 0) fail(ErrorCode::invalid_argument, "ids must be >= 0 (got " + std::to_string(bad_id) + ")");
}

std::vector<part_t> PartitionMap::parts_in_box(std::span<const double> lo, std::span<const double> hi) const {
  const detail::MapData& d = data();
  check_coordinate(d, lo, "lo");
  check_coordinate(d, hi, "hi");
  for (int a = 0; a < d.dim; ++a)
    if (lo[static_cast<std::size_t>(a)] > hi[static_cast<std::size_t>(a)])
      fail(ErrorCode::invalid_argument, "box lo[" + std::to_string(a) + "] = " + std::to_string(lo[static_cast<std::size_t>(a)]) +
                                            " > hi[" + std::to_string(a) + "] = " + std::to_string(hi[static_cast<std::size_t>(a)]));
  if (d.kind == MapKind::grid) return parts_in_box(detail::grid_cell_box(d, lo.data(), hi.data()));
  std::vector<char> parts(static_cast<std::size_t>(d.parts), 0);
  std::vector<char> hit(d.top.labels.size(), 0);
  d.top.ranges_in_box(lo.data(), hi.data(), hit);
  if (d.kind == MapKind::points) {
    mark_labels(d.top, hit, parts);
    return listed(parts);
  }
  // Hierarchical: every node the box meets, then that node's ranges in the same box (clamped
  // to the node's own box, so a part near the node's edge may be listed without meeting it).
  std::vector<char> nodes(d.nodes.size(), 0);
  mark_labels(d.top, hit, nodes);
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    if (!nodes[n]) continue;
    std::vector<char> inner(d.nodes[n].labels.size(), 0);
    d.nodes[n].ranges_in_box(lo.data(), hi.data(), inner);
    mark_labels(d.nodes[n], inner, parts);
  }
  return listed(parts);
}

std::vector<part_t> PartitionMap::parts_in_box(const Box& cells) const {
  const detail::MapData& d = data();
  if (d.kind != MapKind::grid)
    fail(ErrorCode::invalid_argument, "parts_in_box(Box) needs a grid map; this one is " + std::string(to_string(d.kind)));
  if (cells.dim != d.dim || cells.order != AxisOrder::x_fastest)
    fail(ErrorCode::invalid_argument, "the box has " + std::to_string(cells.dim) + " axes (x fastest expected); the grid " +
                                          std::to_string(d.dim));
  std::vector<char> parts(static_cast<std::size_t>(d.parts), 0);
  detail::grid_parts_in_box(d, cells, parts);
  return listed(parts);
}

std::vector<int> PartitionMap::ranks_in_box(std::span<const double> lo, std::span<const double> hi) const {
  std::vector<int> ranks;
  for (part_t p : parts_in_box(lo, hi)) ranks.push_back(rank_of_part(p));
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  return ranks;
}

}  // namespace hpart
