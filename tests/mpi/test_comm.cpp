// Comm::agree: the collective error protocol every public call relies on.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>

#include "hpart/comm.hpp"

namespace {

TEST(Comm, AgreeIsSilentWhenAllAreFine) {
  hpart::Comm comm(MPI_COMM_WORLD);
  EXPECT_NO_THROW(comm.agree_ok());
}

TEST(Comm, LowestFailingRankWinsOnEveryRank) {
  hpart::Comm comm(MPI_COMM_WORLD);
  const bool fails = comm.rank() >= comm.size() / 2;  // upper half fails (rank 0 at np 1)
  const int first = comm.size() / 2;
  try {
    comm.agree(fails ? hpart::ErrorCode::invalid_input : hpart::ErrorCode::ok,
               fails ? "bad thing on rank " + std::to_string(comm.rank()) : "");
    FAIL() << "agree did not throw";
  } catch (const hpart::Error& e) {
    EXPECT_EQ(e.code(), hpart::ErrorCode::invalid_input);
    const std::string what = e.what();
    EXPECT_NE(what.find("bad thing on rank " + std::to_string(first)), std::string::npos) << what;
    if (comm.size() > 1) {
      EXPECT_EQ(what.rfind("rank " + std::to_string(first), 0), 0u) << what;
    }
  }
}

TEST(Comm, WorksOnSubCommunicator) {
  int wrank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm sub;
  MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wrank, &sub);
  hpart::Comm comm(sub);
  EXPECT_EQ(comm.get(), sub);
  // Only the even group fails; the odd group must not notice.
  const bool even = wrank % 2 == 0;
  bool threw = false;
  try {
    comm.agree(even && comm.rank() == 0 ? hpart::ErrorCode::io : hpart::ErrorCode::ok, "even group failed");
  } catch (const hpart::Error&) {
    threw = true;
  }
  EXPECT_EQ(threw, even);
  MPI_Comm_free(&sub);
}

}  // namespace
