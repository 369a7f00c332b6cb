// libFuzzer target for the pure graph line parsers: any bytes must parse without a crash, a
// sanitizer report, or an allocation driven by header numbers rather than by the input, and every
// accepted result must satisfy what the MPI readers rely on (checked below; a violation traps).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "io/graph_lines.hpp"
#include "io/matrix_market_lines.hpp"
#include "io/vertex_scan.hpp"

namespace {

using namespace hpart::detail;

void require(bool ok) {
  if (!ok) __builtin_trap();
}

// The blamed line lies in the parsed range, and parsing stopped there.
template <class Parsed>
void check_blame(const Parsed& r, long long from, long long lines) {
  require(r.bad_line == -1 || (r.bad_line >= from && r.bad_line < lines && !r.bad_reason.empty()));
}

void fuzz_adjacency(std::string_view text, GraphDialect dialect, const LineCensus& census, hpart::gid_t first_vertex) {
  GraphHeader h;
  if (census.first_record < 0 || !parse_graph_header(line_at(text, census.first_record), dialect, h).empty()) return;
  require(h.vertices >= 0 && h.edges >= 0 && h.ncon >= 1);
  const long long from = census.first_record + 1;
  const ScannedRows<hpart::gid_t> r = parse_vertex_lines(text, from, h, first_vertex, dialect);
  const std::vector<long long> lines = r.lines();
  check_blame(r, from, census.lines);
  const std::size_t n = r.vertices();
  require(r.xadj.size() == n + 1 && r.xadj[0] == 0);
  for (std::size_t v = 0; v < n; ++v) {
    require(r.xadj[v] <= r.xadj[v + 1]);
    require(lines[v] >= from && (v == 0 || lines[v] > lines[v - 1]));
    for (auto e = static_cast<std::size_t>(r.xadj[v]); e < static_cast<std::size_t>(r.xadj[v + 1]); ++e)
      require(r.adjncy[e] >= 0 && r.adjncy[e] < h.vertices && r.adjncy[e] != first_vertex + static_cast<hpart::gid_t>(v));
  }
  require(static_cast<std::size_t>(r.xadj[n]) == r.adjncy.size());
  require(r.adjwgt.size() == (h.edge_weights ? r.adjncy.size() : 0));
  for (const std::int64_t w : r.adjwgt) require(w > 0);
  require(r.vwgt.size() == (h.vertex_weights ? n * static_cast<std::size_t>(h.ncon) : 0));
  for (const std::int64_t w : r.vwgt) require(w >= 0);
  require(first_vertex + static_cast<hpart::gid_t>(n) <= h.vertices || n == 0);
  if (r.bad_line < 0) require(count_body_lines(text, from, true) >= static_cast<long long>(n));
}

void fuzz_matrix_market(std::string_view text, const LineCensus& census, long long first_entry) {
  MatrixMarketBanner banner;
  MatrixMarketSize size;
  if (!parse_matrix_market_banner(line_at(text, 0), banner).empty() || census.first_record < 0 ||
      !parse_matrix_market_size(line_at(text, census.first_record), size).empty())
    return;
  const long long from = census.first_record + 1;
  const MatrixEntries e = parse_matrix_market_entries(text, from, banner, size, first_entry);
  check_blame(e, from, census.lines);
  require(e.pairs.size() % 2 == 0 && e.entries >= 0 && (e.entries == 0 || first_entry + e.entries <= size.entries));
  for (std::size_t k = 0; k < e.pairs.size(); k += 2)
    require(e.pairs[k] != e.pairs[k + 1] && e.pairs[k] >= 0 && e.pairs[k] < size.rows && e.pairs[k + 1] >= 0 &&
            e.pairs[k + 1] < size.rows);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const LineCensus census = census_lines(text);
  require(census.lines >= 0 && census.first_record < census.lines);
  // The buffer as the start of a file and, with the first byte choosing an offset, as a later
  // rank's share (its first vertex is not vertex 0).
  const hpart::gid_t later = size > 0 ? data[0] % 8 : 0;
  for (const hpart::gid_t first : {hpart::gid_t{0}, later}) {
    fuzz_adjacency(text, GraphDialect::metis, census, first);
    fuzz_adjacency(text, GraphDialect::chaco, census, first);
    fuzz_matrix_market(text, census, first);
  }
  return 0;
}
