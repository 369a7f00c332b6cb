#pragma once
// The communicator a test runs on (MPI_COMM_WORLD under the MPI test main, or a sub-communicator),
// this process's rank in it and its size.
#include <mpi.h>

namespace hpart::testing {

struct World {
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0, size = 1;
  explicit World(MPI_Comm c = MPI_COMM_WORLD) : comm(c) {
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
  }
};

}  // namespace hpart::testing
