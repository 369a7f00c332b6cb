// hpart's binary graph files, written in parallel: each rank writes its block's slices of the
// sections at offsets from exclusive scans of the ranks' vertex and adjacency counts, through
// bounded buffers (ids and global offsets are converted piece by piece), into one file that any
// rank count reads.
#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "hpart/graph.hpp"
#include "hpart/graph_io.hpp"
#include "io/binary_graph_layout.hpp"
#include "io/mpi_file.hpp"

namespace hpart {
namespace {

using detail::FileOffset;

constexpr std::size_t kPiece = std::size_t{1} << 20;

// Writes values[i] + add as T (int32 or int64), piece by piece.
template <class T, class V>
void write_converted(const detail::MpiFile& file, FileOffset offset, std::span<const V> values, std::int64_t add) {
  std::vector<T> piece(std::min(values.size(), kPiece));
  for (std::size_t done = 0; done < values.size(); done += piece.size()) {
    const std::size_t k = std::min(piece.size(), values.size() - done);
    for (std::size_t i = 0; i < k; ++i) piece[i] = static_cast<T>(values[done + i] + add);
    file.write_at(static_cast<long long>(offset + sizeof(T) * static_cast<FileOffset>(done)),
                  reinterpret_cast<const char*>(piece.data()), k * sizeof(T));
  }
}

template <class T>
void write_raw(const detail::MpiFile& file, FileOffset offset, std::span<const T> values) {
  file.write_at(static_cast<long long>(offset), reinterpret_cast<const char*>(values.data()), values.size_bytes());
}

// Values written at the file's width T: in one write when the graph holds them at T, else
// converted piece by piece.
template <class T>
void write_at_width(const detail::MpiFile& file, FileOffset offset, IntSpan values) {
  if constexpr (std::is_same_v<T, std::int32_t>) {
    if (values.is32()) write_raw(file, offset, values.as32());
    else write_converted<T>(file, offset, values.as64(), 0);
  } else {
    if (!values.is32()) write_raw(file, offset, values.as64());
    else write_converted<T>(file, offset, values.as32(), 0);
  }
}

}  // namespace

void write_graph_binary(const Comm& comm, const std::string& path, const Graph& g, std::span<const std::int64_t> vsize) {
  validate_graph(comm, g);
  const auto n = static_cast<std::int64_t>(g.local_vertices());
  const bool sizes_ok = vsize.empty() || static_cast<std::int64_t>(vsize.size()) == n;
  comm.agree(sizes_ok ? ErrorCode::ok : ErrorCode::size_mismatch,
             sizes_ok ? std::string() : "write_graph_binary: vsize has " + std::to_string(vsize.size()) +
                                            " values for " + std::to_string(n) + " local vertices");
  const auto r = static_cast<std::size_t>(comm.rank());
  const std::int64_t entries = n > 0 ? g.xadj[static_cast<std::size_t>(n)] : 0;
  const std::int64_t e0 = comm.exscan_sum(entries), total = comm.sum(entries);
  detail::BinaryGraphHeader h{};
  std::memcpy(h.magic, kBinaryGraphMagic, 8);
  h.version = detail::kBinaryGraphVersion;
  h.byte_order = detail::kByteOrderMark;
  h.vertices = g.vtxdist.back();
  h.edges = total / 2;
  h.ncon = g.ncon;
  h.flags = (comm.max(g.vwgt.empty() ? 0 : 1) ? detail::kHasVertexWeights : 0U) |
            (comm.max(g.adjwgt.empty() ? 0 : 1) ? detail::kHasEdgeWeights : 0U) |
            (comm.max(vsize.empty() ? 0 : 1) ? detail::kHasVertexSizes : 0U) | (g.dim > 0 ? detail::kHasCoords : 0U);
  h.id_bytes = h.vertices <= INT32_MAX ? 4 : 8;
  h.dim = g.dim;
  const bool all_sizes = (h.flags & detail::kHasVertexSizes) == 0 || n == 0 || !vsize.empty();
  comm.agree(all_sizes ? ErrorCode::ok : ErrorCode::invalid_argument,
             all_sizes ? std::string() : "write_graph_binary: vsize given on some ranks with vertices but not on others");
  const detail::BinaryGraphSections at(h);
  const auto first = static_cast<FileOffset>(g.vtxdist[r]);
  const auto ncon = static_cast<FileOffset>(g.ncon);

  const detail::MpiFile file(comm, path, detail::MpiFile::Mode::write_truncate);
  std::string message;
  try {
    if (comm.rank() == 0) file.write_at(0, reinterpret_cast<const char*>(&h), sizeof h);
    if (n > 0)
      g.xadj.first(static_cast<std::size_t>(n)).visit([&](auto s) { write_converted<std::int64_t>(file, at.xadj + 8 * first, s, e0); });
    if (comm.rank() == comm.size() - 1) write_raw<std::int64_t>(file, at.adjncy - 8, std::span(&total, 1));
    // The neighbour ids at whichever width the graph holds them, written at the file's.
    const auto E = static_cast<std::size_t>(entries);
    const IntSpan ids = g.adjncy32.empty() ? IntSpan(g.adjncy.first(E)) : IntSpan(g.adjncy32.first(E));
    const FileOffset ids_at = at.adjncy + static_cast<FileOffset>(h.id_bytes) * static_cast<FileOffset>(e0);
    if (h.id_bytes == 4) write_at_width<std::int32_t>(file, ids_at, ids);
    else write_at_width<std::int64_t>(file, ids_at, ids);
    // The file holds 64-bit weights.
    if (!g.vwgt.empty()) write_at_width<std::int64_t>(file, at.vwgt + 8 * first * ncon, g.vwgt);
    if (!g.adjwgt.empty()) write_at_width<std::int64_t>(file, at.adjwgt + 8 * static_cast<FileOffset>(e0), g.adjwgt);
    if (!vsize.empty()) write_raw(file, at.vsize + 8 * first, vsize);
    if (g.dim > 0) write_raw(file, at.coords + 8 * first * static_cast<FileOffset>(g.dim), g.coords);
  } catch (const Error& e) {
    message = e.what();
  }
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::io, message);
}

void write_graph_binary(const Comm& comm, const std::string& path, const GraphFile& f) {
  write_graph_binary(comm, path, f.view(), f.vsize);
}

}  // namespace hpart
