// tensor / uniform: a strict Px x Py (x Pz) product of slabs, the layout a code with a Cartesian
// communicator needs. Balanced: each dimension cut on the whole grid's marginal along it (so a
// hotspot cannot be balanced: the imbalance is reported, not hidden). Uniform: equal widths.
#include <mpi.h>

#include <algorithm>
#include <cmath>

#include "grid/grid_methods.hpp"
#include "grid/layer_cuts.hpp"

namespace hpart {

std::array<int, 3> tensor_shape(int dim, const std::array<std::int64_t, 3>& extent, int parts) {
  // Among the factorisations Px * Py (* Pz) = parts, the one with the least block surface
  // (sum over faces of the block's face areas), preferring blocks no thinner than one cell.
  std::array<int, 3> best{parts, 1, 1};
  double best_cost = INFINITY;
  auto consider = [&](std::array<int, 3> s) {
    double surface = 0.0;
    bool thin = false;
    for (int d = 0; d < dim; ++d) {
      double face = 1.0;
      for (int e = 0; e < dim; ++e)
        if (e != d) face *= static_cast<double>(extent[static_cast<std::size_t>(e)]) / s[static_cast<std::size_t>(e)];
      surface += face;
      thin = thin || s[static_cast<std::size_t>(d)] > extent[static_cast<std::size_t>(d)];
    }
    const double cost = surface + (thin ? 1e300 : 0.0);
    if (cost < best_cost) best_cost = cost, best = s;
  };
  for (int px = 1; px <= parts; ++px) {
    if (parts % px != 0) continue;
    if (dim == 2) {
      consider({px, parts / px, 1});
      continue;
    }
    const int rest = parts / px;
    for (int py = 1; py <= rest; ++py)
      if (rest % py == 0) consider({px, py, rest / py});
  }
  return best;
}

}  // namespace hpart

namespace hpart::grid {

MethodResult tensor_blocks(const Comm& comm, const GridInput& in, const GridOptions& opts, bool balanced) {
  const Grid& g = *in.grid;
  const int dim = g.dim;
  std::array<int, 3> shape = opts.shape;
  if (shape[0] == 0 && shape[1] == 0 && shape[2] == 0) shape = tensor_shape(dim, g.extent, opts.parts);
  for (int d = dim; d < 3; ++d) shape[static_cast<std::size_t>(d)] = 1;

  auto locator = std::make_shared<TensorLocator>();
  locator->dim = dim;
  if (balanced) {
    // One pass: the marginals along every dimension at once, binned, one allreduce.
    std::array<std::int64_t, 3> per{1, 1, 1}, offset{0, 0, 0};
    std::int64_t total = 0;
    for (int d = 0; d < dim; ++d) {
      per[static_cast<std::size_t>(d)] = layers_per_bin(g.extent[static_cast<std::size_t>(d)]);
      offset[static_cast<std::size_t>(d)] = total;
      total += bin_count(g.extent[static_cast<std::size_t>(d)]);
    }
    std::vector<std::int64_t> marginal(static_cast<std::size_t>(total), 0);
    for_each_row(in.local, in.local.box, [&](std::size_t index, std::int64_t x0, std::int64_t y, std::int64_t z,
                                              std::int64_t count) {
      std::int64_t row = 0;
      for (std::int64_t k = 0; k < count; ++k) {
        const std::int64_t w = in.weight_of(index + static_cast<std::size_t>(k));
        marginal[static_cast<std::size_t>(offset[0] + (x0 + k) / per[0])] += w;
        row += w;
      }
      marginal[static_cast<std::size_t>(offset[1] + y / per[1])] += row;
      if (dim == 3) marginal[static_cast<std::size_t>(offset[2] + z / per[2])] += row;
    });
    MPI_Allreduce(MPI_IN_PLACE, marginal.data(), static_cast<int>(total), MPI_INT64_T, MPI_SUM, comm.get());
    for (int d = 0; d < dim; ++d) {
      const auto ud = static_cast<std::size_t>(d);
      const std::int64_t bins = bin_count(g.extent[ud]);
      const std::span<const std::int64_t> m(marginal.data() + offset[ud], static_cast<std::size_t>(bins));
      auto& starts = locator->starts[ud];
      starts.push_back(0);
      for (int j = 1; j < shape[ud]; ++j) {
        // Monotone and at least one bin per slab where the side allows it.
        const std::int64_t lo = std::min(bins, starts.back() / per[ud] + 1);
        const std::int64_t c = nearest_boundary(m, lo, std::max(lo, bins - (shape[ud] - j)), j, shape[ud]);
        starts.push_back(std::min(g.extent[ud], c * per[ud]));
      }
    }
  } else {
    for (int d = 0; d < dim; ++d) {
      const auto ud = static_cast<std::size_t>(d);
      for (int j = 0; j < shape[ud]; ++j) locator->starts[ud].push_back(g.extent[ud] * j / shape[ud]);
    }
  }

  MethodResult r;
  r.shape = shape;
  r.boxes.resize(static_cast<std::size_t>(opts.parts));
  for (int k = 0; k < shape[2]; ++k)
    for (int j = 0; j < shape[1]; ++j)
      for (int i = 0; i < shape[0]; ++i) {
        Box b;
        b.dim = dim;
        const std::array<int, 3> idx{i, j, k};
        for (int d = 0; d < dim; ++d) {
          const auto ud = static_cast<std::size_t>(d);
          const auto& s = locator->starts[ud];
          b.lo[ud] = s[static_cast<std::size_t>(idx[ud])];
          b.hi[ud] = (idx[ud] + 1 < shape[ud] ? s[static_cast<std::size_t>(idx[ud] + 1)] : g.extent[ud]) - 1;
        }
        r.boxes[static_cast<std::size_t>(i + shape[0] * (j + shape[1] * k))] = b;
      }
  // Parts row by row: along a row only the x slab changes.
  r.parts.resize(in.local.size());
  const auto& xs = locator->starts[0];
  for_each_row(in.local, in.local.box, [&](std::size_t index, std::int64_t x0, std::int64_t y, std::int64_t z,
                                            std::int64_t count) {
    const part_t row_part = locator->part_of({x0, y, z, 0});
    auto slab = std::upper_bound(xs.begin(), xs.end(), x0) - xs.begin() - 1;
    const part_t base = row_part - static_cast<part_t>(slab);
    for (std::int64_t k = 0; k < count; ++k) {
      while (slab + 1 < static_cast<std::ptrdiff_t>(xs.size()) && x0 + k >= xs[static_cast<std::size_t>(slab + 1)]) ++slab;
      r.parts[index + static_cast<std::size_t>(k)] = base + static_cast<part_t>(slab);
    }
  });
  r.locator = std::move(locator);
  return r;
}

}  // namespace hpart::grid
