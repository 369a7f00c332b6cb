// blocks: recursive bisection of the grid into box-shaped parts. Every box is cut on its own
// (the weighted marginal of that box alone), along its longest side to keep boxes near-cubic,
// at the cell layer nearest the weight share of its lower half of the parts (K = k1 + k2 with
// k1 = K / 2, so any K works). Per level, one pass over the local cells (box by box: the boxes of
// a level tile the grid, so each rank walks the rows of local box ∩ task box) and one allreduce.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/validate.hpp"

#include "grid/grid_methods.hpp"
#include "grid/layer_cuts.hpp"

namespace hpart::grid {
namespace {

struct Task {
  Box box;
  part_t first = 0;
  int parts = 1;
  int node = 0;  // its node in the cut tree
  // Set when the task is cut this level:
  int dim = -1;
  std::int64_t per = 1, offset = 0, bins = 0;  // layers per bin, offset into the level's marginals
};

// The longest side that can still be cut (size >= 2); -1 when the box is a single cell.
int cut_dimension(const Box& b) {
  int best = -1;
  for (int d = 0; d < b.dim; ++d)
    if (b.size(d) >= 2 && (best < 0 || b.size(d) > b.size(best))) best = d;
  return best;
}

}  // namespace

MethodResult bisection_blocks(const Comm& comm, const GridInput& in, const GridOptions& opts) {
  const std::vector<double> targets = detail::normalised_targets(opts.target_sizes, opts.parts);
  auto tree = std::make_shared<TreeLocator>();
  tree->nodes.push_back(CutNode{});
  std::vector<Task> tasks{Task{in.grid->domain(), 0, opts.parts, 0}};
  const std::size_t n = in.local.size();
  const Box local = in.local.box;
  for (;;) {
    std::int64_t total_bins = 0;
    for (Task& t : tasks) {
      t.dim = t.parts > 1 ? cut_dimension(t.box) : -1;
      if (t.dim < 0) continue;
      const std::int64_t size = t.box.size(t.dim);
      t.per = layers_per_bin(size);
      t.bins = bin_count(size);
      t.offset = total_bins;
      total_bins += t.bins;
    }
    if (total_bins == 0) break;

    // The weighted marginal of every box being cut, over the local cells it holds.
    std::vector<std::int64_t> marginal(static_cast<std::size_t>(total_bins), 0);
    for (const Task& t : tasks) {
      if (t.dim < 0) continue;
      std::int64_t* m = marginal.data() + t.offset;
      const auto d = static_cast<std::size_t>(t.dim);
      for_each_row(in.local, local.intersect(t.box), [&](std::size_t index, std::int64_t x0, std::int64_t y,
                                                          std::int64_t z, std::int64_t count) {
        if (d == 0) {
          std::int64_t* mx = m + (x0 - t.box.lo[0]);
          if (t.per == 1) {
            for (std::int64_t k = 0; k < count; ++k) mx[k] += in.weight_of(index + static_cast<std::size_t>(k));
          } else {
            for (std::int64_t k = 0; k < count; ++k)
              m[(x0 + k - t.box.lo[0]) / t.per] += in.weight_of(index + static_cast<std::size_t>(k));
          }
          return;
        }
        std::int64_t row = 0;
        for (std::int64_t k = 0; k < count; ++k) row += in.weight_of(index + static_cast<std::size_t>(k));
        m[((d == 1 ? y : z) - t.box.lo[d]) / t.per] += row;
      });
    }
    MPI_Allreduce(MPI_IN_PLACE, marginal.data(), static_cast<int>(total_bins), MPI_INT64_T, MPI_SUM, comm.get());

    // Cut every box (identically on every rank: the marginals are exact integers).
    std::vector<Task> next;
    for (std::size_t k = 0; k < tasks.size(); ++k) {
      const Task& t = tasks[k];
      if (t.dim < 0) {
        next.push_back(t);
        continue;
      }
      int k1 = t.parts / 2;
      // Keep at least k1 cells below and k2 above when the box allows it, so parts stay non-empty.
      const std::int64_t cross = t.box.volume() / t.box.size(t.dim);  // cells per layer
      std::int64_t lo = 1, hi = t.bins - 1;
      while (lo < hi && lo * t.per * cross < k1) ++lo;
      while (hi > lo && (t.box.size(t.dim) - hi * t.per) * cross < t.parts - k1) --hi;
      const std::span<const std::int64_t> bins(marginal.data() + t.offset, static_cast<std::size_t>(t.bins));
      // The lower half's share of the target sizes, as a fraction with a 2^40 denominator.
      const double lower = std::accumulate(targets.begin() + t.first, targets.begin() + t.first + k1, 0.0);
      const double all = std::accumulate(targets.begin() + t.first, targets.begin() + t.first + t.parts, 0.0);
      constexpr std::int64_t kDen = std::int64_t{1} << 40;
      const auto num = static_cast<std::int64_t>(std::llround(lower / all * static_cast<double>(kDen)));
      const std::int64_t c = nearest_boundary(bins, lo, hi, num, kDen);
      const std::int64_t cut = t.box.lo[static_cast<std::size_t>(t.dim)] + c * t.per;
      // A box with barely more cells than parts: move parts to the side with room for them.
      const std::int64_t below = std::min<std::int64_t>(c * t.per * cross, t.parts - 1);
      const std::int64_t above = t.box.volume() - c * t.per * cross;
      if (k1 > below || t.parts - k1 > above)
        k1 = static_cast<int>(std::clamp<std::int64_t>(k1, std::max<std::int64_t>(1, t.parts - above), std::max<std::int64_t>(1, below)));
      const int k2 = t.parts - k1;

      Task low = t, up = t;
      low.box.hi[static_cast<std::size_t>(t.dim)] = cut - 1;
      up.box.lo[static_cast<std::size_t>(t.dim)] = cut;
      low.parts = k1;
      up.parts = k2;
      up.first = t.first + k1;
      low.node = static_cast<int>(tree->nodes.size());
      up.node = low.node + 1;
      tree->nodes.push_back(CutNode{0, 0, -1, -1, low.first});
      tree->nodes.push_back(CutNode{0, 0, -1, -1, up.first});
      CutNode& parent = tree->nodes[static_cast<std::size_t>(t.node)];
      parent.dim = t.dim;
      parent.cut = cut;
      parent.lower = low.node;
      parent.upper = up.node;
      next.push_back(low);
      next.push_back(up);
    }
    tasks.swap(next);
  }

  MethodResult r;
  r.boxes.assign(static_cast<std::size_t>(opts.parts), Box{in.grid->dim, {}, {}});
  for (Box& b : r.boxes)
    for (int d = 0; d < b.dim; ++d) b.lo[static_cast<std::size_t>(d)] = 0, b.hi[static_cast<std::size_t>(d)] = -1;
  // A leaf with several parts is a single cell: its first part gets it, the others stay empty.
  for (const Task& t : tasks) r.boxes[static_cast<std::size_t>(t.first)] = t.box;
  r.parts.resize(n);
  for (const Task& t : tasks)
    for_each_row(in.local, local.intersect(t.box), [&](std::size_t index, std::int64_t, std::int64_t, std::int64_t,
                                                        std::int64_t count) {
      std::fill_n(r.parts.begin() + static_cast<std::ptrdiff_t>(index), count, t.first);
    });
  r.locator = std::move(tree);
  return r;
}

}  // namespace hpart::grid
