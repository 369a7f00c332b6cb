#include "graph/graph_symmetry.hpp"

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include <mpi.h>

#include "graph/edge_fingerprint.hpp"
#include "core/file_line.hpp"
#include "core/exchange.hpp"
#include "core/vertex_blocks.hpp"

namespace hpart::detail {
namespace {

// An edge as its far end's owner checks it: `from` lists `to` with `weight`.
struct EdgeRecord {
  gid_t to, from;
  std::int64_t weight;
  long long from_tag;
};

bool before(const GraphDefect& a, const GraphDefect& b) {
  if (b.kind == GraphDefect::Kind::none) return a.kind != GraphDefect::Kind::none;
  if (a.kind == GraphDefect::Kind::none) return false;
  return std::tie(a.vertex, a.neighbour, a.kind) < std::tie(b.vertex, b.neighbour, b.kind);
}

// Each local vertex's (neighbour, weight) pairs sorted by neighbour: duplicates become adjacent
// and a far end's query is a binary search, with O(local edges) extra memory.
class SortedAdjacency {
 public:
  explicit SortedAdjacency(const Graph& g) : xadj_(g.xadj), pairs_(g.entries()) {
    for (std::size_t e = 0; e < pairs_.size(); ++e) pairs_[e] = {g.neighbour(e), g.adjwgt.empty() ? 1 : g.adjwgt[e]};
    const auto n = static_cast<std::int64_t>(g.local_vertices());
#pragma omp parallel for schedule(dynamic, 256)
    for (std::int64_t v = 0; v < n; ++v)
      std::sort(pairs_.begin() + xadj_[static_cast<std::size_t>(v)], pairs_.begin() + xadj_[static_cast<std::size_t>(v) + 1]);
  }
  [[nodiscard]] std::span<const std::pair<gid_t, std::int64_t>> row(std::size_t v) const {
    return std::span(pairs_).subspan(static_cast<std::size_t>(xadj_[v]), static_cast<std::size_t>(xadj_[v + 1] - xadj_[v]));
  }

 private:
  IntSpan xadj_;  // the caller's offsets, at their width
  std::vector<std::pair<gid_t, std::int64_t>> pairs_;
};

}  // namespace

GraphDefect find_graph_asymmetry(const Comm& comm, const Graph& g, std::span<const long long> tags,
                                 const EdgeFingerprint* screened, std::span<std::uint64_t> totals) {
  const auto n = g.local_vertices();
  const gid_t base = g.vtxdist[static_cast<std::size_t>(comm.rank())];
  // The screen (hashes, no exchange, no sorted copy) passes almost every graph users give; the
  // exact check below runs only to find and name the defect the screen has proven to exist.
  const EdgeFingerprint fp = screened ? *screened : edge_fingerprint(g, base);
  constexpr std::uint64_t kHalf = (std::uint64_t{1} << 31) - 1;
  std::vector<std::uint64_t> sums{fp.a, fp.b, fp.duplicate ? 1ULL : 0ULL};
  for (std::size_t i = 0; i < totals.size(); ++i) sums.insert(sums.end(), {fp.totals[i] >> 31, fp.totals[i] & kHalf});
  MPI_Allreduce(MPI_IN_PLACE, sums.data(), static_cast<int>(sums.size()), MPI_UINT64_T, MPI_SUM, comm.get());
  for (std::size_t i = 0; i < totals.size(); ++i) {
    const std::uint64_t high = sums[3 + 2 * i] + (sums[4 + 2 * i] >> 31), low = sums[4 + 2 * i] & kHalf;
    totals[i] = high >= (kTotalLimit >> 31) ? kTotalLimit : (high << 31) | low;
  }
  if (sums[0] == 0 && sums[1] == 0 && sums[2] == 0) return {};
  auto tag = [&](std::size_t v) { return tags.empty() ? 0LL : tags[v]; };
  const SortedAdjacency sorted(g);
  GraphDefect first;
  auto consider = [&](const GraphDefect& d) {
    if (before(d, first)) first = d;
  };
  for (std::size_t v = 0; v < n; ++v) {
    const auto row = sorted.row(v);
    for (std::size_t k = 1; k < row.size(); ++k)
      if (row[k].first == row[k - 1].first) {
        consider({GraphDefect::Kind::duplicate, base + static_cast<gid_t>(v), row[k].first, row[k].second, 0, tag(v), 0});
        break;
      }
  }
  // Local vertex v must list `r.from` with `r.weight`.
  auto check = [&](const EdgeRecord& r) {
    const auto v = static_cast<std::size_t>(r.to - base);
    const auto row = sorted.row(v);
    const auto it = std::lower_bound(row.begin(), row.end(), std::pair<gid_t, std::int64_t>{r.from, INT64_MIN});
    if (it == row.end() || it->first != r.from)
      consider({GraphDefect::Kind::missing, r.to, r.from, 0, r.weight, tag(v), r.from_tag});
    else if (it->second != r.weight)
      consider({GraphDefect::Kind::weight, r.to, r.from, it->second, r.weight, tag(v), r.from_tag});
  };

  // Far ends on other ranks: a counting sort of the edges by owner, then one exchange.
  const int R = comm.size();
  std::vector<std::int64_t> counts(static_cast<std::size_t>(R), 0);
  std::vector<int> owner(g.entries());
  for (std::size_t e = 0; e < owner.size(); ++e) {
    owner[e] = owner_of(g.vtxdist, g.neighbour(e));
    ++counts[static_cast<std::size_t>(owner[e])];
  }
  counts[static_cast<std::size_t>(comm.rank())] = 0;
  std::vector<std::int64_t> offset(static_cast<std::size_t>(R) + 1, 0);
  for (int q = 0; q < R; ++q) offset[static_cast<std::size_t>(q) + 1] = offset[static_cast<std::size_t>(q)] + counts[static_cast<std::size_t>(q)];
  std::vector<EdgeRecord> send(static_cast<std::size_t>(offset.back()));
  for (std::size_t v = 0; v < n; ++v) {
    for (auto e = static_cast<std::size_t>(g.xadj[v]); e < static_cast<std::size_t>(g.xadj[v + 1]); ++e) {
      const EdgeRecord r{g.neighbour(e), base + static_cast<gid_t>(v), g.adjwgt.empty() ? 1 : g.adjwgt[e], tag(v)};
      if (owner[e] == comm.rank())
        check(r);
      else
        send[static_cast<std::size_t>(offset[static_cast<std::size_t>(owner[e])]++)] = r;
    }
  }
  for (const EdgeRecord& r : detail::alltoallv_records<EdgeRecord>(comm, send, counts).records) check(r);
  return first;
}

std::string describe_defect(const GraphDefect& d, gid_t id_base, const std::string& path) {
  const std::string v = std::to_string(d.vertex + id_base), u = std::to_string(d.neighbour + id_base);
  const bool lines = !path.empty();
  auto line_of = [&](long long tag) { return lines ? " (line " + std::to_string(tag) + ")" : std::string(); };
  switch (d.kind) {
    case GraphDefect::Kind::none:
      return {};
    case GraphDefect::Kind::missing: {
      const std::string what = "asymmetric: vertex " + u + " lists " + v + " but " + v + line_of(d.vertex_tag) +
                               " does not list " + u;
      return lines ? at_line(path, d.neighbour_tag, what) : what;
    }
    case GraphDefect::Kind::weight: {
      const std::string what = "asymmetric edge weight: vertex " + v + " lists " + u + " with weight " +
                               std::to_string(d.weight) + ", but " + u + line_of(d.neighbour_tag) + " lists " + v +
                               " with weight " + std::to_string(d.neighbour_weight);
      return lines ? at_line(path, d.vertex_tag, what) : what;
    }
    case GraphDefect::Kind::duplicate: {
      const std::string what = "vertex " + v + " lists " + u + " more than once (duplicate edge)";
      return lines ? at_line(path, d.vertex_tag, what) : what;
    }
  }
  return {};
}

}  // namespace hpart::detail
