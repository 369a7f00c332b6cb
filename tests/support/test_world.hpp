#pragma once
// The communicator a test runs on (MPI_COMM_WORLD under the MPI test main, or a sub-communicator),
// this process's rank in it and its size; the world split in two halves; and the check that a
// call throws the same hpart::Error on every rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <optional>
#include <string>

#include "hpart/error.hpp"

namespace hpart::testing {

struct World {
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0, size = 1;
  explicit World(MPI_Comm c = MPI_COMM_WORLD) : comm(c) {
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
  }
};

// The world split by rank parity (colour 0: even ranks, 1: odd), freed at scope exit: every
// partitioner is tested on a sub-communicator this way.
struct HalfWorld {
  int colour = 0;
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, size = 1;
  HalfWorld() {
    const World w;
    colour = w.rank % 2;
    MPI_Comm_split(w.comm, colour, w.rank, &comm);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
  }
  ~HalfWorld() { MPI_Comm_free(&comm); }
  HalfWorld(const HalfWorld&) = delete;
  HalfWorld& operator=(const HalfWorld&) = delete;
};

// A scratch file path unique per test program (`stem`) and world size, since ctest runs a
// test's np 1..4 at once: dir/stem_npW_name (name keeps its extension last).
inline std::string scratch_path(const std::string& dir, const std::string& stem, const std::string& name) {
  int world = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  return dir + "/" + stem + "_np" + std::to_string(world) + "_" + name;
}

// `call` must throw an hpart::Error whose message contains `what`, on this rank (every rank runs
// this, so together they check that no rank is left without the error, or hanging).
// With `code`, the error must also carry that code.
template <class F>
void expect_error_everywhere(F&& call, const std::string& what, std::optional<hpart::ErrorCode> code = {}) {
  const World w;
  bool thrown = false;
  try {
    call();
  } catch (const hpart::Error& e) {
    thrown = true;
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << "rank " << w.rank << ": " << e.what();
    if (code) {
      EXPECT_EQ(static_cast<int>(e.code()), static_cast<int>(*code)) << "rank " << w.rank << ": " << e.what();
    }
  }
  EXPECT_TRUE(thrown) << "rank " << w.rank << ": expected an error containing '" << what << "'";
}

}  // namespace hpart::testing
