#pragma once
// One all-to-all of blocks of `unit` bytes, dense (MPI_Alltoallv) or sparse (Isend/Irecv only
// where a count is nonzero): the one transport of every Migration move.
#include <cstddef>
#include <span>

#include "hpart/comm.hpp"

namespace hpart::detail {

// Counts and displacements per rank, in units, as MPI_Alltoallv takes them.
struct BlockLayout {
  std::span<const int> send_counts, send_displs, recv_counts, recv_displs;
};

// Collective. Every rank must pass the same `sparse`.
void exchange_blocks(const Comm& comm, bool sparse, const void* send, void* recv, std::size_t unit,
                     const BlockLayout& layout);

}  // namespace hpart::detail
