// Shard extents of mesh layouts: equal widths, cost-balanced cuts from hpart's grid partitioner
// (GridMethod::tensor), or the caller's extents; then aligned to 2^levels.
#include <mpi.h>

#include <algorithm>
#include <numeric>
#include <string>

#include "hpart/grid.hpp"
#include "tensor/layout_data.hpp"

namespace hpart::tensor {

std::vector<std::int64_t> extents_from_starts(std::span<const std::int64_t> starts, std::int64_t extent) {
  std::vector<std::int64_t> e(starts.size());
  for (std::size_t j = 0; j < starts.size(); ++j) e[j] = (j + 1 < starts.size() ? starts[j + 1] : extent) - starts[j];
  return e;
}

std::vector<std::int64_t> aligned_starts(std::span<const std::int64_t> starts, std::int64_t extent, std::int64_t align) {
  std::vector<std::int64_t> out(starts.begin(), starts.end());
  if (align <= 1 || out.empty()) return out;
  const auto parts = static_cast<std::int64_t>(out.size());
  const std::int64_t blocks = extent / align;  // whole aligned blocks; the last shard takes the rest
  const bool roomy = blocks >= parts;          // every shard can get at least one block
  std::int64_t prev = 0;
  out[0] = 0;
  for (std::int64_t j = 1; j < parts; ++j) {
    const std::int64_t s = starts[static_cast<std::size_t>(j)];
    std::int64_t b = (s + align / 2) / align;  // nearest block boundary
    const std::int64_t lo = roomy ? prev + 1 : prev, hi = roomy ? blocks - (parts - j) : blocks;
    b = std::clamp(b, lo, std::max(lo, hi));
    out[static_cast<std::size_t>(j)] = b * align;
    prev = b;
  }
  return out;
}

namespace detail {
namespace {

std::vector<std::int64_t> uniform_starts(std::int64_t extent, int parts) {
  std::vector<std::int64_t> s(static_cast<std::size_t>(parts));
  // extent * j / parts without the product (which could overflow): q j + r j / parts.
  const std::int64_t q = extent / parts, r = extent % parts;
  for (int j = 0; j < parts; ++j) s[static_cast<std::size_t>(j)] = q * j + r * j / parts;
  return s;
}

// Grid order (x = W, y = H, z = D) of the spatial axes.
int grid_axis(int d) { return d == 0 ? kAxisW : d == 1 ? kAxisH : kAxisD; }

}  // namespace

std::array<std::vector<std::int64_t>, kRank> split_axes(const Comm& comm, const TensorShape& shape, const Mesh& mesh,
                                                        const SplitOptions& split) {
  std::array<std::vector<std::int64_t>, kRank> starts;
  for (int a = 0; a < kRank; ++a) {
    const auto ua = static_cast<std::size_t>(a);
    if (split.method == SplitMethod::explicit_extents && !split.extents[ua].empty()) {
      starts[ua].push_back(0);
      for (std::size_t j = 0; j + 1 < split.extents[ua].size(); ++j) starts[ua].push_back(starts[ua].back() + split.extents[ua][j]);
    } else {
      starts[ua] = uniform_starts(shape.extent[ua], mesh.parts[ua]);
    }
  }
  if (split.method == SplitMethod::balanced) {
    // Without a cost field every cell costs the same, and equal widths are the exact balance:
    // no need to run the partitioner over every cell. With one, the grid partitioner's tensor
    // method cuts each spatial axis on the marginal cost along it.
    int has_cost = split.cost.empty() ? 0 : 1;
    MPI_Allreduce(MPI_IN_PLACE, &has_cost, 1, MPI_INT, MPI_MAX, comm.get());
    if (has_cost) {
      Grid g;
      g.dim = shape.spatial_dims;
      for (int d = 0; d < g.dim; ++d) g.extent[static_cast<std::size_t>(d)] = shape.extent[static_cast<std::size_t>(grid_axis(d))];
      g.local = split.cost_box;
      if (g.local.dim == 0) {  // a rank without cells: an empty box of the grid's dimension
        g.local = Box{};
        g.local.dim = g.dim;
        for (int d = 0; d < g.dim; ++d) g.local.hi[static_cast<std::size_t>(d)] = -1;
      }
      g.cost = split.cost;
      GridOptions opts;
      opts.method = GridMethod::tensor;
      opts.shape = {1, 1, 1};
      for (int d = 0; d < g.dim; ++d) opts.shape[static_cast<std::size_t>(d)] = mesh.parts[static_cast<std::size_t>(grid_axis(d))];
      opts.parts = opts.shape[0] * opts.shape[1] * opts.shape[2];
      const GridPartition p = partition_grid(comm, g, opts);
      // Part i + Px (j + Py k) is slab (i, j, k): read each axis' starts along one row of parts.
      std::array<int, 3> stride{1, opts.shape[0], opts.shape[0] * opts.shape[1]};
      for (int d = 0; d < g.dim; ++d) {
        const auto ud = static_cast<std::size_t>(d);
        auto& s = starts[static_cast<std::size_t>(grid_axis(d))];
        for (int j = 0; j < opts.shape[ud]; ++j)
          s[static_cast<std::size_t>(j)] = p.boxes[static_cast<std::size_t>(j * stride[ud])].lo[ud];
      }
    }
  }
  if (split.align_levels > 0 && split.method != SplitMethod::explicit_extents) {
    const std::int64_t align = std::int64_t{1} << split.align_levels;
    for (int a = kAxisD; a <= kAxisW; ++a) {
      const auto ua = static_cast<std::size_t>(a);
      starts[ua] = aligned_starts(starts[ua], shape.extent[ua], align);
    }
  }
  return starts;
}

}  // namespace detail
}  // namespace hpart::tensor
