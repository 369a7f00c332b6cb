#include "migration/block_exchange.hpp"

#include <mpi.h>

#include <cstring>
#include <vector>

namespace hpart::detail {
namespace {

// A tag of its own, so that sparse moves do not match a caller's messages of the usual small
// tags on the same communicator.
constexpr int kMigrationTag = 0x4d49;  // "MI"

// Counts are int: blocks travel as one derived datatype of `unit` bytes, so the int limit
// applies to blocks per rank pair, not bytes.
MPI_Datatype block_type(std::size_t unit) {
  MPI_Datatype t;
  MPI_Type_contiguous(static_cast<int>(unit), MPI_BYTE, &t);
  MPI_Type_commit(&t);
  return t;
}

}  // namespace

void exchange_blocks(const Comm& comm, bool sparse, const void* send, void* recv, std::size_t unit,
                     const BlockLayout& l) {
  MPI_Datatype t = block_type(unit);
  if (!sparse) {
    MPI_Alltoallv(send, l.send_counts.data(), l.send_displs.data(), t, recv, l.recv_counts.data(),
                  l.recv_displs.data(), t, comm.get());
    MPI_Type_free(&t);
    return;
  }
  const auto* src = static_cast<const unsigned char*>(send);
  auto* dst = static_cast<unsigned char*>(recv);
  const auto at = [unit](int displ) { return static_cast<std::size_t>(displ) * unit; };
  std::vector<MPI_Request> requests;
  const int me = comm.rank();
  for (int q = 0; q < comm.size(); ++q) {
    const auto u = static_cast<std::size_t>(q);
    if (q != me && l.recv_counts[u] > 0) {
      requests.emplace_back();
      MPI_Irecv(dst + at(l.recv_displs[u]), l.recv_counts[u], t, q, kMigrationTag, comm.get(), &requests.back());
    }
  }
  for (int q = 0; q < comm.size(); ++q) {
    const auto u = static_cast<std::size_t>(q);
    if (q != me && l.send_counts[u] > 0) {
      requests.emplace_back();
      MPI_Isend(src + at(l.send_displs[u]), l.send_counts[u], t, q, kMigrationTag, comm.get(), &requests.back());
    }
  }
  const auto self = static_cast<std::size_t>(me);
  if (l.send_counts[self] > 0)
    std::memcpy(dst + at(l.recv_displs[self]), src + at(l.send_displs[self]), at(l.send_counts[self]));
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  MPI_Type_free(&t);
}

}  // namespace hpart::detail
