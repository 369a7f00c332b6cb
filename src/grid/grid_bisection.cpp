// blocks: recursive bisection of the grid into box-shaped parts. Every box is cut on its own
// (the weighted marginal of that box alone), along its longest side to keep boxes near-cubic,
// at the cell layer nearest the weight share of its lower half of the parts (K = k1 + k2 with
// k1 = K / 2, so any K works). Per level, one pass over the local cells (box by box: the boxes of
// a level tile the grid, so each rank walks the rows of local box ∩ task box) and one allreduce.
// The same level loop moves the planes of an earlier cut tree (reuse_blocks): every node keeps
// its axis and its parts, and only a plane whose two sides left their share of the tolerance moves.
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
  int node = 0;  // its node in the cut tree being built
  int old = -1;  // its node in the earlier tree (reuse_blocks)
  // Set when the task is cut this level:
  int dim = -1;
  std::int64_t per = 1, offset = 0, bins = 0;  // layers per bin, offset into the level's marginals
};

// Where a task is cut: c bins below the cut, k1 parts below it; ok = false when the rule cannot
// cut this box (reuse_blocks: the box no longer holds the parts the tree gives each side).
struct Cut {
  std::int64_t c = 0;
  int k1 = 0;
  bool ok = true;
};

// The longest side that can still be cut (size >= 2); -1 when the box is a single cell.
int cut_dimension(const Box& b) {
  int best = -1;
  for (int d = 0; d < b.dim; ++d)
    if (b.size(d) >= 2 && (best < 0 || b.size(d) > b.size(best))) best = d;
  return best;
}

// The range [lo, hi] of bin boundaries that keeps at least k1 cells below and parts - k1 above,
// as far as the box allows.
std::pair<std::int64_t, std::int64_t> boundary_range(const Task& t, int k1) {
  const std::int64_t cross = t.box.volume() / t.box.size(t.dim);  // cells per layer
  std::int64_t lo = 1, hi = t.bins - 1;
  while (lo < hi && lo * t.per * cross < k1) ++lo;
  while (hi > lo && (t.box.size(t.dim) - hi * t.per) * cross < t.parts - k1) --hi;
  return {lo, hi};
}

// The share of the task's weight that its k1 lower parts should get, as a fraction num / 2^40.
constexpr std::int64_t kDen = std::int64_t{1} << 40;
std::int64_t lower_share(const std::vector<double>& targets, const Task& t, int k1) {
  const double lower = std::accumulate(targets.begin() + t.first, targets.begin() + t.first + k1, 0.0);
  const double all = std::accumulate(targets.begin() + t.first, targets.begin() + t.first + t.parts, 0.0);
  return static_cast<std::int64_t>(std::llround(lower / all * static_cast<double>(kDen)));
}

// The level loop shared by both rules: per level, the marginal of every box being cut (one pass
// over the local cells, one allreduce), then axis(task) and place(task, bins) for each box.
// Returns false (and a partial result) when place() gave up.
template <class Axis, class Place>
bool cut_recursively(const Comm& comm, const GridInput& in, int K, Task root, Axis&& axis, Place&& place,
                     MethodResult& r) {
  auto tree = std::make_shared<TreeLocator>();
  tree->nodes.push_back(CutNode{});
  std::vector<Task> tasks{root};
  const std::size_t n = in.local.size();
  const Box local = in.local.box;
  for (;;) {
    std::int64_t total_bins = 0;
    for (Task& t : tasks) {
      t.dim = t.parts > 1 ? axis(t) : -1;
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
      const std::span<const std::int64_t> bins(marginal.data() + t.offset, static_cast<std::size_t>(t.bins));
      const Cut cut_at = place(t, bins);
      if (!cut_at.ok) return false;
      const int k1 = cut_at.k1, k2 = t.parts - k1;
      const std::int64_t cut = t.box.lo[static_cast<std::size_t>(t.dim)] + cut_at.c * t.per;

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

  r.boxes.assign(static_cast<std::size_t>(K), Box{in.grid->dim, {}, {}});
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
  return true;
}

}  // namespace

MethodResult bisection_blocks(const Comm& comm, const GridInput& in, const GridOptions& opts) {
  const std::vector<double> targets = detail::normalised_targets(opts.target_sizes, opts.parts);
  const auto axis = [](const Task& t) { return cut_dimension(t.box); };
  const auto place = [&](const Task& t, std::span<const std::int64_t> bins) {
    Cut cut;
    cut.k1 = t.parts / 2;
    // Keep at least k1 cells below and k2 above when the box allows it, so parts stay non-empty.
    const auto [lo, hi] = boundary_range(t, cut.k1);
    cut.c = nearest_boundary(bins, lo, hi, lower_share(targets, t, cut.k1), kDen);
    // A box with barely more cells than parts: move parts to the side with room for them.
    const std::int64_t cross = t.box.volume() / t.box.size(t.dim);
    const std::int64_t below = std::min<std::int64_t>(cut.c * t.per * cross, t.parts - 1);
    const std::int64_t above = t.box.volume() - cut.c * t.per * cross;
    if (cut.k1 > below || t.parts - cut.k1 > above)
      cut.k1 = static_cast<int>(std::clamp<std::int64_t>(cut.k1, std::max<std::int64_t>(1, t.parts - above),
                                                         std::max<std::int64_t>(1, below)));
    return cut;
  };
  MethodResult r;
  cut_recursively(comm, in, opts.parts, Task{in.grid->domain(), 0, opts.parts, 0}, axis, place, r);
  return r;
}

ReusedBlocks reuse_blocks(const Comm& comm, const GridInput& in, const TreeLocator& old, int parts, double tolerance) {
  const std::vector<double> targets = detail::normalised_targets({}, parts);
  // The tolerance is shared out over the levels: deviations multiply down a path of the tree.
  int depth = 0;
  {
    std::vector<std::pair<int, int>> stack{{0, 0}};
    while (!stack.empty()) {
      const auto [node, d] = stack.back();
      stack.pop_back();
      depth = std::max(depth, d);
      const CutNode& c = old.nodes[static_cast<std::size_t>(node)];
      if (c.lower >= 0) stack.push_back({c.lower, d + 1}), stack.push_back({c.upper, d + 1});
    }
  }
  const double level_tolerance = depth > 0 ? std::pow(1.0 + tolerance, 1.0 / depth) - 1.0 : tolerance;
  ReusedBlocks out;
  const auto node_of = [&](const Task& t) -> const CutNode& { return old.nodes[static_cast<std::size_t>(t.old)]; };
  std::vector<int> old_of_new{0};  // the earlier node of each new node, in creation order
  const auto place = [&](const Task& t, std::span<const std::int64_t> bins) {
    const CutNode& c = node_of(t);
    Cut cut;
    cut.k1 = old.nodes[static_cast<std::size_t>(c.upper)].first - c.first;
    const auto [lo, hi] = boundary_range(t, cut.k1);
    const std::int64_t num = lower_share(targets, t, cut.k1);
    ++out.planes;
    cut.c = nearest_boundary(bins, lo, hi, num, kDen);
    // The old plane stays when it still cuts this box on a bin boundary inside the allowed range
    // and its worse side is within the level's tolerance of what the balanced layer reaches
    // (whole layers: even the balanced layer misses the share by up to half a layer).
    const std::int64_t offset = c.cut - t.box.lo[static_cast<std::size_t>(t.dim)];
    const std::int64_t at = offset / t.per;
    const bool fits = offset % t.per == 0 && at >= lo && at <= hi;
    if (fits && at != cut.c) {
      const double total = static_cast<double>(std::accumulate(bins.begin(), bins.end(), std::int64_t{0}));
      const double share = static_cast<double>(num) / static_cast<double>(kDen);
      const auto excess = [&](std::int64_t b) {  // the worse side's weight over its share, relative
        const double below = static_cast<double>(std::accumulate(bins.begin(), bins.begin() + b, std::int64_t{0}));
        if (!(total > 0.0)) return 0.0;
        return std::max(share > 0.0 ? below / (share * total) : 0.0,
                        share < 1.0 ? (total - below) / ((1.0 - share) * total) : 0.0) - 1.0;
      };
      if (excess(at) <= excess(cut.c) + level_tolerance) cut.c = at;
    }
    if (!fits || at != cut.c) ++out.planes_moved;
    // Each side must still hold a cell per part: otherwise the tree no longer fits the grid.
    const std::int64_t cross = t.box.volume() / t.box.size(t.dim);
    cut.ok = cut.c * t.per * cross >= cut.k1 && t.box.volume() - cut.c * t.per * cross >= t.parts - cut.k1;
    old_of_new.push_back(c.lower), old_of_new.push_back(c.upper);
    return cut;
  };
  // The children of a cut task take the children of its old node (in the loop's creation order).
  Task root{in.grid->domain(), 0, parts, 0, 0};
  bool misfit = false;  // a box too thin to cut along its old axis
  const auto axis = [&](Task& t) {
    t.old = old_of_new[static_cast<std::size_t>(t.node)];
    const CutNode& c = node_of(t);
    if (c.lower < 0) return -1;  // an old leaf
    if (t.box.size(c.dim) < 2) misfit = true;
    return misfit ? -1 : c.dim;
  };
  out.ok = cut_recursively(comm, in, parts, root, axis, place, out.result) && !misfit;
  return out;
}

}  // namespace hpart::grid
