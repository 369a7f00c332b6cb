// Smallest useful hpart program: each rank brings its points, hpart says who owns what, and
// the points move there. Exits 0 when every point arrived at the owner of its part.
#include <mpi.h>

#include <array>
#include <cstdio>
#include <vector>

#include <hpart/hpart.hpp>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    const hpart::Comm comm(MPI_COMM_WORLD);
    std::vector<std::array<double, 2>> xy;
    for (int i = 0; i < 1000; ++i) xy.push_back({(i % 37) * 0.1 + comm.rank(), (i / 37) * 0.1});

    hpart::PointOptions opts;
    opts.parts = 2 * comm.size();
    const hpart::PointSet points{.coords = {xy.front().data(), xy.size() * 2}, .dim = 2, .weights = {}, .ncon = 1, .ids = {}};
    const hpart::Partition p = hpart::partition_points(comm, points, opts);
    const hpart::Migration migration(comm, p);
    const auto mine = migration.move(xy);
    const auto my_parts = migration.move(p.parts);
    const hpart::PartOwners owners{opts.parts, comm.size()};
    for (auto part : my_parts) status |= owners.owner(part) != comm.rank();
    if (comm.rank() == 0)
      std::printf("hpart %s: %lld points, %d parts, imbalance %.5f, migrated %lld\n", HPART_VERSION_STRING,
                  p.metrics.objects, p.num_parts, p.metrics.imbalance[0], migration.migrated().objects);
    (void)mine;
  }
  MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
