#pragma once
// Case graphdrift of the repart suite: a side x side 4-neighbour grid graph (rows in blocks over
// the ranks) whose integer vertex weights are 10 plus a Gaussian bump (peak 5x the background)
// drifting corner to corner over `steps` steps; whenever the imbalance exceeds the threshold the
// method repartitions: hpart incremental (repartition_graph), hpart scratch (partition_graph,
// relabelled to keep the most weight in place), zoltan phg-repart (PHG graph partitioning with
// LB_APPROACH REPARTITION from the current parts). One summary record per method.
#include "bench_record.hpp"
#include "hpart/comm.hpp"
#include "repart_suite.hpp"

namespace hpart_bench {

void run_graph_drift(const hpart::Comm& comm, const RepartSuiteConfig& cfg, RecordSink& sink);

}  // namespace hpart_bench
