#include "conservation_check.hpp"

#include <mpi.h>

namespace hpart_particles {
namespace {

unsigned long long hash(hpart::gid_t id) {
  auto x = static_cast<unsigned long long>(id) + 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

Census take_census(const hpart::Comm& comm, const ParticlesProblem& p, const CellOwnership& cells,
                   const std::vector<Particle>& ps) {
  Census c;
  const int me = comm.rank();
  for (const Particle& q : ps) {
    ++c.count;
    c.id_sum += q.id;
    c.id_hash += hash(q.id);
    c.hops += q.hops;
    c.bad_trails += q.trail_size < 1 || q.trail_size > kTrailCapacity ||
                    q.trail[static_cast<std::size_t>(q.trail_size > 0 ? q.trail_size - 1 : 0)] != me;
    c.misplaced += cells.owner(p.cell_of(q.x[0], q.x[1])) != me;
  }
  long long v[5] = {c.count, c.id_sum, c.hops, c.bad_trails, c.misplaced};
  MPI_Allreduce(MPI_IN_PLACE, v, 5, MPI_LONG_LONG, MPI_SUM, comm.get());
  MPI_Allreduce(MPI_IN_PLACE, &c.id_hash, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm.get());
  c.count = v[0], c.id_sum = v[1], c.hops = v[2], c.bad_trails = v[3], c.misplaced = v[4];
  return c;
}

}  // namespace hpart_particles
