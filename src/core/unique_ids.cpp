#include "core/unique_ids.hpp"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/agreement.hpp"
#include "core/exchange.hpp"
#include "core/memory_budget.hpp"

namespace hpart::detail {
namespace {

int checker_of(gid_t id, int ranks) {  // splitmix64: spreads consecutive ids evenly
  auto x = static_cast<std::uint64_t>(id) + 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return static_cast<int>((x ^ (x >> 31)) % static_cast<std::uint64_t>(ranks));
}

// At the width the caller's ids are held (read in place).
template <class Id>
void require_unique(const Comm& comm, std::span<const Id> ids, const char* who) {
  // One branch-free pass: any negative id, and whether the ids ascend strictly here.
  gid_t sign = ids.empty() ? 0 : ids[0];  // the sign bit survives the OR (sign-extended)
  std::uint64_t descents = 0;
  for (std::size_t i = 1; i < ids.size(); ++i) {
    sign |= ids[i];
    descents |= ids[i] <= ids[i - 1];
  }
  std::string problem;
  for (std::size_t i = 0; sign < 0 && i < ids.size() && problem.empty(); ++i)
    if (ids[i] < 0)
      problem = std::string(who) + ": id of local object " + std::to_string(i) + " is " + std::to_string(ids[i]) +
                ": ids must be non-negative";
  // Ids that also start above every id of the ranks before this one repeat nowhere. A rank
  // without ids contributes -1 to the MAX scan: the ranks after it compare with those before.
  const long long last = ids.empty() ? -1 : ids.back();
  long long before = -1;
  MPI_Exscan(&last, &before, 1, MPI_LONG_LONG, MPI_MAX, comm.get());
  if (comm.rank() == 0) before = -1;  // MPI_Exscan leaves rank 0's result undefined
  const bool ascending = descents == 0 && (ids.empty() || ids.front() > before);
  if (agree_and_all(comm, Replicated{}, problem.empty() ? ErrorCode::ok : ErrorCode::invalid_input, problem, ascending))
    return;

  const int R = comm.size();
  std::vector<std::int64_t> send_counts(static_cast<std::size_t>(R), 0);
  for (gid_t id : ids) ++send_counts[static_cast<std::size_t>(checker_of(id, R))];
  const ExchangeCounts c = exchange_counts(comm, send_counts);
  const long long incoming = c.received;
  // The checker keeps each arriving id twice (as received, and with its rank for the sort).
  problem = incoming > INT_MAX ? std::string(who) + ": more than 2^31 ids hash to one rank; use more ranks"
                               : check_memory(24.0 * static_cast<double>(incoming) + 8.0 * static_cast<double>(ids.size()),
                                              std::string(who) + ": checking the ids for repeats", "use more ranks");
  comm.agree(problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);

  std::vector<gid_t> grouped(ids.size());
  std::vector<int> fill = c.send_displs;
  for (gid_t id : ids) grouped[static_cast<std::size_t>(fill[static_cast<std::size_t>(checker_of(id, R))]++)] = id;
  std::vector<gid_t> mine(static_cast<std::size_t>(incoming));
  alltoallv(comm, c, grouped.data(), mine.data());

  // (id, rank that gave it), sorted: a repeat sits next to its first occurrence.
  std::vector<std::pair<gid_t, int>> seen(mine.size());
  for (int r = 0; r < R; ++r)
    for (int k = 0; k < c.recv_counts[static_cast<std::size_t>(r)]; ++k) {
      const auto at = static_cast<std::size_t>(c.recv_displs[static_cast<std::size_t>(r)] + k);
      seen[at] = {mine[at], r};
    }
  std::sort(seen.begin(), seen.end());
  for (std::size_t k = 1; k < seen.size(); ++k)
    if (seen[k].first == seen[k - 1].first) {
      const int a = seen[k - 1].second, b = seen[k].second;
      problem = std::string(who) + ": id " + std::to_string(seen[k].first) + " is given twice (" +
                (a == b ? "both on rank " + std::to_string(a) : "on ranks " + std::to_string(a) + " and " + std::to_string(b)) +
                "): every object needs its own id";
      break;
    }
  comm.agree(problem.empty() ? ErrorCode::ok : ErrorCode::invalid_input, problem);
}

}  // namespace

void require_unique_ids(const Comm& comm, IntSpan ids, const char* who) {
  ids.visit([&](auto s) { require_unique(comm, s, who); });
}

}  // namespace hpart::detail
