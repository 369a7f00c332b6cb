#include "cell_ownership.hpp"

#include <mpi.h>

#include "hpart/migration.hpp"

namespace hpart_particles {
namespace {

void rebuild_owner_map(const hpart::Comm& comm, CellOwnership& c, std::size_t num_cells) {
  const int R = comm.size();
  int mine = static_cast<int>(c.mine.size());
  std::vector<int> counts(static_cast<std::size_t>(R)), displs(static_cast<std::size_t>(R), 0);
  MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, comm.get());
  for (std::size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<hpart::gid_t> all(num_cells);
  MPI_Allgatherv(c.mine.data(), mine, MPI_INT64_T, all.data(), counts.data(), displs.data(), MPI_INT64_T, comm.get());
  c.owner.assign(num_cells, -1);
  for (int r = 0; r < R; ++r)
    for (int k = 0; k < counts[static_cast<std::size_t>(r)]; ++k)
      c.owner[static_cast<std::size_t>(all[static_cast<std::size_t>(displs[static_cast<std::size_t>(r)] + k)])] = r;
}

}  // namespace

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
  for (long long y = rows * r / R; y < rows * (r + 1) / R; ++y)
    for (long long x = 0; x < rows; ++x) c.mine.push_back(y * rows + x);
  rebuild_owner_map(comm, c, static_cast<std::size_t>(rows * rows));
  return c;
}

long long reassign_cells(const hpart::Comm& comm, CellOwnership& cells, std::span<const hpart::part_t> parts) {
  // The cell ids travel as the plan's checked ids: a cell given twice would be a bug here.
  const hpart::Migration plan(comm, parts, hpart::PartOwners{comm.size(), comm.size()}, cells.mine);
  cells.mine = plan.imported_ids();
  rebuild_owner_map(comm, cells, cells.owner.size());
  return plan.migrated().objects;
}

}  // namespace hpart_particles
