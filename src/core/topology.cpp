#include "hpart/topology.hpp"

#include "core/agreement.hpp"

#include <mpi.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "core/numa_binding.hpp"

namespace hpart {

int Topology::ranks_on(int node) const {
  return static_cast<int>(std::count(node_of_rank.begin(), node_of_rank.end(), node));
}

std::vector<int> Topology::ranks_of(int node) const {
  std::vector<int> r;
  for (std::size_t k = 0; k < node_of_rank.size(); ++k)
    if (node_of_rank[k] == node) r.push_back(static_cast<int>(k));
  return r;
}

namespace {

// "NxM" -> (N, M); false when malformed.
bool parse_spec(const std::string& spec, int& nodes, int& per_node) {
  const auto x = spec.find('x');
  if (x == std::string::npos) return false;
  const char* b = spec.data();
  const auto r1 = std::from_chars(b, b + x, nodes);
  const auto r2 = std::from_chars(b + x + 1, b + spec.size(), per_node);
  return r1.ec == std::errc() && r1.ptr == b + x && r2.ec == std::errc() && r2.ptr == b + spec.size() && nodes >= 1 &&
         per_node >= 1;
}

// Every rank's NUMA place, gathered (hwloc is per process; the answer is collective).
void add_numa(const Comm& comm, Topology& t) {
  const detail::NumaPlace mine = detail::numa_place();
  std::vector<int> all(static_cast<std::size_t>(2 * comm.size()));
  const int pair[2] = {mine.domain, mine.domains};
  MPI_Allgather(pair, 2, MPI_INT, all.data(), 2, MPI_INT, comm.get());
  t.numa_of_rank.clear();
  t.numa_domains = 0;
  for (int r = 0; r < comm.size(); ++r) {
    t.numa_of_rank.push_back(all[static_cast<std::size_t>(2 * r)]);
    t.numa_domains = std::max(t.numa_domains, all[static_cast<std::size_t>(2 * r + 1)]);
  }
}

}  // namespace

Topology detect_topology(const Comm& comm, const std::string& spec_in) {
  std::string spec = spec_in;
  if (spec.empty())
    if (const char* env = std::getenv("HPART_TOPOLOGY")) spec = env;
  Topology t;
  const int R = comm.size();
  // Whether a spec is given decides which collectives follow: agree on it (and on its value) first.
  int nodes = 0, per = 0;
  std::string problem;
  if (!spec.empty() && !parse_spec(spec, nodes, per))
    problem = "topology '" + spec + "' is not of the form NxM (N nodes of M ranks each, e.g. 3x2)";
  else if (!spec.empty() && static_cast<long long>(nodes) * per != R)
    problem = "topology '" + spec + "' describes " + std::to_string(static_cast<long long>(nodes) * per) +
              " ranks but the communicator has " + std::to_string(R);
  detail::Replicated args;
  args.given("topology spec (argument or HPART_TOPOLOGY)", !spec.empty(), false)
      .value("topology nodes", static_cast<long long>(nodes))
      .value("topology ranks per node", static_cast<long long>(per));
  detail::agree(comm, args, problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);
  if (!spec.empty()) {
    t.nodes = nodes;
    for (int r = 0; r < R; ++r) t.node_of_rank.push_back(r / per);
    t.source = spec;
    add_numa(comm, t);
    return t;
  }
  // Shared-memory domains; nodes numbered by their lowest rank.
  MPI_Comm shared;
  MPI_Comm_split_type(comm.get(), MPI_COMM_TYPE_SHARED, comm.rank(), MPI_INFO_NULL, &shared);
  int leader = comm.rank();
  MPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_MIN, shared);
  MPI_Comm_free(&shared);
  std::vector<int> leaders(static_cast<std::size_t>(R));
  MPI_Allgather(&leader, 1, MPI_INT, leaders.data(), 1, MPI_INT, comm.get());
  std::vector<int> distinct = leaders;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  t.nodes = static_cast<int>(distinct.size());
  for (int l : leaders)
    t.node_of_rank.push_back(static_cast<int>(std::lower_bound(distinct.begin(), distinct.end(), l) - distinct.begin()));
  t.source = "shared-memory";
  add_numa(comm, t);
  return t;
}

}  // namespace hpart
