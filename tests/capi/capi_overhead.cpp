// What the C layer costs over the C++ call (issue 22's target: <= 2% on 4M points at np 2), in
// pairs: each round times partition_points through the C++ API and through the C API
// (hpart_points_create + hpart_partition_points) back to back, alternating which goes first, so
// both see the same machine load; the parts must be identical. Then the same on a tiny input,
// where the call is almost all overhead, to measure the C layer's fixed cost in microseconds.
//   mpirun -np 2 capi_overhead [n_global=4000000] [pairs=10] [parts=64] [tiny_pairs=2000]
// docs/benchmarks.md "C API overhead" has the numbers. The ctest capi.same_as_cxx runs it small:
// it fails when the C call's parts differ from the C++ call's.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "hpart/hpart.h"
#include "hpart/points.hpp"

namespace {

double max_seconds(double t) {
  MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return t;
}

struct Pair {
  double cxx = 0, c = 0;
};

// One round: both calls, the order given; aborts when the parts differ.
Pair round(const hpart::Comm& comm, const std::vector<double>& xyz, int parts, bool c_first) {
  Pair p;
  hpart::PointOptions o;
  o.parts = parts;
  hpart_point_options co;
  hpart_point_options_init(&co);
  co.parts = parts;
  const auto n = static_cast<int64_t>(xyz.size() / 3);
  std::vector<hpart::part_t> a;
  std::vector<int32_t> b;
  auto cxx = [&] {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    hpart::PointSet ps;
    ps.coords = xyz;
    ps.dim = 3;
    hpart::Partition r = hpart::partition_points(comm, ps, o);
    p.cxx = max_seconds(MPI_Wtime() - t0);
    a = std::move(r.parts);
  };
  auto c = [&] {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    hpart_points* pts = nullptr;
    hpart_partition* r = nullptr;
    if (hpart_points_create(3, n, xyz.data(), &pts) != HPART_OK ||
        hpart_partition_points(MPI_COMM_WORLD, pts, &co, &r) != HPART_OK) {
      std::fprintf(stderr, "C API failed: %s\n", hpart_last_error());
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    p.c = max_seconds(MPI_Wtime() - t0);
    const int32_t* q = nullptr;
    hpart_partition_parts(r, &q);
    b.assign(q, q + n);
    hpart_partition_free(&r);
    hpart_points_free(&pts);
  };
  if (c_first) c(), cxx();
  else cxx(), c();
  if (a.size() != b.size() || !std::equal(a.begin(), a.end(), b.begin())) {
    std::fprintf(stderr, "the C and C++ calls gave different parts\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return p;
}

std::vector<double> points(long long n_global, int rank, int size) {
  const long long first = n_global * rank / size, n = n_global * (rank + 1) / size - first;
  std::mt19937_64 g(12345 + static_cast<unsigned>(rank));
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> xyz(static_cast<std::size_t>(3 * n));
  for (double& v : xyz) v = u(g);
  return xyz;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const hpart::Comm comm(MPI_COMM_WORLD);
    const long long n_global = argc > 1 ? std::atoll(argv[1]) : 4000000;
    const int pairs = argc > 2 ? std::atoi(argv[2]) : 10;
    const int parts = argc > 3 ? std::atoi(argv[3]) : 64;
    const int tiny_pairs = argc > 4 ? std::atoi(argv[4]) : 2000;
    const std::vector<double> xyz = points(n_global, comm.rank(), comm.size());
    std::vector<double> ratios, tcxx, tc;
    for (int i = 0; i < pairs; ++i) {
      const Pair p = round(comm, xyz, parts, i % 2 == 1);
      ratios.push_back(p.c / p.cxx), tcxx.push_back(p.cxx), tc.push_back(p.c);
      if (comm.rank() == 0)
        std::printf("pair %2d (%s first): C++ %.4f s  C %.4f s  C/C++ %.4f\n", i, i % 2 ? "C" : "C++", p.cxx, p.c,
                    p.c / p.cxx);
    }
    // The fixed cost: many pairs on 64 points per rank.
    const std::vector<double> tiny = points(64LL * comm.size(), comm.rank(), comm.size());
    std::vector<double> diff, tiny_cxx;
    for (int i = 0; i < tiny_pairs; ++i) {
      const Pair p = round(comm, tiny, parts, i % 2 == 1);
      diff.push_back(p.c - p.cxx), tiny_cxx.push_back(p.cxx);
    }
    if (comm.rank() == 0) {
      std::printf("n %lld, parts %d, ranks %d, pairs %d\n", n_global, parts, comm.size(), pairs);
      std::printf("C/C++ time: median of pair ratios %.4f, ratio of medians %.4f, ratio of minima %.4f\n",
                  median(ratios), median(tc) / median(tcxx),
                  *std::min_element(tc.begin(), tc.end()) / *std::min_element(tcxx.begin(), tcxx.end()));
      std::printf("fixed cost (64 points per rank, %d pairs): median C - C++ = %.1f us (the C++ call: %.1f us), "
                  "%.5f of the median C++ call above\n",
                  tiny_pairs, 1e6 * median(diff), 1e6 * median(tiny_cxx), median(diff) / median(tcxx));
    }
  }
  MPI_Finalize();
  return 0;
}
