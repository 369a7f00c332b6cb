#include "cell_ownership.hpp"

#include <mpi.h>

#include <array>

#include "hpart/migration.hpp"

namespace hpart_particles {
namespace {

// The owner table, for partitions that have no map (incremental rebalances): every rank's cells
// gathered to every rank.
void rebuild_owner_table(const hpart::Comm& comm, CellOwnership& c) {
  const int R = comm.size();
  int mine = static_cast<int>(c.mine.size());
  std::vector<int> counts(static_cast<std::size_t>(R)), displs(static_cast<std::size_t>(R), 0);
  MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, comm.get());
  for (std::size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
  const auto num_cells = static_cast<std::size_t>(c.rows) * static_cast<std::size_t>(c.rows);
  std::vector<hpart::gid_t> all(num_cells);
  MPI_Allgatherv(c.mine.data(), mine, MPI_INT64_T, all.data(), counts.data(), displs.data(), MPI_INT64_T, comm.get());
  c.table.assign(num_cells, -1);
  for (int r = 0; r < R; ++r)
    for (int k = 0; k < counts[static_cast<std::size_t>(r)]; ++k)
      c.table[static_cast<std::size_t>(all[static_cast<std::size_t>(displs[static_cast<std::size_t>(r)] + k)])] = r;
}

}  // namespace

int CellOwnership::owner(std::int64_t cell) const {
  if (map) {
    // The cell's centre and its id, as the partitioner saw them: exact even at tied keys.
    const double h = 1.0 / rows;
    const std::array<double, 2> x{(static_cast<double>(cell % rows) + 0.5) * h, (static_cast<double>(cell / rows) + 0.5) * h};
    return map->rank_of_part(map->part_of(x, cell));
  }
  if (slabs) {
    const long long y = cell / rows;  // rank r holds rows [rows r / R, rows (r + 1) / R)
    return static_cast<int>(((y + 1) * ranks - 1) / rows);
  }
  return table[static_cast<std::size_t>(cell)];
}

std::vector<double> CellOwnership::centres(const ParticlesProblem& p) const {
  std::vector<double> xy;
  xy.reserve(2 * mine.size());
  const double h = p.cutoff();
  for (hpart::gid_t c : mine) {
    xy.push_back((static_cast<double>(c % p.cells) + 0.5) * h);
    xy.push_back((static_cast<double>(c / p.cells) + 0.5) * h);
  }
  return xy;
}

CellOwnership slab_cells(const hpart::Comm& comm, const ParticlesProblem& p) {
  CellOwnership c;
  const long long rows = p.cells, r = comm.rank(), R = comm.size();
  c.rows = p.cells;
  c.ranks = comm.size();
  for (long long y = rows * r / R; y < rows * (r + 1) / R; ++y)
    for (long long x = 0; x < rows; ++x) c.mine.push_back(y * rows + x);
  return c;
}

long long reassign_cells(const hpart::Comm& comm, CellOwnership& cells, const hpart::PointSet& points,
                         const hpart::Partition& part, hpart::Curve curve) {
  // The map first: it reads the cells' centres and ids before they move. An incremental
  // rebalance's parts interleave along the curve: map_of says so on every rank alike.
  cells.map.reset();
  cells.slabs = false;
  try {
    hpart::PointOptions opts;
    opts.parts = part.num_parts;
    opts.curve = curve;
    cells.map = hpart::map_of(comm, points, opts, part);
  } catch (const hpart::Error& e) {
    if (e.code() != hpart::ErrorCode::invalid_input) throw;
  }
  // The cell ids travel as the plan's checked ids: a cell given twice would be a bug here.
  const hpart::Migration plan(comm, part.parts, hpart::PartOwners{comm.size(), comm.size()}, cells.mine);
  cells.mine = plan.imported_ids();
  if (cells.map) {
    cells.table.clear();
  } else {
    rebuild_owner_table(comm, cells);
  }
  return plan.migrated().objects;
}

}  // namespace hpart_particles
