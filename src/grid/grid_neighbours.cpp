// Part adjacency and halo volumes. Box-shaped parts: from the boxes alone (every rank computes
// the same answer, no communication). Other parts (sfc): each rank labels its local cells and a
// frame of width h around them with the locator, counts for every local cell the other parts
// within h of it (each such part receives the cell in its halo), and the ranks gather the
// (receiver, sender) counts, O(part pairs) values, never O(cells).
#include <mpi.h>

#include <algorithm>
#include <map>

#include "core/memory_budget.hpp"
#include "grid/grid_input.hpp"
#include "hpart/grid.hpp"

namespace hpart {
namespace {

GridNeighbours from_boxes(const Grid& grid, const GridPartition& p, int halo) {
  const Box domain = grid.domain();
  const auto K = p.boxes.size();
  GridNeighbours out;
  out.of_part.resize(K);
  for (std::size_t a = 0; a < K; ++a) {
    const Box& pa = p.boxes[a];
    if (pa.empty()) continue;
    const Box reach = pa.grown(halo).intersect(domain);
    for (std::size_t b = 0; b < K; ++b) {
      if (a == b || p.boxes[b].empty()) continue;
      const Box shared = reach.intersect(p.boxes[b]);
      if (shared.empty()) continue;
      out.of_part[a].push_back(PartNeighbour{static_cast<part_t>(b), shared.volume(), contact_kind(pa, p.boxes[b])});
      out.halo_volume += shared.volume();
    }
  }
  return out;
}

GridNeighbours from_cells(const Comm& comm, const Grid& grid, const GridPartition& p, int halo) {
  const int dim = grid.dim;
  const Box domain = grid.domain();
  const Box local = grid.local.dim == 0 ? Box{} : grid.local;
  // (receiver, sender) -> cells, and the closest contact seen (fewest differing coordinates).
  std::map<std::pair<part_t, part_t>, std::pair<std::int64_t, int>> pairs;
  if (!local.empty()) {
    const Box frame = local.grown(halo).intersect(domain);
    const grid::BoxCells fc(frame), lc(local);
    std::vector<part_t> label(fc.size());
    for (std::size_t i = 0; i < fc.size(); ++i) {
      const Cell c = fc.cell(i);
      if (local.contains(c)) {
        const auto k = static_cast<std::size_t>((c[0] - local.lo[0]) +
                                                lc.nx * ((c[1] - local.lo[1]) + lc.ny * (c[2] - local.lo[2])));
        label[i] = p.parts[k];
      } else {
        label[i] = p.part_of(c);
      }
    }
    const std::int64_t hz = dim == 3 ? halo : 0;
    std::vector<std::pair<part_t, int>> seen;
    for (std::size_t k = 0; k < lc.size(); ++k) {
      const Cell c = lc.cell(k);
      const part_t mine = p.parts[k];
      seen.clear();
      for (std::int64_t dz = -hz; dz <= hz; ++dz)
        for (std::int64_t dy = -halo; dy <= halo; ++dy)
          for (std::int64_t dx = -halo; dx <= halo; ++dx) {
            const Cell n{c[0] + dx, c[1] + dy, c[2] + dz, 0};
            if (!frame.contains(n)) continue;
            const auto f = static_cast<std::size_t>((n[0] - frame.lo[0]) +
                                                    fc.nx * ((n[1] - frame.lo[1]) + fc.ny * (n[2] - frame.lo[2])));
            const part_t q = label[f];
            if (q == mine) continue;
            const int contact = (dx != 0) + (dy != 0) + (dz != 0);
            auto it = std::find_if(seen.begin(), seen.end(), [q](const auto& s) { return s.first == q; });
            if (it == seen.end())
              seen.push_back({q, contact});
            else
              it->second = std::min(it->second, contact);
          }
      for (const auto& [q, contact] : seen) {
        auto& entry = pairs[{q, mine}];  // q receives this cell of `mine`
        if (entry.first == 0) entry.second = contact;
        ++entry.first;
        entry.second = std::min(entry.second, contact);
      }
    }
  }
  // Gather the pairs (receiver, sender, cells, contact) from every rank.
  std::vector<std::int64_t> mine;
  for (const auto& [key, value] : pairs) mine.insert(mine.end(), {key.first, key.second, value.first, value.second});
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(comm.size())), displs(static_cast<std::size_t>(comm.size()), 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm.get());
  for (std::size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<std::int64_t> all(static_cast<std::size_t>(displs.back() + counts.back()));
  MPI_Allgatherv(mine.data(), count, MPI_INT64_T, all.data(), counts.data(), displs.data(), MPI_INT64_T, comm.get());
  std::map<std::pair<part_t, part_t>, std::pair<std::int64_t, int>> merged;
  for (std::size_t i = 0; i + 3 < all.size(); i += 4) {
    auto& e = merged[{static_cast<part_t>(all[i]), static_cast<part_t>(all[i + 1])}];
    if (e.first == 0) e.second = static_cast<int>(all[i + 3]);
    e.first += all[i + 2];
    e.second = std::min(e.second, static_cast<int>(all[i + 3]));
  }
  GridNeighbours out;
  out.of_part.resize(p.boxes.size());
  for (const auto& [key, value] : merged) {
    out.of_part[static_cast<std::size_t>(key.first)].push_back(PartNeighbour{key.second, value.first, value.second});
    out.halo_volume += value.first;
  }
  return out;
}

}  // namespace

GridNeighbours grid_neighbours(const Comm& comm, const Grid& grid, const GridPartition& p, int halo) {
  std::string problem;
  if (halo < 1) problem = "halo width must be >= 1 (got " + std::to_string(halo) + ")";
  for (const Box& b : p.boxes)
    if (problem.empty() && !b.empty() && p.box_shaped && halo > 0 && [&] {
          for (int d = 0; d < b.dim; ++d)
            if (b.size(d) < halo) return true;
          return false;
        }())
      problem = "halo width " + std::to_string(halo) + " is larger than the block " + b.str() +
                ": a part's halo would reach past its neighbours";
  if (problem.empty() && p.parts.size() != (grid.local.empty() ? 0u : static_cast<std::size_t>(grid.local.volume())))
    problem = "the partition does not belong to this grid (its part list has " +
              std::to_string(p.parts.size()) + " entries for " +
              std::to_string(grid.local.empty() ? 0 : grid.local.volume()) + " local cells)";
  if (problem.empty() && !p.locator) problem = "the partition has no locator: pass a result of partition_grid";
  if (problem.empty() && !p.box_shaped && !grid.local.empty())  // the labels of the local box grown by the halo
    problem = detail::check_memory(4.0 * static_cast<double>(grid.local.grown(halo).intersect(grid.domain()).volume()),
                                   "the halo frame of the local box", "use a smaller halo width");
  detail::Replicated args;
  args.value("halo width", static_cast<long long>(halo))
      .value("the partition's part count", static_cast<long long>(p.boxes.size()))
      .value("the partition's box_shaped", static_cast<long long>(p.box_shaped));
  grid::replicate_grid(args, grid);
  detail::agree(comm, args, problem.empty() ? ErrorCode::ok : ErrorCode::invalid_argument, problem);
  return p.box_shaped ? from_boxes(grid, p, halo) : from_cells(comm, grid, p, halo);
}

}  // namespace hpart
