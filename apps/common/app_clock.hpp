#pragma once
// Clocks of the example apps' measured compute times: wall time, or this process's CPU time (all
// its threads), which does not count the time a rank waits for a core on a shared or
// oversubscribed machine (np 4 on 2 cores, other jobs): there a step's wall time is mostly noise,
// and a rebalancer fed with it would chase the noise.
#include <mpi.h>

#include <ctime>

#include "hpart/comm.hpp"

namespace hpart_apps {

inline double wall_clock() { return MPI_Wtime(); }

inline double cpu_clock() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace hpart_apps
