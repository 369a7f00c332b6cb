#pragma once
// The two reductions every parallel reader needs: where this rank's items start among all
// ranks' (file order = rank order), and how many there are in all.
#include <mpi.h>

#include "hpart/comm.hpp"

namespace hpart::detail {

inline long long sum_before(const Comm& comm, long long mine) {
  long long before = 0;
  MPI_Exscan(&mine, &before, 1, MPI_LONG_LONG, MPI_SUM, comm.get());
  return comm.rank() == 0 ? 0 : before;  // Exscan leaves rank 0's result undefined
}

inline long long sum_all(const Comm& comm, long long mine) {
  long long total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, comm.get());
  return total;
}

}  // namespace hpart::detail
