// GoogleTest main for MPI tests: every rank runs every test; only rank 0 prints; the exit code
// is nonzero on every rank when a test failed on any rank (ctest then sees the failure).
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
    int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any && !failed) std::fprintf(stderr, "rank %d: tests passed here but failed on another rank\n", rank);
  }
  MPI_Finalize();
  return any;
}
