// The "assign" suite (assign_suite.hpp): the rate of PartitionMap queries, per core.
#include "assign_suite.hpp"

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "bench_record.hpp"
#include "hpart/assign.hpp"
#include "hpart/points.hpp"
#include "point_generators.hpp"

namespace hpart_bench {
namespace {

double unit(std::uint64_t seed, std::uint64_t i) {  // splitmix64: the same queries for any thread count
  std::uint64_t x = seed + i * 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return static_cast<double>((x ^ (x >> 31)) >> 11) * 0x1.0p-53;
}

// Best of reps, each the max over ranks.
template <class F>
double best_seconds(const hpart::Comm& comm, int reps, F&& call) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    MPI_Barrier(comm.get());
    const double t0 = MPI_Wtime();
    call();
    best = std::min(best, comm.max(MPI_Wtime() - t0));
  }
  return best;
}

}  // namespace

int run_assign_command(long long queries, int parts, int reps, std::uint64_t seed, const std::string& json) {
  const hpart::Comm comm(MPI_COMM_WORLD);
  RecordSink sink(comm.rank(), json);
  comm.agree(sink.open_error().empty() ? hpart::ErrorCode::ok : hpart::ErrorCode::io, sink.open_error());
  const std::string problem = queries < 1 || parts < 1 || reps < 1 ? "--n, --parts and --reps must be >= 1" : "";
  comm.agree(problem.empty() ? hpart::ErrorCode::ok : hpart::ErrorCode::invalid_argument, problem);
  const int threads = omp_get_max_threads();
  const hpart_apps::LocalPoints pts =
      hpart_apps::generate_points(hpart_apps::PointCase::uniform3d, 1000000, comm.rank(), comm.size(), seed);
  const hpart::PointSet set{.coords = pts.coords, .dim = 3, .weights = {}, .ncon = 1, .ids = pts.ids};
  const auto q = static_cast<std::size_t>(queries);
  std::vector<double> x(3 * q);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = -0.05 + 1.1 * unit(seed + 1000003ULL * static_cast<std::uint64_t>(comm.rank() + 1), i);
  std::vector<hpart::part_t> located(q);
  for (const hpart::Curve curve : {hpart::Curve::hilbert, hpart::Curve::morton}) {
    hpart::PointOptions opts;
    opts.parts = parts;
    opts.curve = curve;
    const hpart::Partition p = hpart::partition_points(comm, set, opts);
    const hpart::PartitionMap map = hpart::map_of(comm, set, opts, p);
    Record r;
    r.suite = "assign";
    r.case_name = "uniform3d";
    r.library = "hpart";
    r.method = hpart::to_string(curve);
    r.n = queries * comm.size();
    r.parts = parts;
    r.ranks = comm.size();
    r.threads = threads;
    r.reps = reps;
    r.time_s = best_seconds(comm, reps, [&] { map.assign(x, located); });
    sink.add(r);
    const double rate = static_cast<double>(queries) / r.time_s / threads;
    // Small boxes (1% of the side) around query points: parts_in_box per second.
    const std::size_t boxes = std::min<std::size_t>(q, 10000);
    long long found = 0;
    Record b = r;
    b.case_name = "boxes";
    b.n = static_cast<long long>(boxes) * comm.size();
    b.time_s = best_seconds(comm, reps, [&] {
      found = 0;
      for (std::size_t i = 0; i < boxes; ++i) {
        const double lo[3] = {x[3 * i], x[3 * i + 1], x[3 * i + 2]};
        const double hi[3] = {lo[0] + 0.01, lo[1] + 0.01, lo[2] + 0.01};
        found += static_cast<long long>(map.parts_in_box(lo, hi).size());
      }
    });
    sink.add(b);
    if (comm.rank() == 0)
      std::printf("[assign] %s K %d: %.3g located points per second per core (%lld per rank, %d threads); "
                  "%.3g boxes per second per rank, %.2f parts per box\n",
                  hpart::to_string(curve), parts, rate, queries, threads,
                  static_cast<double>(boxes) / b.time_s, static_cast<double>(found) / static_cast<double>(boxes));
  }
  if (comm.rank() == 0) std::printf("\n");
  sink.print_table(stdout);
  return 0;
}

}  // namespace hpart_bench
