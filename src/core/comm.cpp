#include "hpart/comm.hpp"

#include <climits>
#include <cstring>

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

namespace {

MPI_Op mpi_op(int op) { return op == 0 ? MPI_SUM : op == 1 ? MPI_MIN : MPI_MAX; }

int mpi_count(std::size_t count) {
  if (count > static_cast<std::size_t>(INT_MAX))
    throw Error(ErrorCode::invalid_argument, "hpart::Comm: more than 2^31 values in one reduction");
  return static_cast<int>(count);
}

}  // namespace

void Comm::allreduce(void* values, std::size_t count, MPI_Datatype type, Reduce op) const {
  MPI_Allreduce(MPI_IN_PLACE, values, mpi_count(count), type, mpi_op(static_cast<int>(op)), comm_);
}

void Comm::exscan_sum(const void* mine, void* before, std::size_t count, MPI_Datatype type) const {
  MPI_Exscan(mine, before, mpi_count(count), type, MPI_SUM, comm_);
  if (rank_ == 0) {  // MPI_Exscan leaves rank 0's result undefined: zero it
    int bytes = 0;
    MPI_Type_size(type, &bytes);
    std::memset(before, 0, count * static_cast<std::size_t>(bytes));
  }
}

}  // namespace hpart
