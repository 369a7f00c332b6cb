#include "core/exchange.hpp"

namespace hpart::detail {

ExchangeCounts exchange_counts(const Comm& comm, std::span<const std::int64_t> send_counts) {
  const auto R = static_cast<std::size_t>(comm.size());
  std::vector<std::int64_t> incoming(R, 0);
  MPI_Alltoall(send_counts.data(), 1, MPI_INT64_T, incoming.data(), 1, MPI_INT64_T, comm.get());
  ExchangeCounts c;
  c.send_counts.resize(R);
  c.send_displs.resize(R);
  c.recv_counts.resize(R);
  c.recv_displs.resize(R);
  for (std::size_t q = 0; q < R; ++q) {  // ints are exact while the totals fit (fits_int)
    c.send_counts[q] = static_cast<int>(send_counts[q]);
    c.recv_counts[q] = static_cast<int>(incoming[q]);
    c.send_displs[q] = static_cast<int>(c.sent);
    c.recv_displs[q] = static_cast<int>(c.received);
    c.sent += send_counts[q];
    c.received += incoming[q];
  }
  return c;
}

MPI_Datatype record_type(std::size_t bytes) {
  MPI_Datatype t;
  MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &t);
  MPI_Type_commit(&t);
  return t;
}

void free_record_type(MPI_Datatype type) { MPI_Type_free(&type); }

}  // namespace hpart::detail
