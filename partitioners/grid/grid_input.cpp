#include "grid/grid_input.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/validate.hpp"

namespace hpart::grid {

std::string check_grid_shape(int dim, const std::array<std::int64_t, 3>& extent) {
  if (dim != 2 && dim != 3) return "grid dim must be 2 or 3 (got " + std::to_string(dim) + ")";
  const std::int64_t max_extent = dim == 2 ? (std::int64_t{1} << 31) : (std::int64_t{1} << 21);
  for (int d = 0; d < dim; ++d)
    if (extent[static_cast<std::size_t>(d)] < 1 || extent[static_cast<std::size_t>(d)] > max_extent)
      return "grid extent " + std::to_string(extent[static_cast<std::size_t>(d)]) + " in dimension " +
             std::to_string(d) + " is outside [1, 2^" + (dim == 2 ? "31" : "21") + "]";
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
  for (int r = 0; r < R; ++r)
    for (int q = r + 1; q < R; ++q) {
      const Box& a = boxes[static_cast<std::size_t>(r)];
      const Box& b = boxes[static_cast<std::size_t>(q)];
      if (a.dim == 0 || b.dim == 0) continue;
      if (!a.intersect(b).empty())
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

GridInput prepare_grid(const Comm& comm, const Grid& grid, const GridOptions& opts) {
  const std::string local = check_local(grid, opts);
  comm.agree(local.empty() ? ErrorCode::ok : ErrorCode::invalid_input, local);
  const std::string cover = check_cover(comm, grid);
  comm.agree(cover.empty() ? ErrorCode::ok : ErrorCode::invalid_input, cover);

  GridInput in;
  in.grid = &grid;
  in.local = BoxCells(grid.local.dim == 0 ? Box{} : grid.local);
  in.global_cells = grid.domain().volume();
  // Costs: all ranks holding cells must agree on giving them or not.
  const bool holds = in.local.size() > 0;
  int flags[2] = {holds && !grid.cost.empty() ? 1 : 0, holds && grid.cost.empty() ? 1 : 0};
  MPI_Allreduce(MPI_IN_PLACE, flags, 2, MPI_INT, MPI_MAX, comm.get());
  comm.agree(flags[0] && flags[1] ? ErrorCode::invalid_input : ErrorCode::ok,
             flags[0] && flags[1] ? "cost is given on some ranks and not on others: give it everywhere or nowhere"
                                  : std::string());
  double wmax = 0.0;
  for (const double c : grid.cost) wmax = std::max(wmax, c);
  MPI_Allreduce(MPI_IN_PLACE, &wmax, 1, MPI_DOUBLE, MPI_MAX, comm.get());
  in.unit_cost = flags[0] == 0 || wmax <= 0.0;  // all-zero costs balance cell counts
  if (!in.unit_cost) {
    in.exponent = detail::fixed_point_exponent(wmax, in.global_cells);
    in.weight = detail::FixedPoint(in.exponent);
  }
  return in;
}

}  // namespace hpart::grid
