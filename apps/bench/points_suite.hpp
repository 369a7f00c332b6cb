#pragma once
// The "points" suite: hpart's SFC partitioner against the floor and Zoltan's geometric methods on
// generated 3D point sets.
#include <cstdint>
#include <string>
#include <vector>

#include "bench_record.hpp"
#include "hpart/comm.hpp"
#include "point_generators.hpp"

namespace hpart_bench {

using hpart_apps::LocalPoints;
using hpart_apps::PointCase;

struct PointsSuiteConfig {
  long long n = 4000000;
  int parts = 64;
  int reps = 1;
  std::uint64_t seed = 20240611;
  std::vector<PointCase> cases{PointCase::uniform3d, PointCase::clusters3d, PointCase::plane};
  // hpart-c: the same partition_points call through the C API (include/hpart/hpart.h), right
  // after the C++ one of each curve, to measure what the C layer costs.
  bool run_hpart = true, run_hpart_c = true, run_floor = true, run_zoltan = true;
};

// Collective. Per case: generate, then hpart hilbert and morton first (each followed by hpart-c,
// the same call through the C API), so their memory growth
// is measured before any baseline touched the heap), then the floor, then Zoltan hsfc, rcb, rib.
// Progress lines go to rank 0's stdout; records go to `sink`.
void run_points_suite(const hpart::Comm& comm, const PointsSuiteConfig& cfg, RecordSink& sink);

}  // namespace hpart_bench
