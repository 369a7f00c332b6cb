#include "hpart/comm.hpp"

#include <string>
#include <vector>

namespace hpart {

Comm::Comm(MPI_Comm comm) : comm_(comm) {
  if (comm == MPI_COMM_NULL) throw Error(ErrorCode::invalid_argument, "hpart::Comm: MPI_COMM_NULL given");
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

void Comm::agree(ErrorCode code, const std::string& message) const {
  // Lowest failing rank wins, so the message is the same everywhere and reproducible.
  const bool failed = code != ErrorCode::ok;
  int mine = failed ? rank_ : size_;
  int first = size_;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm_);
  if (first == size_) return;

  int failures = 0;
  int one = failed ? 1 : 0;
  MPI_Allreduce(&one, &failures, 1, MPI_INT, MPI_SUM, comm_);

  // Broadcast code and message of the first failing rank.
  int header[2] = {static_cast<int>(code), static_cast<int>(message.size())};
  MPI_Bcast(header, 2, MPI_INT, first, comm_);
  std::string text(static_cast<std::size_t>(header[1]), '\0');
  if (rank_ == first) text = message;
  if (header[1] > 0) MPI_Bcast(text.data(), header[1], MPI_CHAR, first, comm_);

  if (size_ > 1) {
    std::string where = "rank " + std::to_string(first);
    if (failures > 1) where += " (and " + std::to_string(failures - 1) + " more)";
    text = where + ": " + text;
  }
  throw Error(static_cast<ErrorCode>(header[0]), text);
}

}  // namespace hpart
