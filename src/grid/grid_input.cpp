#include "grid/grid_input.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/memory_budget.hpp"
#include "core/validate.hpp"

namespace hpart::grid {

std::string check_grid_shape(int dim, const std::array<std::int64_t, 3>& extent) {
  if (dim != 2 && dim != 3) return "grid dim must be 2 or 3 (got " + std::to_string(dim) + ")";
  const std::int64_t max_extent = dim == 2 ? (std::int64_t{1} << 31) : (std::int64_t{1} << 21);
  for (int d = 0; d < dim; ++d)
    if (extent[static_cast<std::size_t>(d)] < 1 || extent[static_cast<std::size_t>(d)] > max_extent)
      return "grid extent " + std::to_string(extent[static_cast<std::size_t>(d)]) + " in dimension " +
             std::to_string(d) + " is outside [1, 2^" + (dim == 2 ? "31" : "21") + "]";
  // Cell counts are 64-bit: 2^21 cubed would not fit.
  if (static_cast<double>(extent[0]) * static_cast<double>(extent[1]) * static_cast<double>(dim == 3 ? extent[2] : 1) >
      0x1p62)
    return "the grid has more than 2^62 cells: at most 2^62 are supported";
  return {};
}

namespace {

std::string check_local(const Grid& g, const GridOptions& opts) {
  std::string problem = detail::check_parts(opts.parts);
  if (problem.empty()) problem = detail::check_targets(opts.target_sizes, opts.parts);
  if (!problem.empty()) return problem;
  if (problem = check_grid_shape(g.dim, g.extent); !problem.empty()) return problem;
  if (g.local.dim != 0 && g.local.dim != g.dim)
    return "the local box has dim " + std::to_string(g.local.dim) + " but the grid has dim " + std::to_string(g.dim);
  if (!g.local.empty() && g.local.dim == g.dim) {
    const Box inside = g.local.intersect(g.domain());
    if (!(inside == g.local))
      return "the local box " + g.local.str() + " lies outside the grid " + g.domain().str();
  }
  const auto cells = g.local.empty() ? std::size_t{0} : static_cast<std::size_t>(g.local.volume());
  if (!g.cost.empty() && g.cost.size() != cells)
    return "cost has " + std::to_string(g.cost.size()) + " values for the " + std::to_string(cells) +
           " cells of the local box " + g.local.str() + " (row-major, x fastest)";
  if (std::string w = detail::check_weights(g.cost, cells, 1); !w.empty()) return "cost: " + w;
  // The methods keep a part and a fixed-point weight per local cell, and the result its part.
  if (std::string m = detail::check_memory(16.0 * static_cast<double>(cells), "partitioning the local box " + g.local.str(),
                                           "spread the grid over more ranks");
      !m.empty())
    return m;
  if (opts.method == GridMethod::tensor || opts.method == GridMethod::uniform) {
    const auto& s = opts.shape;
    const bool given = s[0] != 0 || s[1] != 0 || s[2] != 0;
    if (given) {
      long long product = 1;
      for (int d = 0; d < g.dim; ++d) {
        if (s[static_cast<std::size_t>(d)] < 1) return "tensor shape entries must be >= 1";
        product *= s[static_cast<std::size_t>(d)];
      }
      if (product != opts.parts)
        return "tensor shape has " + std::to_string(product) + " blocks but parts is " + std::to_string(opts.parts);
    }
  }
  return {};
}

// The ranks' boxes must be disjoint and cover the grid: every rank checks the gathered boxes
// (O(ranks) values, never O(cells)) and reaches the same verdict.
std::string check_cover(const Comm& comm, const Grid& g) {
  const int R = comm.size();
  std::vector<std::int64_t> mine(7, 0), all(static_cast<std::size_t>(7 * R));
  mine[0] = g.local.empty() ? 0 : 1;
  for (int d = 0; d < 3; ++d) {
    mine[static_cast<std::size_t>(1 + d)] = g.local.lo[static_cast<std::size_t>(d)];
    mine[static_cast<std::size_t>(4 + d)] = g.local.hi[static_cast<std::size_t>(d)];
  }
  MPI_Allgather(mine.data(), 7, MPI_INT64_T, all.data(), 7, MPI_INT64_T, comm.get());
  std::vector<Box> boxes(static_cast<std::size_t>(R));
  long long covered = 0;
  for (int r = 0; r < R; ++r) {
    const std::int64_t* v = &all[static_cast<std::size_t>(7 * r)];
    if (v[0] == 0) continue;
    Box& b = boxes[static_cast<std::size_t>(r)];
    b.dim = g.dim;
    for (int d = 0; d < g.dim; ++d) b.lo[static_cast<std::size_t>(d)] = v[1 + d], b.hi[static_cast<std::size_t>(d)] = v[4 + d];
    covered += b.volume();
  }
  // Overlaps by a sweep along the axis where the boxes' lower corners differ most (the slab axis of
  // a slab decomposition): each box meets only the boxes that start before it ends there, so the
  // check is O(R log R) for slabs and blocks instead of comparing every pair (10^10 at 10^5 ranks).
  std::vector<int> held;
  for (int r = 0; r < R; ++r)
    if (boxes[static_cast<std::size_t>(r)].dim != 0) held.push_back(r);
  std::size_t axis = 0, most = 0;
  for (std::size_t d = 0; d < static_cast<std::size_t>(g.dim); ++d) {
    std::vector<std::int64_t> lo;
    for (const int r : held) lo.push_back(boxes[static_cast<std::size_t>(r)].lo[d]);
    std::sort(lo.begin(), lo.end());
    const auto distinct = static_cast<std::size_t>(std::unique(lo.begin(), lo.end()) - lo.begin());
    if (distinct > most) most = distinct, axis = d;
  }
  std::sort(held.begin(), held.end(), [&](int a, int b) {
    const auto la = boxes[static_cast<std::size_t>(a)].lo[axis], lb = boxes[static_cast<std::size_t>(b)].lo[axis];
    return la < lb || (la == lb && a < b);
  });
  std::pair<int, int> first_overlap{R, R};  // the lowest pair of ranks, whatever the sweep's order
  for (std::size_t k = 0; k < held.size(); ++k)
    for (std::size_t j = k + 1; j < held.size(); ++j) {
      const Box& a = boxes[static_cast<std::size_t>(held[k])];
      const Box& b = boxes[static_cast<std::size_t>(held[j])];
      if (b.lo[axis] > a.hi[axis]) break;
      if (!a.intersect(b).empty()) first_overlap = std::min(first_overlap, std::pair<int, int>(std::minmax(held[k], held[j])));
    }
  if (first_overlap.first < R) {
    const auto [r, q] = first_overlap;
    const Box& a = boxes[static_cast<std::size_t>(r)];
    const Box& b = boxes[static_cast<std::size_t>(q)];
    return "the local boxes of ranks " + std::to_string(r) + " " + a.str() + " and " + std::to_string(q) + " " +
           b.str() + " overlap in " + a.intersect(b).str() + ": every cell must be held by one rank";
  }
  const long long total = g.domain().volume();
  if (covered != total)
    return "the ranks' local boxes hold " + std::to_string(covered) + " of the grid's " + std::to_string(total) +
           " cells: together they must cover the grid";
  return {};
}

}  // namespace

void replicate_grid(detail::Replicated& args, const Grid& grid) {
  const bool holds = !grid.local.empty();
  args.value("grid dim", static_cast<long long>(grid.dim))
      .values("grid extent", std::span<const std::int64_t>(grid.extent))
      .given("cost", !grid.cost.empty(), !holds);
}

GridInput prepare_grid(const Comm& comm, const Grid& grid, const GridOptions& opts) {
  std::string local = check_local(grid, opts);
  // Per part: its box, weights, size, target, cut record (~160 bytes).
  if (local.empty()) local = detail::check_part_memory(opts.parts, 160.0, 0, 0.0);
  detail::Replicated args;
  args.value("parts", static_cast<long long>(opts.parts))
      .value("method", static_cast<long long>(opts.method))
      .value("curve", static_cast<long long>(opts.curve))
      .value("imbalance", opts.imbalance)
      .values("shape", std::span<const int>(opts.shape))
      .values("target_sizes", opts.target_sizes);
  replicate_grid(args, grid);
  detail::agree(comm, args, local.empty() ? ErrorCode::ok : ErrorCode::invalid_input, local);
  const std::string cover = check_cover(comm, grid);
  comm.agree(cover.empty() ? ErrorCode::ok : ErrorCode::invalid_input, cover);

  GridInput in;
  in.grid = &grid;
  in.local = BoxCells(grid.local.dim == 0 ? Box{} : grid.local);
  in.global_cells = grid.domain().volume();
  // Whether costs are given was agreed above (ranks holding no cells abstain).
  double wmax[2] = {0.0, grid.cost.empty() ? 0.0 : 1.0};  // largest cost; whether any rank gives costs
  for (const double c : grid.cost) wmax[0] = std::max(wmax[0], c);
  MPI_Allreduce(MPI_IN_PLACE, wmax, 2, MPI_DOUBLE, MPI_MAX, comm.get());
  in.unit_cost = wmax[1] == 0.0 || wmax[0] <= 0.0;  // all-zero costs balance cell counts
  if (!in.unit_cost) {
    in.exponent = detail::fixed_point_exponent(wmax[0], in.global_cells);
    in.weight = detail::FixedPoint(in.exponent);
  }
  return in;
}

}  // namespace hpart::grid
