#pragma once
// The one all-to-all exchange of records. Every exchange of the library goes the same way: each
// rank counts its records per destination, one MPI_Alltoall tells every rank what it receives
// from whom, the displacements are the exclusive sums of the counts, and one MPI_Alltoallv moves
// the records. It is written once here, so that the int limits of MPI_Alltoallv are checked in one
// place and the records of a block keep their order (grouped by source rank, in rank order).
#include <mpi.h>

#include <climits>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "hpart/comm.hpp"

namespace hpart::detail {

// MPI_*v displacements: the exclusive prefix sum of per-rank counts.
inline std::vector<int> exclusive_sum(std::span<const int> counts) {
  std::vector<int> displs(counts.size(), 0);
  for (std::size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
  return displs;
}

// Records per rank and their displacements, as MPI_Alltoallv takes them, and the totals. The
// totals are exact even past INT_MAX; the int counts are valid only when fits_int() holds, which
// callers agree on (with their own message) before they move anything.
struct ExchangeCounts {
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
  std::int64_t sent = 0, received = 0;
  [[nodiscard]] bool fits_int() const { return sent <= INT_MAX && received <= INT_MAX; }
};

// Collective: one MPI_Alltoall of the counts (records for each rank, in rank order), then the
// displacements of both sides.
ExchangeCounts exchange_counts(const Comm& comm, std::span<const std::int64_t> send_counts);

// One record as one MPI datatype, so that the int counts limit records, not bytes.
MPI_Datatype record_type(std::size_t bytes);
void free_record_type(MPI_Datatype type);

// Collective: one MPI_Alltoallv of records laid out by `c` (send grouped by destination, recv
// sized c.received). With `reverse`, the records go back the other way (send by the recv counts,
// receive by the send counts): the answers to requests exchanged with the same counts.
template <class T>
void alltoallv(const Comm& comm, const ExchangeCounts& c, const T* send, T* recv, bool reverse = false) {
  static_assert(std::is_trivially_copyable_v<T>);
  const MPI_Datatype type = record_type(sizeof(T));
  if (!reverse)
    MPI_Alltoallv(send, c.send_counts.data(), c.send_displs.data(), type, recv, c.recv_counts.data(),
                  c.recv_displs.data(), type, comm.get());
  else
    MPI_Alltoallv(send, c.recv_counts.data(), c.recv_displs.data(), type, recv, c.send_counts.data(),
                  c.send_displs.data(), type, comm.get());
  free_record_type(type);
}

template <class T>
struct ReceivedRecords {
  std::vector<T> records;    // grouped by source rank, in rank order
  std::vector<int> counts;   // records from each rank
};

// Collective: the whole exchange, for callers that need nothing between the counts and the
// records. Each rank passes its records grouped by destination (send_counts[q] for rank q, in
// rank order). Refuses (on every rank) an exchange of more than 2^31 records to or from one rank.
template <class T>
ReceivedRecords<T> alltoallv_records(const Comm& comm, std::span<const T> send,
                                     std::span<const std::int64_t> send_counts) {
  ExchangeCounts c = exchange_counts(comm, send_counts);
  const bool fits = c.fits_int();
  comm.agree(fits ? ErrorCode::ok : ErrorCode::invalid_input,
             fits ? std::string() : "more than 2^31 records in one exchange on one rank: use more ranks");
  ReceivedRecords<T> out;
  out.records.resize(static_cast<std::size_t>(c.received));
  alltoallv(comm, c, send.data(), out.records.data());
  out.counts = std::move(c.recv_counts);
  return out;
}

}  // namespace hpart::detail
