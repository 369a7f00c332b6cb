// The default OpenMP thread count per rank (apps/common/thread_default.hpp): the rule alone,
// from made-up machines (cores, affinity mask, ranks per node, OMP_NUM_THREADS, --threads).
#include <gtest/gtest.h>

#include <string>

#include "thread_default.hpp"

namespace {

using hpart_apps::decide_threads;
using hpart_apps::ThreadInputs;

ThreadInputs machine(int node_cores, int affinity_cores, int local_ranks, int local_rank = 0) {
  ThreadInputs in;
  in.node_cores = node_cores;
  in.affinity_cores = affinity_cores;
  in.local_ranks = local_ranks;
  in.local_rank = local_rank;
  in.env_threads = node_cores;  // what OpenMP would start without OMP_NUM_THREADS
  return in;
}

TEST(ThreadDefault, OneRankTakesTheNode) {
  const auto c = decide_threads(machine(2, 2, 1));
  EXPECT_EQ(c.threads, 2);
  EXPECT_EQ(c.why, "2 threads: 2 cores on this node");
}

// The case: mpirun -np 2 --bind-to none on 2 cores gave each rank 2 threads.
TEST(ThreadDefault, RanksOnOneNodeShareItsCores) {
  for (int r = 0; r < 2; ++r) {
    const auto c = decide_threads(machine(2, 2, 2, r));
    EXPECT_EQ(c.threads, 1);
    EXPECT_EQ(c.why, "1 thread: 2 cores shared by 2 ranks on this node");
  }
}

TEST(ThreadDefault, UnevenShareUsesEveryCoreOnce) {
  int total = 0;
  for (int r = 0; r < 3; ++r) total += decide_threads(machine(8, 8, 3, r)).threads;
  EXPECT_EQ(total, 8);
  EXPECT_EQ(decide_threads(machine(8, 8, 3, 0)).threads, 3);
  EXPECT_EQ(decide_threads(machine(8, 8, 3, 2)).threads, 2);
}

TEST(ThreadDefault, MoreRanksThanCoresStillOneThread) {
  for (int r = 0; r < 3; ++r) EXPECT_EQ(decide_threads(machine(2, 2, 3, r)).threads, 1);
}

TEST(ThreadDefault, NarrowAffinityMaskWins) {
  // Bound by the launcher (mpirun's default for np <= 2, srun --cpu-bind): the mask is the share.
  const auto c = decide_threads(machine(16, 4, 4, 1));
  EXPECT_EQ(c.threads, 4);
  EXPECT_EQ(c.why, "4 threads: 4 cores bound to this rank");
  EXPECT_EQ(decide_threads(machine(2, 1, 2)).why, "1 thread: 1 core bound to this rank");
}

TEST(ThreadDefault, UnknownMaskFallsBackToTheNodeShare) {
  EXPECT_EQ(decide_threads(machine(4, 0, 2)).threads, 2);
}

TEST(ThreadDefault, EnvironmentBeatsTheMachine) {
  ThreadInputs in = machine(2, 1, 2);
  in.env_set = true;
  in.env_value = "3";
  in.env_threads = 3;
  const auto c = decide_threads(in);
  EXPECT_EQ(c.threads, 3);
  EXPECT_EQ(c.why, "3 threads: OMP_NUM_THREADS=3");
}

TEST(ThreadDefault, FlagBeatsTheEnvironment) {
  ThreadInputs in = machine(2, 2, 1);
  in.env_set = true;
  in.env_value = "3";
  in.env_threads = 3;
  in.requested = 5;
  const auto c = decide_threads(in);
  EXPECT_EQ(c.threads, 5);
  EXPECT_EQ(c.why, "5 threads: --threads 5");
}

TEST(ThreadDefault, NeverBelowOne) {
  EXPECT_EQ(decide_threads(machine(0, 0, 0)).threads, 1);
  ThreadInputs in = machine(2, 2, 1);
  in.env_set = true;
  in.env_value = "garbage";
  in.env_threads = 0;
  EXPECT_EQ(decide_threads(in).threads, 1);
}

}  // namespace
