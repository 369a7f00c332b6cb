// map_of for point partitions: the curve ranges of a partition, found from its objects in O(K)
// communication. The keys are recomputed exactly as partition_points computed them (the same
// global box, CellMapper and key kernels); each part's first and last order value (key, then
// global id, the partition's tie-break) over all ranks gives its range, and the ranges of
// different parts must not interleave.
#include <algorithm>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "assign/map_build.hpp"
#include "core/agreement.hpp"
#include "core/validate.hpp"
#include "kernels/sfc_keys.hpp"
#include "metrics/part_ids.hpp"
#include "points/global_extent.hpp"

namespace hpart::detail {
namespace {

struct LabelRange {
  std::uint64_t kmin = 0, kmax = 0;
  gid_t idmin = 0, idmax = 0;
  long long count = 0;
};

// Collective: per label, its smallest and largest (key, id) over all ranks (three allreduces of
// O(labels)). Largest values travel negated so that one MIN does both. Keys travel as signed
// values with the top bit flipped (order-preserving): MPI implementations differ on unsigned MIN.
std::vector<LabelRange> label_ranges(const Comm& comm, std::span<const std::uint64_t> keys, std::span<const gid_t> ids,
                                     std::span<const int> labels, int L) {
  const auto nl = static_cast<std::size_t>(L);
  constexpr std::uint64_t kFlip = std::uint64_t{1} << 63;
  const auto enc = [](std::uint64_t key) { return static_cast<long>(key ^ kFlip); };
  const auto dec = [](long v) { return static_cast<std::uint64_t>(v) ^ kFlip; };
  constexpr long kNone = std::numeric_limits<long>::max();
  std::vector<long> k(2 * nl, kNone);
  std::vector<long long> count(nl, 0);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto l = static_cast<std::size_t>(labels[i]);
    k[l] = std::min(k[l], enc(keys[i]));
    k[nl + l] = std::min(k[nl + l], enc(~keys[i]));  // ~key reverses the key order
    ++count[l];
  }
  comm.min(std::span<long>(k));
  comm.sum(std::span<long long>(count));
  std::vector<long> id(2 * nl, kNone);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto l = static_cast<std::size_t>(labels[i]);
    if (enc(keys[i]) == k[l]) id[l] = std::min<long>(id[l], ids[i]);
    if (enc(~keys[i]) == k[nl + l]) id[nl + l] = std::min<long>(id[nl + l], -ids[i]);
  }
  comm.min(std::span<long>(id));
  std::vector<LabelRange> out(nl);
  for (std::size_t l = 0; l < nl; ++l) out[l] = {dec(k[l]), ~dec(k[nl + l]), id[l], -id[nl + l], count[l]};
  return out;
}

}  // namespace

CurveLevel curve_level(const Comm& comm, const PointSet& points, std::span<const gid_t> ids, Curve curve,
                       std::span<const int> labels, int L, const char* what) {
  CurveLevel level;
  level.dim = points.dim;
  level.curve = curve;
  level.box = sfc::global_extent(comm, scan_points(points)).box;
  std::vector<std::uint64_t> keys(points.size());
  geometry::compute_keys(points.coords, points.dim, level.box,
                         curve == Curve::morton ? geometry::Curve::morton : geometry::Curve::hilbert, keys);
  const std::vector<LabelRange> r = label_ranges(comm, keys, ids, labels, L);

  std::vector<int> order;
  for (int l = 0; l < L; ++l)
    if (r[static_cast<std::size_t>(l)].count > 0) order.push_back(l);
  const auto less = [](std::uint64_t ka, gid_t ia, std::uint64_t kb, gid_t ib) { return ka < kb || (ka == kb && ia < ib); };
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const LabelRange &x = r[static_cast<std::size_t>(a)], &y = r[static_cast<std::size_t>(b)];
    return less(x.kmin, x.idmin, y.kmin, y.idmin);
  });
  // Every rank holds the same reduced ranges, so every rank finds the same verdict.
  for (std::size_t j = 1; j < order.size(); ++j) {
    const LabelRange &a = r[static_cast<std::size_t>(order[j - 1])], &b = r[static_cast<std::size_t>(order[j])];
    if (!less(a.kmax, a.idmax, b.kmin, b.idmin))
      throw Error(ErrorCode::invalid_input,
                  std::string("hpart::map_of: ") + what + " " + std::to_string(order[j - 1]) + " and " +
                      std::to_string(order[j]) + " interleave along the " + to_string(curve) +
                      " curve: the partition is not a set of curve ranges (an incremental repartition moves single "
                      "objects); build the map from a fresh partition of these points with this curve");
  }
  if (order.empty()) order.push_back(0);  // no object anywhere: one range
  for (std::size_t j = 0; j < order.size(); ++j) {
    const LabelRange& x = r[static_cast<std::size_t>(order[j])];
    // The first range starts at the curve's origin, so a coordinate before every object has a part.
    level.start_keys.push_back(j == 0 ? 0 : x.kmin);
    level.start_ids.push_back(j == 0 ? 0 : x.idmin);
    level.labels.push_back(order[j]);
  }
  level.finish();
  return level;
}

std::vector<gid_t> global_ids(const Comm& comm, const PointSet& points) {
  const int given = comm.max(points.ids.empty() ? 0 : 1);
  if (given) return points.ids.to_vector();
  std::vector<gid_t> ids(points.size());
  std::iota(ids.begin(), ids.end(), static_cast<gid_t>(comm.exscan_sum(static_cast<long long>(points.size()))));
  return ids;
}

std::string check_point_partition(const Comm& comm, const PointSet& points, const Partition& p,
                                  std::span<const int> owners, Replicated& args) {
  std::string problem = check_point_shape(points);
  if (problem.empty()) problem = check_points(points);
  if (problem.empty() && p.num_parts < 1) problem = "the partition has " + std::to_string(p.num_parts) + " parts";
  if (problem.empty() && p.parts.size() != points.size())
    problem = "the partition has " + std::to_string(p.parts.size()) + " parts for " + std::to_string(points.size()) +
              " local points: pass the partition of these points";
  if (problem.empty()) problem = check_part_ids(p.parts, p.num_parts);
  if (problem.empty()) problem = check_owners(comm, owners, p.num_parts);
  replicate_point_shape(args, points);
  args.value("num_parts", static_cast<long long>(p.num_parts)).values("owner_of_part", owners);
  return problem;
}

std::string check_owners(const Comm& comm, std::span<const int> owners, int parts) {
  if (owners.empty()) return {};
  if (owners.size() != static_cast<std::size_t>(parts))
    return "owner_of_part has " + std::to_string(owners.size()) + " values for " + std::to_string(parts) + " parts";
  for (std::size_t p = 0; p < owners.size(); ++p)
    if (owners[p] < 0 || owners[p] >= comm.size())
      return "owner_of_part[" + std::to_string(p) + "] = " + std::to_string(owners[p]) + " is not a rank of the " +
             std::to_string(comm.size()) + "-rank communicator";
  return {};
}

std::shared_ptr<MapData> agreed_map(const Comm& comm, const Replicated& args, const std::string& problem, MapKind kind,
                                    int dim, int parts, std::span<const int> owners) {
  agree(comm, args, problem.empty() ? ErrorCode::ok : ErrorCode::invalid_input,
        problem.empty() ? problem : "hpart::map_of: " + problem);
  auto data = std::make_shared<MapData>();
  data->kind = kind;
  data->dim = dim;
  data->parts = parts;
  data->ranks = comm.size();
  data->owners.assign(owners.begin(), owners.end());
  return data;
}

}  // namespace hpart::detail

namespace hpart {

PartitionMap map_of(const Comm& comm, const PointSet& points, const PointOptions& opts, const Partition& partition,
                    std::span<const int> owner_of_part) {
  detail::Replicated args;
  args.value("curve", static_cast<long long>(opts.curve));
  const std::string problem = detail::check_point_partition(comm, points, partition, owner_of_part, args);
  auto data = detail::agreed_map(comm, args, problem, MapKind::points, points.dim, partition.num_parts, owner_of_part);
  const std::vector<gid_t> ids = detail::global_ids(comm, points);
  const std::vector<int> labels(partition.parts.begin(), partition.parts.end());
  data->top = detail::curve_level(comm, points, ids, opts.curve, labels, partition.num_parts, "parts");
  return PartitionMap(std::move(data));
}

}  // namespace hpart
