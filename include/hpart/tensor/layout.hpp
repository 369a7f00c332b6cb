#pragma once
// How a tensor of global shape (N, C, D, H, W) is laid out over the ranks of a communicator: one
// box of the tensor per rank (possibly empty, possibly shared by replicas), and, for mesh layouts,
// the process mesh that gives each rank its neighbours. A 2-D tensor (N, C, H, W) is the case
// D = 1, so every kernel is written once for 3-D. No Kokkos here: layouts are plain values.
//
//   hpart::Comm comm{MPI_COMM_WORLD};
//   auto shape = TensorShape::d2(1, 16, 4096, 4096);
//   auto layout = ShardLayout::sharded(comm, shape, Mesh::grid2d(2, 2));   // H and W in halves
//   layout.local_box();            // this rank's cells, inclusive bounds, tensor order
//   layout.neighbour(rank, {0, 0, 0, +1, 0});   // the rank below (next H shard)
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "hpart/box.hpp"
#include "hpart/comm.hpp"

namespace hpart::tensor {

// Tensor axes, in storage order (W fastest).
inline constexpr int kRank = 5;
inline constexpr int kAxisN = 0, kAxisC = 1, kAxisD = 2, kAxisH = 3, kAxisW = 4;
using Index5 = std::array<std::int64_t, kRank>;
// The most cells a tensor may have: its indices, halos and the layers' 2x upsampled shapes stay
// within 64 bits.
inline constexpr double kMaxTensorCells = 0x1p58;

struct TensorShape {
  int spatial_dims = 2;             // 2: (N, C, H, W) with D = 1; 3: (N, C, D, H, W)
  Index5 extent{1, 1, 1, 1, 1};     // N, C, D, H, W (each >= 1, at most kMaxTensorCells in all)

  static TensorShape d2(std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w) {
    return {2, {n, c, 1, h, w}};
  }
  static TensorShape d3(std::int64_t n, std::int64_t c, std::int64_t d, std::int64_t h, std::int64_t w) {
    return {3, {n, c, d, h, w}};
  }
  [[nodiscard]] std::int64_t volume() const {
    std::int64_t v = 1;
    for (std::int64_t e : extent) v *= e;
    return v;
  }
  // The first spatial axis: kAxisH in 2-D, kAxisD in 3-D.
  [[nodiscard]] int first_spatial_axis() const { return spatial_dims == 3 ? kAxisD : kAxisH; }
  [[nodiscard]] std::string str() const;
  friend bool operator==(const TensorShape&, const TensorShape&) = default;
};

// A box of tensor cells is an hpart::Box of kRank axes in tensor order (N, C, D, H, W):
// AxisOrder::last_fastest, inclusive bounds. Empty when any hi < lo; empty_box() is the canonical
// empty box (every layout stores its empty shards as that). A tensor shard's local extents are
// box.extents() (0 on every axis of an empty box); compare boxes as cell sets with same_cells.
static_assert(kRank == kMaxBoxDim, "a tensor box uses every axis of hpart::Box");
inline Box tensor_box(const Index5& lo, const Index5& hi) {
  Box b = Box::none(kRank, AxisOrder::last_fastest);
  b.lo = lo, b.hi = hi;
  return b;
}
inline Box whole_box(const TensorShape& s) { return Box::from_extent(kRank, s.extent, AxisOrder::last_fastest); }
inline Box empty_box() { return Box::none(kRank, AxisOrder::last_fastest); }
// The spatial part of a tensor box as a grid box (AxisOrder::x_fastest: x = W, y = H, z = D), the
// convention of hpart::Grid and partition_grid. An empty tensor box gives an empty grid box.
Box spatial_box(const Box& tensor_box, int spatial_dims);

enum class Placement { replicate, shard };

// A process mesh: ranks along each tensor axis (1 = that axis is not split: Replicate), times
// `replicas` copies of the whole sharded tensor. parts[N] > 1 shards the batch; C may be split
// too (no halos there). Ranks are numbered replica-major, then row-major over the axes with W
// fastest: rank = replica * shards + ((((n * Pc + c) * Pd + d) * Ph + h) * Pw + w).
struct Mesh {
  std::array<int, kRank> parts{1, 1, 1, 1, 1};
  int replicas = 1;
  // Spatial axes whose halos wrap around (ignored on N and C).
  std::array<bool, kRank> periodic{false, false, false, false, false};

  static Mesh slabs(int p) { return along(kAxisH, p); }  // a 1-D mesh over H
  static Mesh along(int axis, int p) {
    Mesh m;
    m.parts[axis] = p;
    return m;
  }
  static Mesh grid2d(int ph, int pw) {
    Mesh m;
    m.parts[kAxisH] = ph, m.parts[kAxisW] = pw;
    return m;
  }
  static Mesh grid3d(int pd, int ph, int pw) {
    Mesh m;
    m.parts[kAxisD] = pd, m.parts[kAxisH] = ph, m.parts[kAxisW] = pw;
    return m;
  }
  [[nodiscard]] Mesh with_periodic(bool d, bool h, bool w) const {
    Mesh m = *this;
    m.periodic[kAxisD] = d, m.periodic[kAxisH] = h, m.periodic[kAxisW] = w;
    return m;
  }
  [[nodiscard]] Placement placement(int axis) const { return parts[axis] > 1 ? Placement::shard : Placement::replicate; }
  [[nodiscard]] int shards() const {
    int s = 1;
    for (int p : parts) s *= p;
    return s;
  }
  [[nodiscard]] int ranks() const { return shards() * replicas; }
  friend bool operator==(const Mesh&, const Mesh&) = default;
};

enum class SplitMethod {
  balanced,          // spatial axes cut by hpart::partition_grid (GridMethod::tensor) by a cost field
  uniform,           // equal widths (the naive split); N and C are always split this way
  explicit_extents,  // SplitOptions::extents, one list per axis
};

struct SplitOptions {
  SplitMethod method = SplitMethod::balanced;
  // balanced: the cost of the cells of `cost_box` (spatial cells in grid order: x = W fastest,
  // row-major like hpart::Grid), one value per cell. The ranks' cost boxes must be disjoint and
  // cover the spatial domain; when every rank passes no cost, cells cost 1 each.
  Box cost_box;
  std::span<const double> cost;
  // Spatial shard extents are multiples of 2^align_levels (so `levels` pool/upsample steps stay
  // aligned across shards); the last shard along an axis absorbs the remainder of an extent that
  // is not a multiple. Applied to balanced and uniform splits.
  int align_levels = 0;
  // explicit_extents: per axis, Mesh::parts[axis] extents summing to the global extent (an axis
  // with one part may be left empty). Extents of 0 are allowed (an empty shard).
  std::array<std::vector<std::int64_t>, kRank> extents;
};

// A layout: the global shape, each rank's box, which rank's copy of a cell is the one that
// redistribution reads (the primary copy), and, for mesh layouts, the mesh. Immutable and cheap
// to copy (shared state). Built collectively; identical on every rank.
class ShardLayout {
 public:
  ShardLayout() = default;

  // Collective. The mesh must have comm.size() ranks; the shape, the mesh and the split options
  // the method uses (all but the cost field, each rank's own) must be the same on every rank, else
  // the same hpart::Error on every rank names the first that differs. Shards may be empty (fewer
  // cells than ranks along an axis).
  static ShardLayout sharded(const Comm& comm, const TensorShape& shape, const Mesh& mesh,
                             const SplitOptions& split = {});
  // Every rank holds the whole tensor (rank 0's copy is primary): Mesh{} with comm.size() replicas.
  static ShardLayout replicated(const Comm& comm, const TensorShape& shape);
  // Rank `root` holds the whole tensor, the others nothing (gather to / scatter from a rank).
  static ShardLayout on_rank(const Comm& comm, const TensorShape& shape, int root);
  // Any disjoint boxes covering the tensor, one per rank (empty allowed). No mesh: no halos.
  // `mine` is a tensor box (tensor_box, whole_box) or any empty Box (Box{} included).
  static ShardLayout from_boxes(const Comm& comm, const TensorShape& shape, const Box& mine);

  [[nodiscard]] bool valid() const { return data_ != nullptr; }
  [[nodiscard]] const Comm& comm() const;
  [[nodiscard]] int rank() const { return comm().rank(); }
  [[nodiscard]] int size() const { return comm().size(); }
  [[nodiscard]] const TensorShape& shape() const;
  [[nodiscard]] const Box& box(int rank) const;
  [[nodiscard]] const Box& local_box() const { return box(rank()); }
  [[nodiscard]] const std::vector<Box>& boxes() const;
  // Whether `rank`'s copy is the one redistribute and the global reductions read. The primary
  // boxes are disjoint and cover the tensor.
  [[nodiscard]] bool is_primary(int rank) const;

  // Mesh layouts (sharded, replicated): the mesh and each rank's place in it.
  [[nodiscard]] bool has_mesh() const;
  [[nodiscard]] const Mesh& mesh() const;
  [[nodiscard]] std::array<int, kRank> mesh_coord(int rank) const;
  [[nodiscard]] int replica_of(int rank) const;
  [[nodiscard]] int rank_at(const std::array<int, kRank>& coord, int replica) const;
  // The rank at mesh offset `offset` (entries -1, 0, +1) from `rank`, wrapping periodic axes;
  // -1 when the offset leaves the mesh through a non-periodic side.
  [[nodiscard]] int neighbour(int rank, const std::array<int, kRank>& offset) const;
  // Shard starts along an axis (mesh.parts[axis] entries, the first 0): shard j of that axis is
  // [starts[j], starts[j+1]) with the global extent closing the last.
  [[nodiscard]] const std::vector<std::int64_t>& starts(int axis) const;
  [[nodiscard]] bool periodic(int axis) const;

  [[nodiscard]] std::string str() const;  // one line: shape, mesh, this rank's box
  // Same communicator size, shape and boxes (and mesh when both have one).
  friend bool operator==(const ShardLayout& a, const ShardLayout& b);

  struct Data;

 private:
  explicit ShardLayout(std::shared_ptr<const Data> d) : data_(std::move(d)) {}
  [[nodiscard]] const Data& data() const;
  std::shared_ptr<const Data> data_;
};

// The extents (one per shard) of `parts` shards of [0, extent) cut at `starts` (monotone, first
// 0), and the reverse; exposed for tests and for callers that build explicit splits.
std::vector<std::int64_t> extents_from_starts(std::span<const std::int64_t> starts, std::int64_t extent);
// Rounds interior cuts to multiples of `align` (the last shard absorbs the remainder of an
// extent that is not a multiple), keeping the cuts monotone and, where the extent allows it,
// every shard at least `align` wide. Pure; used by SplitOptions::align_levels.
std::vector<std::int64_t> aligned_starts(std::span<const std::int64_t> starts, std::int64_t extent, std::int64_t align);

}  // namespace hpart::tensor
