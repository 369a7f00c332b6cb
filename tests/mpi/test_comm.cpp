// Comm::agree: the collective error protocol every public call relies on.
#include <algorithm>
#include <cstdint>

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

// The typed reductions against values computed locally from every rank's input. The 64-bit
// unsigned cases use values >= 2^63 (curve keys use all 64 bits in 2D): Open MPI 4.1.4 reduces
// MPI_UNSIGNED_LONG with MIN/MAX as if it were signed, which Comm must not inherit.
TEST(Comm, TypedReductionsAreExact) {
  const hpart::Comm comm(MPI_COMM_WORLD);
  const int r = comm.rank(), p = comm.size();
  const auto mine = [](int q) { return q % 2 == 0 ? ~0UL - static_cast<unsigned long>(q) : (3UL << 62) + static_cast<unsigned long>(q); };
  unsigned long lo = mine(0), hi = mine(0), sum = 0;
  long long before = 0, total = 0;
  for (int q = 0; q < p; ++q) {
    lo = std::min(lo, mine(q));
    hi = std::max(hi, mine(q));
    sum += mine(q);
    if (q < r) before += q + 1;
    total += q + 1;
  }
  EXPECT_EQ(comm.min(mine(r)), lo);
  EXPECT_EQ(comm.max(mine(r)), hi);
  EXPECT_EQ(comm.sum(mine(r)), sum);  // wraps modulo 2^64 on every rank alike
  EXPECT_EQ(comm.min(static_cast<std::uint64_t>(mine(r))), lo);
  EXPECT_EQ(comm.max(static_cast<unsigned long long>(mine(r))), hi);
  EXPECT_EQ(comm.min(-static_cast<long long>(r) - (1LL << 62)), -static_cast<long long>(p - 1) - (1LL << 62));
  EXPECT_EQ(comm.max(static_cast<double>(r) - 0.5), static_cast<double>(p - 1) - 0.5);
  EXPECT_EQ(comm.exscan_sum(static_cast<long long>(r + 1)), before);
  EXPECT_EQ(comm.sum(static_cast<long long>(r + 1)), total);
}

}  // namespace
