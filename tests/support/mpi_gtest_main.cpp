// GoogleTest main for MPI tests: every rank runs every test; only rank 0 prints; the exit code
// is nonzero on every rank when a test failed on any rank (ctest then sees the failure); a fatal
// failure (ASSERT_*) on any rank aborts the job at once rather than leave the others in a collective.
// Built with HPART_GTEST_KOKKOS (the sharded-tensor tests), Kokkos is initialised inside MPI and
// finalised before MPI_Finalize, after every test's views are gone.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <string>

#ifdef HPART_GTEST_KOKKOS
#include "hpart/tensor/kokkos_session.hpp"
#endif

namespace {
// Non-root ranks stay quiet except for their failures, so a failure on rank 3 is visible.
class FailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit FailurePrinter(int rank) : rank_(rank) {}
  // The name is taken here: asking UnitTest for the current test inside OnTestPartResult
  // would deadlock on its mutex.
  void OnTestStart(const ::testing::TestInfo& info) override {
    test_ = std::string(info.test_suite_name()) + "." + info.name();
  }
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (!r.failed()) return;
    std::fprintf(stderr, "rank %d: %s: %s:%d: %s\n", rank_, test_.c_str(), r.file_name() ? r.file_name() : "?",
                 r.line_number(), r.summary());
  }

 private:
  int rank_;
  std::string test_;
};

// A fatal failure (ASSERT_*) returns from the test on the ranks where it failed, while the others
// go on into the test's next collective and would wait there for ever; so it ends the whole job
// at once (after the printers have reported it), and ctest sees a failure instead of a timeout.
class AbortOnFatalFailure : public ::testing::EmptyTestEventListener {
 public:
  explicit AbortOnFatalFailure(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (!r.fatally_failed()) return;
    std::fprintf(stderr, "rank %d: fatal failure: aborting every rank (the others may be waiting in a collective)\n",
                 rank_);
    std::fflush(stdout);
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }

 private:
  int rank_;
};
}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int any = 0;
  {
#ifdef HPART_GTEST_KOKKOS
    hpart::tensor::KokkosSession kokkos(argc, argv);
#endif
    ::testing::InitGoogleTest(&argc, argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0) {
      auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
      delete listeners.Release(listeners.default_result_printer());
      listeners.Append(new FailurePrinter(rank));
    }
    ::testing::UnitTest::GetInstance()->listeners().Append(new AbortOnFatalFailure(rank));
    int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any && !failed) std::fprintf(stderr, "rank %d: tests passed here but failed on another rank\n", rank);
  }
  MPI_Finalize();
  return any;
}
