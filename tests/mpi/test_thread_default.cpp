// choose_threads (apps/common/thread_default.hpp) on a real job: every rank gets at least one
// thread for the same kind of reason, OpenMP takes the choice, and the node's cores are not
// oversubscribed by the default.
#include <gtest/gtest.h>
#include <mpi.h>
#include <omp.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "hpart/comm.hpp"
#include "thread_default.hpp"

namespace {

// The reason without its leading count, which may differ between the ranks of a node
// ("3 threads: 8 cores shared by 3 ranks on this node" on one, "2 threads: ..." on another).
std::string kind(const std::string& why) { return why.substr(why.find(':')); }

bool same_on_every_rank(const hpart::Comm& comm, const std::string& s) {
  int len = static_cast<int>(s.size()), lo = len, hi = len;
  MPI_Allreduce(&len, &lo, 1, MPI_INT, MPI_MIN, comm.get());
  MPI_Allreduce(&len, &hi, 1, MPI_INT, MPI_MAX, comm.get());
  if (lo != hi) return false;
  std::string root = s;
  MPI_Bcast(root.data(), len, MPI_CHAR, 0, comm.get());
  int same = root == s ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_MIN, comm.get());
  return same == 1;
}

class ThreadDefaultMpi : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* env = std::getenv("OMP_NUM_THREADS");
    if (env != nullptr) saved_ = env, had_ = true;
    saved_max_ = omp_get_max_threads();
  }
  void TearDown() override {
    if (had_) setenv("OMP_NUM_THREADS", saved_.c_str(), 1);
    omp_set_num_threads(saved_max_);
  }
  std::string saved_;
  bool had_ = false;
  int saved_max_ = 1;
};

TEST_F(ThreadDefaultMpi, DefaultIsTheRanksShareOfItsCores) {
  const hpart::Comm comm(MPI_COMM_WORLD);
  unsetenv("OMP_NUM_THREADS");
  const hpart_apps::ThreadChoice c = hpart_apps::choose_threads(comm, 0);
  EXPECT_GE(c.threads, 1);
  EXPECT_EQ(omp_get_max_threads(), c.threads);
  EXPECT_TRUE(same_on_every_rank(comm, kind(c.why))) << c.why;
  // The ranks of this job on this node (ctest runs them all on one) use at most the node's
  // cores, or one thread each where there are more ranks than cores.
  int total = c.threads;
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT, MPI_SUM, comm.get());
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  EXPECT_LE(total, std::max<long>(cores, comm.size())) << c.why;
}

TEST_F(ThreadDefaultMpi, EnvironmentAndFlagWin) {
  const hpart::Comm comm(MPI_COMM_WORLD);
  setenv("OMP_NUM_THREADS", "3", 1);
  hpart_apps::ThreadChoice c = hpart_apps::choose_threads(comm, 0);
  EXPECT_NE(c.why.find("OMP_NUM_THREADS=3"), std::string::npos) << c.why;
  EXPECT_TRUE(same_on_every_rank(comm, c.why));
  c = hpart_apps::choose_threads(comm, 2);
  EXPECT_EQ(c.threads, 2);
  EXPECT_EQ(omp_get_max_threads(), 2);
  EXPECT_EQ(c.why, "2 threads: --threads 2");
}

}  // namespace
