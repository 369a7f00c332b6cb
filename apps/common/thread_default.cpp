#include "thread_default.hpp"

#include <mpi.h>
#include <omp.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "hpart/comm.hpp"

namespace hpart_apps {
namespace {

std::string threads_word(int n) { return std::to_string(n) + (n == 1 ? " thread" : " threads"); }
std::string cores_word(int n) { return std::to_string(n) + (n == 1 ? " core" : " cores"); }

int online_cores() {
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<int>(n) : 1;
}

int affinity_cores() {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
#endif
  return 0;
}

}  // namespace

ThreadChoice decide_threads(const ThreadInputs& in) {
  if (in.requested > 0) return {in.requested, threads_word(in.requested) + ": --threads " + std::to_string(in.requested)};
  if (in.env_set) {
    const int n = std::max(in.env_threads, 1);
    return {n, threads_word(n) + ": OMP_NUM_THREADS=" + in.env_value};
  }
  const int node = std::max(in.node_cores, 1);
  if (in.affinity_cores > 0 && in.affinity_cores < node)
    return {in.affinity_cores, threads_word(in.affinity_cores) + ": " + cores_word(in.affinity_cores) +
                                   " bound to this rank"};
  const int ranks = std::max(in.local_ranks, 1);
  if (ranks == 1) return {node, threads_word(node) + ": " + cores_word(node) + " on this node"};
  const int share = node / ranks + (in.local_rank < node % ranks ? 1 : 0);
  const int n = std::max(share, 1);
  return {n, threads_word(n) + ": " + cores_word(node) + " shared by " + std::to_string(ranks) + " ranks on this node"};
}

ThreadChoice choose_threads(const hpart::Comm& comm, int requested) {
  ThreadInputs in;
  in.requested = requested;
  const char* env = std::getenv("OMP_NUM_THREADS");
  in.env_set = env != nullptr && *env != '\0';
  if (in.env_set) in.env_value = env;
  in.env_threads = omp_get_max_threads();
  in.node_cores = online_cores();
  in.affinity_cores = affinity_cores();
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm.get(), MPI_COMM_TYPE_SHARED, comm.rank(), MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &in.local_ranks);
  MPI_Comm_rank(node, &in.local_rank);
  MPI_Comm_free(&node);
  const ThreadChoice choice = decide_threads(in);
  // OMP_NUM_THREADS may be a list ("4,2": threads per nesting level): left to OpenMP as given.
  if (!(in.requested == 0 && in.env_set)) omp_set_num_threads(choice.threads);
  return choice;
}

}  // namespace hpart_apps
