#pragma once
// The layout of hpart's binary graph files (docs/graphs_io.md, "Binary graphs"), shared by the
// reader and the writer: a 64-byte header, then the sections in a fixed order, each at an offset
// that the header's N, M, ncon, dim, flags and id width determine.
#include <cstdint>
#include <cstring>
#include <string>

#include "hpart/graph_io.hpp"
#include "hpart/types.hpp"

namespace hpart::detail {

inline constexpr std::uint32_t kBinaryGraphVersion = 1;
inline constexpr std::uint32_t kByteOrderMark = 0x01020304;  // reads 0x04030201 on the other byte order

enum BinaryGraphFlags : std::uint32_t {
  kHasVertexWeights = 1,
  kHasEdgeWeights = 2,
  kHasVertexSizes = 4,
  kHasCoords = 8,
};

struct BinaryGraphHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t byte_order;
  std::int64_t vertices;  // N
  std::int64_t edges;     // M: undirected, so the adjacency holds 2M entries
  std::int32_t ncon;
  std::uint32_t flags;
  std::int32_t id_bytes;  // 4 (N < 2^31) or 8
  std::int32_t dim;       // 0, 2 or 3 (coordinates with kHasCoords)
  std::uint8_t reserved[16];
};
static_assert(sizeof(BinaryGraphHeader) == 64);

// Byte offsets of the sections (exact: N and M are at most 2^62, checked before this is used, and
// every product below is taken in 128 bits).
__extension__ typedef unsigned __int128 FileOffset;  // GCC and Clang; -Wpedantic needs the marker

struct BinaryGraphSections {
  FileOffset xadj, adjncy, vwgt, adjwgt, vsize, coords, end;
  explicit BinaryGraphSections(const BinaryGraphHeader& h) {
    using U = FileOffset;
    const U n = static_cast<U>(h.vertices), entries = 2 * static_cast<U>(h.edges);
    xadj = sizeof(BinaryGraphHeader);
    adjncy = xadj + 8 * (n + 1);
    vwgt = adjncy + static_cast<U>(h.id_bytes) * entries;
    adjwgt = vwgt + ((h.flags & kHasVertexWeights) ? 8 * n * static_cast<U>(h.ncon) : 0);
    vsize = adjwgt + ((h.flags & kHasEdgeWeights) ? 8 * entries : 0);
    coords = vsize + ((h.flags & kHasVertexSizes) ? 8 * n : 0);
    end = coords + ((h.flags & kHasCoords) ? 8 * n * static_cast<U>(h.dim) : 0);
  }
};

}  // namespace hpart::detail
