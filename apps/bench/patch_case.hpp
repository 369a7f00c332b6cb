#pragma once
// The grid suite's AMR case amr2d: one generated patch level (apps/common/patch_generators.hpp)
// distributed by hpart's patch methods, a naive round-robin (AMReX ROUNDROBIN) and Zoltan RCB of
// the patch centres weighted by cost; comm_volume is the ghost-cell exchange of width 1
// (patch_neighbours) for every method alike.
#include "bench_record.hpp"
#include "grid_suite.hpp"
#include "hpart/comm.hpp"

namespace hpart_bench {

void run_amr2d_case(const hpart::Comm& comm, const GridSuiteConfig& cfg, bool reset_works, RecordSink& sink);

}  // namespace hpart_bench
