#pragma once
// The promise sweep: every public entry point x every class of bad input of issue 20, run on the
// world and on a sub-communicator, with the bad value on the first rank holding objects, on the
// last rank, or on every rank. A case passes when every rank throws an hpart::Error with the same
// code and text, containing the case's needle, within 5 s (a hang is caught by ctest's timeout);
// or, for the valid edge cases (empty ranks, N < ranks, K > N, extreme weights), when the call
// succeeds on every rank and its result keeps the invariants.
#include <gtest/gtest.h>
#include <mpi.h>

#include <functional>
#include <string>
#include <vector>

#include "hpart/hpart.hpp"
#include "test_world.hpp"

namespace hpart::testing::promise {

// Where a mutation applies: on one rank only (the lowest rank holding objects, or the last
// rank), or on every rank.
enum class Where { first, last, all };
const char* to_string(Where w);
inline const Where kEveryWhere[] = {Where::first, Where::last, Where::all};

// This rank's role for `where` on `comm`, given whether it holds objects.
bool is_bad_rank(MPI_Comm comm, Where where, bool holds_objects);

// One case: `call` runs on every rank of comm; every rank must throw the same hpart::Error
// containing `needle` (or one of its '|'-separated alternatives), within 5 s. Counts the case.
void expect_same_error(MPI_Comm comm, const std::string& name, const std::function<void()>& call,
                       const std::string& needle);
// One valid case: `call` must return on every rank without an exception (it checks its result
// itself, with EXPECTs). Counts the case.
void expect_success(MPI_Comm comm, const std::string& name, const std::function<void()>& call);

// Runs `body(comm)` on the world and on both halves of it (a sub-communicator per parity).
void on_world_and_halves(const std::function<void(MPI_Comm)>& body);

// Cases run so far on this rank (printed at the end of the run by rank 0).
long long cases_run();

// Sets HPART_MEMORY_LIMIT for its lifetime (the resource class, deterministically).
class MemoryLimit {
 public:
  explicit MemoryLimit(const char* limit);
  ~MemoryLimit();
  MemoryLimit(const MemoryLimit&) = delete;
  MemoryLimit& operator=(const MemoryLimit&) = delete;

 private:
  std::string previous_;
  bool had_ = false;
};

}  // namespace hpart::testing::promise
