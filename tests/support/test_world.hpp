#pragma once
// The communicator a test runs on (MPI_COMM_WORLD under the MPI test main), its rank and size.
#include <mpi.h>

namespace hpart::testing {

struct World {
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0, size = 1;
  World() {
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
  }
};

}  // namespace hpart::testing
