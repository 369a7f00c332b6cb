// METIS .graph files, written in parallel: each rank formats its block's lines (std::to_chars,
// no locale), rank 0 adds the header, and one ordered MPI-IO write puts the texts one after
// another (write_ordered_text: offsets from an exclusive scan of their sizes).
#include <charconv>
#include <string>

#include "hpart/graph.hpp"
#include "hpart/graph_io.hpp"
#include "io/mpi_file.hpp"

namespace hpart {
namespace {

void put(std::string& text, std::int64_t value) {
  char digits[24];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
  text.append(digits, end);
}

}  // namespace

void write_graph_metis(const Comm& comm, const std::string& path, const Graph& g, std::span<const std::int64_t> vsize) {
  validate_graph(comm, g);
  const std::size_t n = g.local_vertices();
  const bool sizes_ok = vsize.empty() || vsize.size() == n;
  comm.agree(sizes_ok ? ErrorCode::ok : ErrorCode::size_mismatch,
             sizes_ok ? std::string() : "write_graph_metis: vsize has " + std::to_string(vsize.size()) + " values for " +
                                            std::to_string(n) + " local vertices");
  const bool sizes = comm.max(vsize.empty() ? 0 : 1) == 1, vw = comm.max(g.vwgt.empty() ? 0 : 1) == 1;
  const bool ew = comm.max(g.adjwgt.empty() ? 0 : 1) == 1;
  const std::int64_t entries = comm.sum(n > 0 ? g.xadj[n] : std::int64_t{0});
  std::string text;
  if (comm.rank() == 0) {
    text = std::to_string(g.vtxdist.back()) + " " + std::to_string(entries / 2);
    if (sizes || vw || ew) text += std::string(" ") + (sizes ? '1' : '0') + (vw ? '1' : '0') + (ew ? '1' : '0');
    if (vw && g.ncon > 1) text += " " + std::to_string(g.ncon);
    text += '\n';
  }
  const auto ncon = static_cast<std::size_t>(g.ncon);
  // About 8 bytes a number: reserved once, so the text is not regrown.
  text.reserve(text.size() + 8 * (n * (1 + ncon) + (n > 0 ? static_cast<std::size_t>(g.xadj[n]) : 0) * (ew ? 2 : 1)));
  for (std::size_t v = 0; v < n; ++v) {
    bool sep = false;
    auto field = [&](std::int64_t x) {
      if (sep) text += ' ';
      put(text, x);
      sep = true;
    };
    if (sizes) field(vsize.empty() ? 1 : vsize[v]);
    if (vw)
      for (std::size_t c = 0; c < ncon; ++c) field(g.vwgt.empty() ? 1 : g.vwgt[v * ncon + c]);
    for (auto e = static_cast<std::size_t>(g.xadj[v]); e < static_cast<std::size_t>(g.xadj[v + 1]); ++e) {
      field(g.neighbour(e) + 1);
      if (ew) field(g.adjwgt.empty() ? 1 : g.adjwgt[e]);
    }
    text += '\n';
  }
  detail::write_ordered_text(comm, path, text);
}

void write_graph_metis(const Comm& comm, const std::string& path, const GraphFile& f) {
  write_graph_metis(comm, path, f.view(), f.vsize);
}

}  // namespace hpart
