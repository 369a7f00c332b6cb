#include "ghost_exchange.hpp"

#include <mpi.h>

#include <algorithm>

namespace hpart_particles {

GhostExchange::GhostExchange(const hpart::Comm& comm, const ParticlesProblem& p, const CellOwnership& cells)
    : p_(p), ranks_(comm.size()) {
  const int G = p.cells, me = comm.rank();
  start_.assign(static_cast<std::size_t>(G) * static_cast<std::size_t>(G) + 1, 0);
  viewers_.clear();
  int seen[9];
  for (int c = 0; c < G * G; ++c) {
    int k = 0;
    if (cells.owner(c) == me) {
      const int cx = c % G, cy = c / G;
      for (int y = std::max(cy - 1, 0); y <= std::min(cy + 1, G - 1); ++y)
        for (int x = std::max(cx - 1, 0); x <= std::min(cx + 1, G - 1); ++x) {
          const int o = cells.owner(y * G + x);
          if (o != me && std::find(seen, seen + k, o) == seen + k) seen[k++] = o;
        }
    }
    viewers_.insert(viewers_.end(), seen, seen + k);
    start_[static_cast<std::size_t>(c) + 1] = static_cast<int>(viewers_.size());
  }
}

std::vector<double> GhostExchange::run(const hpart::Comm& comm, std::span<const Particle> owned) const {
  const auto R = static_cast<std::size_t>(ranks_);
  std::vector<int> send(R, 0), recv(R, 0);
  std::vector<int> cell(owned.size());
  for (std::size_t i = 0; i < owned.size(); ++i) {
    cell[i] = p_.cell_of(owned[i].x[0], owned[i].x[1]);
    for (int k = start_[static_cast<std::size_t>(cell[i])]; k < start_[static_cast<std::size_t>(cell[i]) + 1]; ++k)
      send[static_cast<std::size_t>(viewers_[static_cast<std::size_t>(k)])] += 2;
  }
  MPI_Alltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, comm.get());
  std::vector<int> sdispl(R, 0), rdispl(R, 0);
  for (std::size_t r = 1; r < R; ++r) sdispl[r] = sdispl[r - 1] + send[r - 1], rdispl[r] = rdispl[r - 1] + recv[r - 1];
  std::vector<double> out(static_cast<std::size_t>(sdispl[R - 1] + send[R - 1]));
  std::vector<double> in(static_cast<std::size_t>(rdispl[R - 1] + recv[R - 1]));
  std::vector<int> fill = sdispl;
  for (std::size_t i = 0; i < owned.size(); ++i)
    for (int k = start_[static_cast<std::size_t>(cell[i])]; k < start_[static_cast<std::size_t>(cell[i]) + 1]; ++k) {
      const auto at = static_cast<std::size_t>(fill[static_cast<std::size_t>(viewers_[static_cast<std::size_t>(k)])]);
      out[at] = owned[i].x[0];
      out[at + 1] = owned[i].x[1];
      fill[static_cast<std::size_t>(viewers_[static_cast<std::size_t>(k)])] += 2;
    }
  MPI_Alltoallv(out.data(), send.data(), sdispl.data(), MPI_DOUBLE, in.data(), recv.data(), rdispl.data(), MPI_DOUBLE,
                comm.get());
  return in;
}

}  // namespace hpart_particles
