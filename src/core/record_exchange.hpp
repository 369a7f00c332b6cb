#pragma once
// One all-to-all exchange of fixed-size records, for the graph readers and validation: each rank
// passes its records grouped by destination rank (counts[q] for rank q, in rank order) and gets
// the records sent to it, grouped by source rank in rank order (so blocks stay in global order).
#include <mpi.h>

#include <climits>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "hpart/comm.hpp"

namespace hpart::detail {

template <class T>
std::vector<T> exchange_records(const Comm& comm, std::span<const T> send, std::span<const std::int64_t> counts) {
  static_assert(std::is_trivially_copyable_v<T>);
  const auto R = static_cast<std::size_t>(comm.size());
  std::vector<std::int64_t> incoming(R, 0);
  MPI_Alltoall(counts.data(), 1, MPI_INT64_T, incoming.data(), 1, MPI_INT64_T, comm.get());
  // Alltoallv counts and displacements are ints (in records: the datatype is one record).
  std::vector<int> scount(R), sdispl(R), rcount(R), rdispl(R);
  std::int64_t sent = 0, received = 0;
  for (std::size_t q = 0; q < R; ++q) {
    scount[q] = static_cast<int>(counts[q]);
    rcount[q] = static_cast<int>(incoming[q]);
    sdispl[q] = static_cast<int>(sent);
    rdispl[q] = static_cast<int>(received);
    sent += counts[q];
    received += incoming[q];
  }
  const bool fits = sent <= INT_MAX && received <= INT_MAX;
  comm.agree(fits ? ErrorCode::ok : ErrorCode::invalid_input,
             fits ? std::string() : "more than 2^31 records in one exchange on one rank: use more ranks");
  MPI_Datatype type;
  MPI_Type_contiguous(static_cast<int>(sizeof(T)), MPI_BYTE, &type);
  MPI_Type_commit(&type);
  std::vector<T> out(static_cast<std::size_t>(received));
  MPI_Alltoallv(send.data(), scount.data(), sdispl.data(), type, out.data(), rcount.data(), rdispl.data(), type,
                comm.get());
  MPI_Type_free(&type);
  return out;
}

}  // namespace hpart::detail
