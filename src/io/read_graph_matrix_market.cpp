// MatrixMarket coordinate files as graphs, read in parallel: every rank parses the entry lines
// that start in its byte range (matrix_market_lines, a pure kernel), sends each off-diagonal
// entry (i, j) to the owners of i and j as the directed edges i->j and j->i, and each owner
// sorts and dedupes its rows. So a general matrix is symmetrised (its pattern plus transpose),
// a symmetric one (one triangle stored) expanded, and an entry stored twice counted once.
#include <algorithm>
#include <string>
#include <vector>

#include "io/graph_lines.hpp"
#include "io/headed_text.hpp"
#include "io/matrix_market_lines.hpp"
#include "io/reader_memory.hpp"
#include "core/exchange.hpp"
#include "core/vertex_blocks.hpp"
#include "hpart/graph.hpp"

namespace hpart {
namespace {

struct Arc {  // one direction of an entry, sent to the owner of `from`
  gid_t from, to;
  auto operator<=>(const Arc&) const = default;
};

// Both directions of every entry, grouped by the owner of their first vertex.
std::vector<Arc> arcs_by_owner(const std::vector<gid_t>& pairs, std::span<const gid_t> vtxdist,
                               std::vector<std::int64_t>& counts) {
  std::vector<Arc> arcs;
  arcs.reserve(pairs.size());
  for (std::size_t k = 0; k < pairs.size(); k += 2) {
    arcs.push_back({pairs[k], pairs[k + 1]});
    arcs.push_back({pairs[k + 1], pairs[k]});
  }
  std::vector<int> owner(arcs.size());
  for (std::size_t a = 0; a < arcs.size(); ++a) ++counts[static_cast<std::size_t>(owner[a] = detail::owner_of(vtxdist, arcs[a].from))];
  std::vector<std::int64_t> next(counts.size(), 0);
  for (std::size_t q = 1; q < counts.size(); ++q) next[q] = next[q - 1] + counts[q - 1];
  std::vector<Arc> grouped(arcs.size());
  for (std::size_t a = 0; a < arcs.size(); ++a) grouped[static_cast<std::size_t>(next[static_cast<std::size_t>(owner[a])]++)] = arcs[a];
  return grouped;
}

}  // namespace

GraphFile read_graph_matrix_market(const Comm& comm, const std::string& path) {
  detail::HeadedText t = detail::read_headed_text(comm, path);
  // Line 1 is on rank 0 whenever the file is not empty (rank 0's byte range starts at 0).
  detail::MatrixMarketBanner banner;
  if (const std::string why = detail::parse_matrix_market_banner(detail::share_line(comm, t.text, 0, 0), banner);
      !why.empty())
    throw Error(ErrorCode::io, detail::at_line(path, 1, why));
  detail::MatrixMarketSize size;
  if (const std::string why = detail::parse_matrix_market_size(t.header, size); !why.empty())
    throw Error(ErrorCode::io, detail::at_line(path, t.header_line, why));

  const long long first = comm.exscan_sum(detail::count_body_lines(t.text, t.body_from, false));
  detail::MatrixEntries entries;
  const std::string out_of_memory = detail::parse_within_memory(path, t.text.size(), [&] {
    entries = detail::parse_matrix_market_entries(t.text, t.body_from, banner, size, first);
  });
  std::string().swap(t.text);  // the entries hold all that is needed now
  const std::string bad = !out_of_memory.empty()  ? out_of_memory
                          : entries.bad_line < 0 ? std::string()
                                                 : detail::at_line(path, t.first_line + entries.bad_line, entries.bad_reason);
  comm.agree(bad.empty() ? ErrorCode::ok : out_of_memory.empty() ? ErrorCode::io : ErrorCode::invalid_input, bad);
  const long long found = comm.sum(entries.entries);
  if (found != size.entries)
    throw Error(ErrorCode::io, path + ": truncated file: the size line (line " + std::to_string(t.header_line) +
                                   ") says nnz = " + std::to_string(size.entries) + " entries, found " + std::to_string(found));
  // A valid file may declare many more rows than entries (N = 3e9, one entry): the offsets of
  // the rank's block of vertices are what may not fit. Per entry (two ids here): both arcs, their
  // grouped copy and owner, the arcs received (on a balanced file) and the adjacency built.
  const std::string memory = detail::check_vertex_block_memory(comm, path, size.rows, 8.0,
                                                               static_cast<double>(entries.pairs.size()) * 60.0);
  comm.agree(memory.empty() ? ErrorCode::ok : ErrorCode::invalid_input, memory);

  GraphFile f;
  f.vtxdist = detail::block_vtxdist(size.rows, comm.size());
  std::vector<std::int64_t> counts(static_cast<std::size_t>(comm.size()), 0);
  const std::vector<Arc> send = arcs_by_owner(entries.pairs, f.vtxdist, counts);
  entries = {};
  std::vector<Arc> arcs = detail::alltoallv_records<Arc>(comm, send, counts).records;
  std::sort(arcs.begin(), arcs.end());
  arcs.erase(std::unique(arcs.begin(), arcs.end()), arcs.end());

  const gid_t base = f.vtxdist[static_cast<std::size_t>(comm.rank())];
  const auto n = static_cast<std::size_t>(f.vtxdist[static_cast<std::size_t>(comm.rank()) + 1] - base);
  f.xadj.assign(n + 1, 0);
  f.adjncy.reserve(arcs.size());
  for (const Arc& a : arcs) {
    ++f.xadj[static_cast<std::size_t>(a.from - base) + 1];
    f.adjncy.push_back(a.to);
  }
  for (std::size_t v = 0; v < n; ++v) f.xadj[v + 1] += f.xadj[v];
  f.global_vertices = size.rows;
  f.global_edges = comm.sum(static_cast<long long>(f.adjncy.size())) / 2;
  return f;
}

}  // namespace hpart
