#include "particle_migration.hpp"

#include <mpi.h>

#include "hpart/migration.hpp"

namespace hpart_particles {
namespace {

// On the wire: id, x, v, hops, trail size, then trail_size entries (52..80 bytes).
constexpr std::size_t kFixedBytes = sizeof(hpart::gid_t) + 4 * sizeof(double) + 2 * sizeof(std::int32_t);

class ParticleSerialiser : public hpart::Serialiser {
 public:
  ParticleSerialiser(const std::vector<Particle>& leaving, int rank) : leaving_(leaving), rank_(rank) {}
  std::size_t size(std::size_t i) const override {
    return kFixedBytes + sizeof(std::int32_t) * static_cast<std::size_t>(leaving_[i].trail_size);
  }
  void pack(std::size_t i, hpart::ByteWriter& out) const override {
    const Particle& q = leaving_[i];
    out.put(q.id);
    out.put(q.x);
    out.put(q.v);
    out.put(q.hops);
    out.put(q.trail_size);
    out.write(q.trail.data(), sizeof(std::int32_t) * static_cast<std::size_t>(q.trail_size));
  }
  void prepare(std::size_t n) override { arrived.resize(n); }
  void unpack(std::size_t k, hpart::ByteReader& in) override {
    Particle& q = arrived[k];
    q.id = in.get<hpart::gid_t>();
    q.x = in.get<std::array<double, 2>>();
    q.v = in.get<std::array<double, 2>>();
    q.hops = in.get<std::int32_t>();
    q.trail_size = in.get<std::int32_t>();
    if (q.trail_size < 0 || q.trail_size > kTrailCapacity) q.trail_size = 0;  // Migration then reports the bytes left
    in.read(q.trail.data(), sizeof(std::int32_t) * static_cast<std::size_t>(q.trail_size));
    q.arrive(rank_);
  }
  std::vector<Particle> arrived;

 private:
  const std::vector<Particle>& leaving_;
  int rank_;
};

}  // namespace

MigrationCount migrate_particles(const hpart::Comm& comm, const ParticlesProblem& p, const CellOwnership& cells,
                                 std::vector<Particle>& ps, bool check_ids) {
  const int me = comm.rank();
  std::vector<Particle> leaving;
  std::vector<hpart::part_t> dest;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const int o = cells.owner(p.cell_of(ps[i].x[0], ps[i].x[1]));
    if (o == me) {
      ps[kept++] = ps[i];
    } else {
      leaving.push_back(ps[i]);
      dest.push_back(o);
    }
  }
  ps.resize(kept);
  std::vector<hpart::gid_t> ids;
  if (check_ids)
    for (const Particle& q : leaving) ids.push_back(q.id);
  const hpart::Migration plan(comm, dest, hpart::PartOwners{comm.size(), comm.size()}, ids);
  ParticleSerialiser s(leaving, me);
  const std::size_t before = plan.bytes_sent();
  plan.move(s);
  ps.insert(ps.end(), s.arrived.begin(), s.arrived.end());
  long long bytes = static_cast<long long>(plan.bytes_sent() - before);
  MPI_Allreduce(MPI_IN_PLACE, &bytes, 1, MPI_LONG_LONG, MPI_SUM, comm.get());
  return {plan.migrated().objects, bytes};
}

}  // namespace hpart_particles
