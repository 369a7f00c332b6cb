// hpart's binary graph files, read in parallel: rank 0 reads the 64-byte header and broadcasts
// it, every rank checks it alike (so header errors need no agreement), then each rank reads its
// block's slices of the sections and checks the values; the lowest failing rank's message wins,
// so the first bad vertex of the file is named whatever the rank count.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "core/memory_budget.hpp"
#include "core/vertex_blocks.hpp"
#include "hpart/graph_io.hpp"
#include "io/binary_graph_layout.hpp"
#include "io/file_limits.hpp"
#include "io/huge_pages.hpp"
#include "io/mpi_file.hpp"

namespace hpart {
namespace {

using detail::BinaryGraphHeader;
using detail::FileOffset;
using detail::kMaxFileCount;

template <class T>
std::string str(T v) {
  return std::to_string(static_cast<long long>(v));
}
std::string bytes_text(FileOffset v) { return std::to_string(static_cast<unsigned long long>(v)); }

// Why the header (and the file's size) cannot be read, or "".
std::string check_header(const BinaryGraphHeader& h, long long file_size) {
  if (file_size < 8 || std::memcmp(h.magic, kBinaryGraphMagic, 8) != 0)
    return "not an hpart binary graph (wrong magic: the file does not start with \"" + std::string(kBinaryGraphMagic) + "\")";
  if (file_size < static_cast<long long>(sizeof(BinaryGraphHeader)))
    return "truncated file: " + str(file_size) + " bytes, shorter than the 64-byte header";
  if (h.byte_order != detail::kByteOrderMark)
    return h.byte_order == 0x04030201 ? "written on a machine of the other byte order (not supported)"
                                      : "bad byte-order mark " + str(static_cast<long long>(h.byte_order));
  if (h.version != detail::kBinaryGraphVersion)
    return "unsupported version " + str(static_cast<long long>(h.version)) + " (this hpart reads version " +
           str(static_cast<long long>(detail::kBinaryGraphVersion)) + ")";
  if (h.vertices < 0 || h.vertices > kMaxFileCount) return "vertex count N = " + str(h.vertices) + " must be in [0, 2^62]";
  if (h.edges < 0 || h.edges > kMaxFileCount) return "edge count M = " + str(h.edges) + " must be in [0, 2^62]";
  if (h.ncon < 1) return "ncon = " + str(h.ncon) + " must be >= 1";
  if ((h.flags & ~15U) != 0) return "unknown flags " + str(static_cast<long long>(h.flags));
  if (h.id_bytes != 8 && (h.id_bytes != 4 || h.vertices > INT32_MAX))
    return "id width " + str(h.id_bytes) + " bytes: must be 8, or 4 when N < 2^31";
  const bool coords = (h.flags & detail::kHasCoords) != 0;
  if (coords ? (h.dim != 2 && h.dim != 3) : h.dim != 0)
    return "dim = " + str(h.dim) + (coords ? " must be 2 or 3" : " without coordinates must be 0");
  const detail::BinaryGraphSections at(h);
  if (at.end != static_cast<FileOffset>(file_size))
    return (at.end > static_cast<FileOffset>(file_size) ? "truncated file: the header says " : "the header says ") +
           str(h.vertices) + " vertices and " + str(h.edges) + " edges, which take " + bytes_text(at.end) +
           " bytes, but the file has " + str(file_size);
  return {};
}

// Reads `count` values of `bytes` each (4 or 8) at `offset` as int64 into out (appended).
void read_values(const detail::MpiFile& file, FileOffset offset, std::size_t count, int bytes,
                 std::vector<std::int64_t>& out, const std::string& path) {
  const std::size_t first = out.size();
  out.reserve(first + count);
  detail::advise_huge_pages(out);  // before the first touch: 512x fewer page faults
  out.resize(first + count);
  if (bytes == 8) {
    const std::size_t want = count * 8;
    if (file.read_at(static_cast<long long>(offset), reinterpret_cast<char*>(out.data() + first), want) != want)
      throw Error(ErrorCode::io, path + ": truncated file: the file ended while reading it");
    return;
  }
  // 32-bit ids: converted through a bounded buffer (no second array of the block's size).
  constexpr std::size_t kPiece = std::size_t{1} << 20;
  std::vector<std::int32_t> piece(std::min(count, kPiece));
  for (std::size_t done = 0; done < count; done += piece.size()) {
    const std::size_t k = std::min(piece.size(), count - done);
    if (file.read_at(static_cast<long long>(offset + 4 * static_cast<FileOffset>(done)), reinterpret_cast<char*>(piece.data()),
                     k * 4) != k * 4)
      throw Error(ErrorCode::io, path + ": truncated file: the file ended while reading it");
    std::copy(piece.begin(), piece.begin() + static_cast<std::ptrdiff_t>(k), out.begin() + static_cast<std::ptrdiff_t>(first + done));
  }
}

// This rank's slices, checked; "" or the first problem (0-based vertex ids, as in memory).
std::string read_block(const detail::MpiFile& file, const BinaryGraphHeader& h, gid_t lo, gid_t hi, GraphFile& f,
                       const std::string& path) {
  const detail::BinaryGraphSections at(h);
  const auto n = static_cast<std::size_t>(hi - lo);
  const std::int64_t entries_total = 2 * h.edges;
  std::vector<std::int64_t> offsets;
  read_values(file, at.xadj + 8 * static_cast<FileOffset>(lo), n + 1, 8, offsets, path);
  if (lo == 0 && offsets[0] != 0) return "xadj[0] = " + str(offsets[0]) + " must be 0";
  for (std::size_t i = 0; i <= n; ++i) {
    if (offsets[i] < 0 || offsets[i] > entries_total)
      return "xadj[" + str(lo + static_cast<gid_t>(i)) + "] = " + str(offsets[i]) + " is outside [0, 2M = " +
             str(entries_total) + "]";
    if (i > 0 && offsets[i] < offsets[i - 1])
      return "xadj[" + str(lo + static_cast<gid_t>(i)) + "] = " + str(offsets[i]) + " is less than xadj[" +
             str(lo + static_cast<gid_t>(i) - 1) + "] = " + str(offsets[i - 1]) + " (offsets must not decrease)";
  }
  if (hi == h.vertices && offsets[n] != entries_total)
    return "xadj[N] = " + str(offsets[n]) + " must be 2M = " + str(entries_total);
  const std::int64_t e0 = offsets[0];
  const auto entries = static_cast<std::size_t>(offsets[n] - e0);
  const bool vw = (h.flags & detail::kHasVertexWeights) != 0, ew = (h.flags & detail::kHasEdgeWeights) != 0;
  const bool vs = (h.flags & detail::kHasVertexSizes) != 0, xyz = (h.flags & detail::kHasCoords) != 0;
  const double bytes = 8.0 * static_cast<double>(n) * (1 + (vw ? h.ncon : 0) + (vs ? 1 : 0) + (xyz ? h.dim : 0)) +
                       8.0 * static_cast<double>(entries) * (ew ? 2 : 1);
  if (std::string m = detail::check_memory(bytes, "reading '" + path + "' (" + str(h.vertices) + " vertices, " +
                                              str(static_cast<long long>(n)) + " on this rank)",
                                   "each rank owns 1/R of the vertices: use more ranks, or ranks on more nodes");
      !m.empty())
    return m;
  f.xadj.reserve(n + 1);
  detail::advise_huge_pages(f.xadj);
  f.xadj.resize(n + 1);
  for (std::size_t i = 0; i <= n; ++i) f.xadj[i] = offsets[i] - e0;
  std::vector<std::int64_t>().swap(offsets);
  read_values(file, at.adjncy + static_cast<FileOffset>(h.id_bytes) * static_cast<FileOffset>(e0), entries, h.id_bytes,
              f.adjncy, path);
  for (std::size_t v = 0; v < n; ++v)
    for (auto e = static_cast<std::size_t>(f.xadj[v]); e < static_cast<std::size_t>(f.xadj[v + 1]); ++e)
      if (f.adjncy[e] < 0 || f.adjncy[e] >= h.vertices)
        return "vertex " + str(lo + static_cast<gid_t>(v)) + " lists neighbour " + str(f.adjncy[e]) +
               ", outside [0, N = " + str(h.vertices) + ") (ids are 0-based)";
  if (vw) {
    read_values(file, at.vwgt + 8 * static_cast<FileOffset>(lo) * static_cast<FileOffset>(h.ncon),
                n * static_cast<std::size_t>(h.ncon), 8, f.vwgt, path);
    for (std::size_t i = 0; i < f.vwgt.size(); ++i)
      if (f.vwgt[i] < 0)
        return "vertex " + str(lo + static_cast<gid_t>(i / static_cast<std::size_t>(h.ncon))) + " has weight " +
               str(f.vwgt[i]) + ": weights must be >= 0";
  }
  if (ew) {
    read_values(file, at.adjwgt + 8 * static_cast<FileOffset>(e0), entries, 8, f.adjwgt, path);
    for (std::size_t v = 0; v < n; ++v)
      for (auto e = static_cast<std::size_t>(f.xadj[v]); e < static_cast<std::size_t>(f.xadj[v + 1]); ++e)
        if (f.adjwgt[e] <= 0)
          return "vertex " + str(lo + static_cast<gid_t>(v)) + ": edge weight " + str(f.adjwgt[e]) + " (to " +
                 str(f.adjncy[e]) + ") must be > 0";
  }
  if (vs) {
    read_values(file, at.vsize + 8 * static_cast<FileOffset>(lo), n, 8, f.vsize, path);
    for (std::size_t v = 0; v < n; ++v)
      if (f.vsize[v] < 0) return "vertex " + str(lo + static_cast<gid_t>(v)) + " has size " + str(f.vsize[v]) + " < 0";
  }
  if (xyz) {
    f.coords.resize(n * static_cast<std::size_t>(h.dim));
    const std::size_t want = f.coords.size() * 8;
    if (file.read_at(static_cast<long long>(at.coords + 8 * static_cast<FileOffset>(lo) * static_cast<FileOffset>(h.dim)),
                     reinterpret_cast<char*>(f.coords.data()), want) != want)
      return "truncated file: the file ended while reading it";
    f.dim = h.dim;
  }
  return {};
}

}  // namespace

GraphFile read_graph_binary(const Comm& comm, const std::string& path) {
  const detail::MpiFile file(comm, path, detail::MpiFile::Mode::read);
  BinaryGraphHeader h{};
  long long size = 0;
  std::string message;
  if (comm.rank() == 0) {
    try {
      size = file.size();
      file.read_at(0, reinterpret_cast<char*>(&h), sizeof h);
    } catch (const Error& e) {
      message = e.what();
    }
  }
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::io, message);
  MPI_Bcast(&h, sizeof h, MPI_BYTE, 0, comm.get());
  MPI_Bcast(&size, 1, MPI_LONG_LONG, 0, comm.get());
  // Every rank holds the same header and size: the same verdict everywhere, without agreement.
  if (const std::string why = check_header(h, size); !why.empty()) throw Error(ErrorCode::io, path + ": " + why);

  GraphFile f;
  f.vtxdist = detail::block_vtxdist(h.vertices, comm.size());
  f.ncon = h.ncon;
  f.global_vertices = h.vertices;
  f.global_edges = h.edges;
  const auto r = static_cast<std::size_t>(comm.rank());
  try {
    message = read_block(file, h, f.vtxdist[r], f.vtxdist[r + 1], f, path);
    if (!message.empty() && message.rfind("reading '", 0) != 0) message = path + ": " + message;
  } catch (const Error& e) {
    message = e.what();
  } catch (const std::bad_alloc&) {
    message = "reading '" + path + "': out of memory for this rank's block: use more ranks";
  }
  comm.agree(message.empty() ? ErrorCode::ok : ErrorCode::io, message);
  return f;
}

}  // namespace hpart
