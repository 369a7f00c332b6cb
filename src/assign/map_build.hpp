#pragma once
// The collective pieces that build point maps (point_map.cpp), shared with the hierarchical map.
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "assign/map_data.hpp"
#include "core/agreement.hpp"
#include "hpart/comm.hpp"

namespace hpart::detail {

// Collective: the curve level of a labelled point set (labels in [0, L), one per point; ids the
// partition's global ids). Throws invalid_input on every rank when two labels' ranges
// interleave along the curve (`what` names the labels in the message: "parts", "nodes").
CurveLevel curve_level(const Comm& comm, const PointSet& points, std::span<const gid_t> ids, Curve curve,
                       std::span<const int> labels, int L, const char* what);

// Collective: the ids the partition broke ties with (the caller's, or the rank-order numbering).
std::vector<gid_t> global_ids(const Comm& comm, const PointSet& points);

// Local checks of a point partition and its owners; lists what every rank must pass alike.
std::string check_point_partition(const Comm& comm, const PointSet& points, const Partition& p,
                                  std::span<const int> owners, Replicated& args);
std::string check_owners(const Comm& comm, std::span<const int> owners, int parts);

// Collective: agrees on `problem` (this rank's verdict, "" when fine: invalid_input) and on `args`
// (invalid_argument naming the first that differs), the same error on every rank; then a new
// map's common fields.
std::shared_ptr<MapData> agreed_map(const Comm& comm, const Replicated& args, const std::string& problem, MapKind kind,
                                    int dim, int parts, std::span<const int> owners);

}  // namespace hpart::detail
