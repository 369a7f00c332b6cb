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
    for (std::size_t i = 0; i < in.local.size(); ++i) {
      const Cell c = in.local.cell(i);
      const std::int64_t w = in.weight_of(i);
      for (int d = 0; d < dim; ++d)
        marginal[static_cast<std::size_t>(offset[static_cast<std::size_t>(d)] +
                                          c[static_cast<std::size_t>(d)] / per[static_cast<std::size_t>(d)])] += w;
    }
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
  r.parts.resize(in.local.size());
  for (std::size_t i = 0; i < in.local.size(); ++i) r.parts[i] = locator->part_of(in.local.cell(i));
  r.locator = std::move(locator);
  return r;
}

}  // namespace hpart::grid
