#include "promise_sweep.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>

namespace hpart::testing::promise {
namespace {

long long g_cases = 0;

std::uint64_t text_hash(const std::string& s) { return std::hash<std::string>{}(s); }

// Same value on every rank of comm? (MIN and MAX of the value and of its complement in one call.)
bool same_everywhere(MPI_Comm comm, std::uint64_t v) {
  std::uint64_t m[2] = {v, ~v};
  MPI_Allreduce(MPI_IN_PLACE, m, 2, MPI_UINT64_T, MPI_MIN, comm);
  return m[0] == ~m[1];
}

}  // namespace

const char* to_string(Where w) {
  switch (w) {
    case Where::first: return "first rank with objects";
    case Where::last: return "last rank";
    case Where::all: return "every rank";
  }
  return "?";
}

bool is_bad_rank(MPI_Comm comm, Where where, bool holds_objects) {
  const World w(comm);
  if (where == Where::all) return true;
  if (where == Where::last) return w.rank == w.size - 1;
  int first = holds_objects ? w.rank : w.size;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
  return w.rank == (first == w.size ? 0 : first);
}

void expect_same_error(MPI_Comm comm, const std::string& name, const std::function<void()>& call,
                       const std::string& needle) {
  ++g_cases;
  const World w(comm);
  std::string what;
  int code = -1;
  const double t0 = MPI_Wtime();
  try {
    call();
  } catch (const hpart::Error& e) {
    what = e.what();
    code = static_cast<int>(e.code());
  } catch (const std::exception& e) {
    what = std::string("not an hpart::Error: ") + e.what();
  }
  double seconds = MPI_Wtime() - t0;
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  EXPECT_NE(code, -1) << name << ": rank " << w.rank << " got no hpart::Error" << (what.empty() ? "" : " (" + what + ")");
  bool found = false;  // needle: alternatives separated by '|'
  for (std::size_t at = 0; at <= needle.size();) {
    const std::size_t bar = std::min(needle.find('|', at), needle.size());
    found |= what.find(needle.substr(at, bar - at)) != std::string::npos;
    at = bar + 1;
  }
  EXPECT_TRUE(found) << name << ": rank " << w.rank << ": '" << what << "' does not contain '" << needle << "'";
  EXPECT_TRUE(same_everywhere(comm, text_hash(what))) << name << ": the ranks' messages differ; rank " << w.rank
                                                      << ": " << what;
  EXPECT_TRUE(same_everywhere(comm, static_cast<std::uint64_t>(code))) << name << ": the ranks' error codes differ";
  EXPECT_LT(seconds, 5.0) << name << ": the error took " << seconds << " s";
}

void expect_success(MPI_Comm comm, const std::string& name, const std::function<void()>& call) {
  ++g_cases;
  const World w(comm);
  std::string what;
  try {
    call();
  } catch (const std::exception& e) {
    what = e.what();
  }
  EXPECT_EQ(what, "") << name << ": rank " << w.rank << " threw on valid input";
}

void on_world_and_halves(const std::function<void(MPI_Comm)>& body) {
  body(MPI_COMM_WORLD);
  const HalfWorld half;
  body(half.comm);
}

long long cases_run() { return g_cases; }

MemoryLimit::MemoryLimit(const char* limit) {
  if (const char* v = std::getenv("HPART_MEMORY_LIMIT")) previous_ = v, had_ = true;
  setenv("HPART_MEMORY_LIMIT", limit, 1);
}
MemoryLimit::~MemoryLimit() {
  if (had_)
    setenv("HPART_MEMORY_LIMIT", previous_.c_str(), 1);
  else
    unsetenv("HPART_MEMORY_LIMIT");
}

}  // namespace hpart::testing::promise

namespace {
// Rank 0 reports how many cases the sweep ran (the note quotes it), summed over the ranks' view
// of one communicator: every rank runs every case, so rank 0's count is the sweep's size.
class CaseCounter : public ::testing::Environment {
 public:
  void TearDown() override {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) std::printf("promise sweep: %lld cases (world and both halves)\n", hpart::testing::promise::cases_run());
  }
};
[[maybe_unused]] ::testing::Environment* const g_counter = ::testing::AddGlobalTestEnvironment(new CaseCounter);
}  // namespace
