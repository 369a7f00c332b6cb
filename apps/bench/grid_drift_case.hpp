#pragma once
// Case griddrift of the repart suite: a side x side grid of cells (rows in blocks over the ranks)
// whose cost is 1 plus a Gaussian bump (peak 5x the background) drifting corner to corner over
// `steps` steps; whenever the imbalance exceeds the threshold the method repartitions: hpart
// `planes` (repartition_grid: the blocks cut tree kept, planes moved where their boxes left half
// the threshold), hpart `blocks` (a fresh blocks partition), zoltan `rcb` and `rcb-reuse` on the
// cell centres. One summary record per method, comm_volume = faces between parts at the end.
#include "bench_record.hpp"
#include "hpart/comm.hpp"
#include "repart_suite.hpp"

namespace hpart_bench {

void run_grid_drift(const hpart::Comm& comm, const RepartSuiteConfig& cfg, RecordSink& sink);

}  // namespace hpart_bench
