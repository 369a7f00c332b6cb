#include "graph_hier_case.hpp"

#include <metis.h>
#include <mpi.h>
#include <omp.h>

#include <cstdio>
#include <optional>

#include "call_measurement.hpp"
#include "dump_parts.hpp"
#include "hpart/hpart.hpp"
#include "progress.hpp"

namespace hpart_bench {
namespace {

// Total and inter-node communication volume: the vertex volume of the parts, and of the node
// labelling the parts induce (a vertex sends to each other node among its neighbours' nodes).
void volumes(const hpart::Comm& comm, const hpart::Graph& g, const std::vector<hpart::part_t>& parts, int K,
             const std::vector<int>& node_of_part, int nodes, Record& r) {
  std::vector<hpart::part_t> node(parts.size());
  for (std::size_t v = 0; v < parts.size(); ++v) node[v] = node_of_part[static_cast<std::size_t>(parts[v])];
  r.comm_volume = hpart::graph_metrics(comm, g, parts, K).comm_volume;
  r.internode_volume = hpart::graph_metrics(comm, g, node, nodes).comm_volume;
  r.edge_cut = hpart::graph_metrics(comm, g, parts, K).edge_cut;
}

}  // namespace

void run_hier_graph_case(const hpart::Comm& comm, const std::string& graph_file, const hpart::Topology& topo, int K,
                         int reps, bool reset_works, RecordSink& sink) {
  Progress loading(comm, "hier", "graph", "loading " + graph_file);
  const hpart::GraphFile f = hpart::read_graph_metis(comm, graph_file);
  loading.done();
  const hpart::Graph g = f.view();
  auto base = [&](const char* library, const char* method, const CallStats& stats) {
    return measured_record(comm.get(), "hier", "graph", library, method, f.global_vertices, K, reps, stats);
  };
  const auto finish = [&](Record r, std::vector<hpart::part_t> parts, const std::vector<int>& node_of_part,
                          Progress& progress) {
    // Both runs are hpart's: the flat one is partition_graph with GraphMethod::metis.
    dump_parts(comm, r.suite, r.case_name, r.library, r.method, K, parts);
    volumes(comm, g, parts, K, node_of_part, topo.nodes, r);
    const std::vector<double> w = g.vwgt.to_vector<double>();
    r.imbalance = hpart::evaluate_partition(comm, std::move(parts), K, w, g.ncon).metrics.imbalance.at(0);
    char note[128];
    std::snprintf(note, sizeof note, " (imbalance %.4f, volume %lld, internode %lld)", *r.imbalance, *r.comm_volume,
                  *r.internode_volume);
    progress.done(note);
    sink.add(r);
  };
  {
    // Flat: METIS kway into K parts on the gathered graph; part p on rank p R / K.
    Progress progress(comm, "hier", "graph", "metis kway flat (parts to ranks in id order)");
    hpart::GraphOptions o;
    o.parts = K;
    o.method = hpart::GraphMethod::metis;
    std::optional<hpart::GraphPartition> p;
    const CallStats stats = measure_calls(comm.get(), reps, reset_works, [&] { p.reset(); },
                                          [&] { p.emplace(hpart::partition_graph(comm, g, o)); });
    std::vector<int> node_of_part;
    const hpart::PartOwners owners{K, comm.size()};
    for (int q = 0; q < K; ++q) node_of_part.push_back(topo.node_of_rank[static_cast<std::size_t>(owners.owner(q))]);
    finish(base("metis", "kway-flat", stats), std::move(p->parts), node_of_part, progress);
  }
  {
    Progress progress(comm, "hier", "graph", "hpart hier (graph nodes, graph ranks)");
    hpart::HierGraphOptions o;
    o.parts = K;
    std::optional<hpart::HierPartition> p;
    const CallStats stats = measure_calls(comm.get(), reps, reset_works, [&] { p.reset(); },
                                          [&] { p.emplace(hpart::partition_graph_hierarchical(comm, g, topo, o)); });
    finish(base("hpart", "hier", stats), std::move(p->parts), p->node_of_part, progress);
  }
}

}  // namespace hpart_bench
