#pragma once
// OpenMP threads per rank for the hpart programs: the cores this rank may use, so that
// `mpirun -np 2` on a 2-core machine runs 2 threads in all, not 2 per rank. Precedence: an
// explicit --threads, then OMP_NUM_THREADS, then the cores of this rank (its CPU affinity mask
// where that is narrower than the node, else the node's cores divided among the job's ranks on
// the node), at least 1. Every program states the choice and its reason in its header line.
#include <string>

namespace hpart {
class Comm;  // hpart/comm.hpp
}

namespace hpart_apps {

// What the choice depends on, gathered by choose_threads (kept apart so the rule is testable
// without MPI or a particular machine).
struct ThreadInputs {
  int requested = 0;           // --threads N; 0 = not given
  bool env_set = false;        // OMP_NUM_THREADS is set (non-empty)
  std::string env_value;       // its text, for the reason
  int env_threads = 0;         // omp_get_max_threads(): what OpenMP made of OMP_NUM_THREADS
  int node_cores = 1;          // CPUs online on the node
  int affinity_cores = 0;      // CPUs in this process's affinity mask; 0 = unknown
  int local_ranks = 1;         // ranks of the job on this node (MPI_COMM_TYPE_SHARED)
  int local_rank = 0;          // this rank's place among them
};

struct ThreadChoice {
  int threads = 1;
  std::string why;  // one line: "2 threads: 2 cores bound to this rank", "OMP_NUM_THREADS=3", ...
};

// The rule alone (no side effects). With the node's cores shared, the first (cores % ranks)
// local ranks take one core more, so that the ranks of a node use every core once.
ThreadChoice decide_threads(const ThreadInputs& in);

// Collective over `comm` (splits it by node): gathers the inputs, applies the choice with
// omp_set_num_threads (OMP_NUM_THREADS alone is left to OpenMP as the user set it) and returns
// it. `requested` is the program's --threads value, 0 when not given.
ThreadChoice choose_threads(const hpart::Comm& comm, int requested);

}  // namespace hpart_apps
