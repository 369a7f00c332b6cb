#pragma once
// hpart::Comm borrows an MPI communicator: it never duplicates, frees or replaces it, and the
// library never falls back to MPI_COMM_WORLD, so hpart works unchanged on sub-communicators.
#include <mpi.h>

#include <string>

#include "hpart/error.hpp"

namespace hpart {

class Comm {
 public:
  explicit Comm(MPI_Comm comm);

  [[nodiscard]] MPI_Comm get() const noexcept { return comm_; }
  [[nodiscard]] int rank() const noexcept { return rank_; }
  [[nodiscard]] int size() const noexcept { return size_; }

  // Collective. Every rank passes its local verdict (empty message = fine). If any rank
  // reports a problem, every rank throws the same Error: the message of the lowest failing
  // rank, prefixed with that rank's number when it comes from a single rank of several.
  void agree(ErrorCode code, const std::string& message) const;
  void agree_ok() const { agree(ErrorCode::ok, {}); }

 private:
  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace hpart
