// The README demo: partition a generated point set, move the points to their owners, let the
// load shift onto a hotspot, and rebalance. Prints one table row per step on rank 0.
//   mpirun -np 4 points_demo [--n 2000000] [--parts 64]
#include <mpi.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "hpart/hpart.hpp"

namespace {

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
double unit(std::uint64_t i, int stream) { return static_cast<double>(mix(i * 4 + static_cast<std::uint64_t>(stream)) >> 11) * 0x1.0p-53; }

struct Row {
  std::string step, method;
  int parts;
  double imbalance, seconds;
  long long migrated;
};

void print_rows(const hpart::Comm& comm, const std::vector<Row>& rows, long long n) {
  if (comm.rank() != 0) return;
  std::printf("\nhpart points demo: %lld points on %d ranks\n", n, comm.size());
  std::printf("%-28s %-8s %6s %10s %9s %12s\n", "step", "method", "parts", "imbalance", "time_s", "migrated");
  for (const Row& r : rows)
    std::printf("%-28s %-8s %6d %10.5f %9.4f %12lld\n", r.step.c_str(), r.method.c_str(), r.parts, r.imbalance,
                r.seconds, r.migrated);
  std::printf("imbalance = max part weight / average - 1; migrated = objects that changed rank\n");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  long long n = 2000000;
  int parts = 64;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--n")) n = std::atoll(argv[i + 1]);
    if (!std::strcmp(argv[i], "--parts")) parts = std::atoi(argv[i + 1]);
  }
  int status = 0;
  try {
    const hpart::Comm comm(MPI_COMM_WORLD);
    // This rank's block of a global point set: points uniform in the unit cube.
    const long long begin = n * comm.rank() / comm.size(), end = n * (comm.rank() + 1) / comm.size();
    std::vector<std::array<double, 3>> xyz;
    std::vector<hpart::gid_t> ids;
    for (long long g = begin; g < end; ++g) {
      const auto u = static_cast<std::uint64_t>(g);
      xyz.push_back({unit(u, 0), unit(u, 1), unit(u, 2)});
      ids.push_back(g);
    }
    auto point_set = [](const std::vector<std::array<double, 3>>& p, const std::vector<double>& w,
                        const std::vector<hpart::gid_t>& id) {
      return hpart::PointSet{.coords = {p.front().data(), p.size() * 3}, .dim = 3, .weights = w, .ncon = 1, .ids = id};
    };
    if (xyz.empty()) throw hpart::Error(hpart::ErrorCode::invalid_argument, "demo needs at least one point per rank");
    std::vector<Row> rows;

    hpart::PointOptions opts;
    opts.parts = parts;
    opts.curve = hpart::Curve::morton;
    const hpart::Partition morton = hpart::partition_points(comm, point_set(xyz, {}, ids), opts);
    rows.push_back({"partition (unit weights)", "morton", parts, morton.metrics.imbalance[0], morton.metrics.seconds,
                    hpart::Migration(comm, morton).migrated().objects});

    opts.curve = hpart::Curve::hilbert;
    const hpart::Partition first = hpart::partition_points(comm, point_set(xyz, {}, ids), opts);
    const hpart::Migration move1(comm, first);
    rows.push_back({"partition (unit weights)", "hilbert", parts, first.metrics.imbalance[0], first.metrics.seconds,
                    move1.migrated().objects});
    xyz = move1.move(xyz);
    ids = move1.move(ids);
    std::vector<hpart::part_t> owned = move1.move(first.parts);

    // The load shifts: points near a hotspot now cost up to 20x more.
    std::vector<double> cost(xyz.size());
    for (std::size_t i = 0; i < xyz.size(); ++i) {
      const double dx = xyz[i][0] - 0.7, dy = xyz[i][1] - 0.3, dz = xyz[i][2] - 0.5;
      cost[i] = 1.0 + 19.0 * std::exp(-(dx * dx + dy * dy + dz * dz) / 0.02);
    }
    const hpart::Partition stale = hpart::evaluate_partition(comm, owned, parts, cost, 1);
    rows.push_back({"load shifts (no rebalance)", "-", parts, stale.metrics.imbalance[0], 0.0, 0});

    const hpart::Partition rebalanced = hpart::partition_points(comm, point_set(xyz, cost, ids), opts);
    const hpart::Migration move2(comm, rebalanced);
    rows.push_back({"rebalance (from scratch)", "hilbert", parts, rebalanced.metrics.imbalance[0],
                    rebalanced.metrics.seconds, move2.migrated().objects});
    print_rows(comm, rows, n);
  } catch (const hpart::Error& e) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) std::fprintf(stderr, "points_demo: error: %s\n", e.what());
    status = 2;
  }
  MPI_Finalize();
  return status;
}
