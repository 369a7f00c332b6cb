#pragma once
// Checksums of a distributed result that do not depend on which rank holds which object: the sum
// (mod 2^64) over objects of a mixed hash of (global id, value). Any distribution of the same
// pairs gives the same checksum, so a partition that promises the same parts for every rank
// count shows the same checksum at every rank count, and a changed part anywhere changes it.
#include <cstdint>
#include <span>

#include "hpart/comm.hpp"
#include "hpart/types.hpp"

namespace hpart_scaling {

// splitmix64 of (id, value): one object's contribution.
std::uint64_t mix(std::uint64_t id, std::uint64_t value);

// Collective: the sum over ranks of `local` (wrapping).
std::uint64_t sum_over_ranks(const hpart::Comm& comm, std::uint64_t local);

// Collective: objects with explicit global ids, or ids first_id, first_id + 1, ... in local order.
std::uint64_t parts_checksum(const hpart::Comm& comm, std::span<const hpart::gid_t> ids,
                             std::span<const hpart::part_t> parts);
std::uint64_t parts_checksum(const hpart::Comm& comm, hpart::gid_t first_id, std::span<const hpart::part_t> parts);

}  // namespace hpart_scaling
