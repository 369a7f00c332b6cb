#pragma once
// The memory one rank may use for a call, checked before a call allocates what its sizes (N, K,
// the rank count, a file's declared shape) imply, so that a request that cannot be served is an
// hpart::Error naming what to change, on every rank, instead of a std::bad_alloc abort on some.
#include <cstdint>
#include <string>

namespace hpart::detail {

// Bytes per rank: HPART_MEMORY_LIMIT when set (bytes, or with a K/M/G/T suffix), else the node's
// available memory (MemAvailable, bounded by the cgroup's limit) divided among the ranks the
// launcher placed on this node (OMPI_COMM_WORLD_LOCAL_SIZE, MPI_LOCALNRANKS, SLURM_NTASKS_PER_NODE).
std::uint64_t memory_budget_bytes();

// A local verdict: empty when `bytes` (an estimate, as a double so that it cannot wrap) fit the
// budget, else "<what> needs 24 GiB on this rank, more than the 5.7 GiB it may use: <advice>".
std::string check_memory(double bytes, const std::string& what, const std::string& advice);

// "1.5 GiB", "320 MiB", "12 KiB", "100 bytes".
std::string format_bytes(double bytes);

}  // namespace hpart::detail
