#include "parts_checksum.hpp"

#include <mpi.h>

namespace hpart_scaling {

std::uint64_t mix(std::uint64_t id, std::uint64_t value) {
  std::uint64_t z = id * 0x9E3779B97F4A7C15ULL + (value + 1) * 0xD1B54A32D192ED03ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::uint64_t sum_over_ranks(const hpart::Comm& comm, std::uint64_t local) {
  std::uint64_t total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_UINT64_T, MPI_SUM, comm.get());
  return total;
}

std::uint64_t parts_checksum(const hpart::Comm& comm, std::span<const hpart::gid_t> ids,
                             std::span<const hpart::part_t> parts) {
  std::uint64_t s = 0;
  for (std::size_t i = 0; i < parts.size(); ++i)
    s += mix(static_cast<std::uint64_t>(ids[i]), static_cast<std::uint64_t>(parts[i]));
  return sum_over_ranks(comm, s);
}

std::uint64_t parts_checksum(const hpart::Comm& comm, hpart::gid_t first_id, std::span<const hpart::part_t> parts) {
  std::uint64_t s = 0;
  for (std::size_t i = 0; i < parts.size(); ++i)
    s += mix(static_cast<std::uint64_t>(first_id) + i, static_cast<std::uint64_t>(parts[i]));
  return sum_over_ranks(comm, s);
}

}  // namespace hpart_scaling
