#include "hpart/comm.hpp"

#include "core/agreement.hpp"

namespace hpart {

Comm::Comm(MPI_Comm comm) : comm_(comm) {
  if (comm == MPI_COMM_NULL) throw Error(ErrorCode::invalid_argument, "hpart::Comm: MPI_COMM_NULL given");
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

// Lowest failing rank wins, so the message is the same everywhere and reproducible.
void Comm::agree(ErrorCode code, const std::string& message) const {
  detail::agree(*this, detail::Replicated{}, code, message);
}

}  // namespace hpart
