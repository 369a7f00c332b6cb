#pragma once
// Injected regressions, so that a test can prove the suite turns red: the environment variable
// HPART_SCALING_INJECT lists what to add inside the measured window of a case, comma separated:
//   KEY:messages    one extra point-to-point message (1 KiB to the next rank) and one extra
//                   MPI_Allgather of 8 bytes a rank, what a careless change to a splitter search adds
//   KEY:slow:F      the call made F times slower (the rank spins after it), F >= 1
// KEY is a case key ("points.hilbert") or "*" for every case but the floor (the time rule's reference). The worker records the value, so a
// run made with an injection is never mistaken for a clean one.
#include <string>

#include "hpart/comm.hpp"

namespace hpart_scaling {

struct Injection {
  bool messages = false;
  double slow = 1.0;
  [[nodiscard]] bool any() const { return messages || slow != 1.0; }
};

// The variable's value ("" when unset).
std::string injection_spec();

// What the variable asks for case `key`. A malformed value throws hpart::Error (invalid_argument);
// every rank reads the same environment under mpirun, so every rank throws alike.
Injection injection_for(const std::string& key);

// Collective, inside the timed window, right after the call that started at MPI_Wtime() `t0`.
void inject(const hpart::Comm& comm, const Injection& what, double t0);

}  // namespace hpart_scaling
