#pragma once
// The hier suite's case "graph": delaunay_n15 on the emulated topology, hpart's hierarchical
// graph partitioner against a flat METIS kway partition whose parts go to ranks in id order
// (contiguous blocks, as Migration's default), inter-node volume measured alike.
#include <string>

#include "bench_record.hpp"
#include "hpart/comm.hpp"
#include "hpart/topology.hpp"

namespace hpart_bench {

void run_hier_graph_case(const hpart::Comm& comm, const std::string& graph_file, const hpart::Topology& topo, int parts,
                         int reps, bool reset_works, RecordSink& sink);

}  // namespace hpart_bench
