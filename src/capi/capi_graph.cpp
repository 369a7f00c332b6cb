// The C API's graphs: handles over the caller's ParMETIS arrays, borrowed at either width
// (hpart reads 32-bit ids, offsets and weights in place; only vtxdist, R + 1 values, is widened
// into the handle), and the graph partitioners.
#include <span>

#include "capi/capi.hpp"
#include "hpart/topology.hpp"

using namespace hpart::capi;

static_assert(HPART_GRAPH_MULTILEVEL == static_cast<int>(hpart::GraphMethod::graph) &&
              HPART_GRAPH_METIS == static_cast<int>(hpart::GraphMethod::metis) &&
              HPART_GRAPH_GEOMETRIC_REFINE == static_cast<int>(hpart::GraphMethod::geometric_refine));

namespace {

bool graph_method_ok(int m) { return m >= HPART_GRAPH_MULTILEVEL && m <= HPART_GRAPH_GEOMETRIC_REFINE; }

// This rank's lengths from the arrays (n: local vertices, m: adjacency entries), checked so that
// reading them stays inside what the caller declared.
struct Lengths {
  std::int64_t n = 0, m = 0;
};

template <class I>
Lengths lengths(Check& check, const hpart::Comm& c, const I* vtxdist, const I* xadj, const I* adjncy, int ncon) {
  Lengths l;
  check.need(vtxdist != nullptr, "vtxdist is NULL").need(ncon >= 1, "ncon is " + std::to_string(ncon) + ", must be >= 1");
  if (vtxdist == nullptr) return l;
  l.n = static_cast<std::int64_t>(vtxdist[c.rank() + 1]) - static_cast<std::int64_t>(vtxdist[c.rank()]);
  check.need(l.n >= 0, "vtxdist decreases at this rank (" + std::to_string(vtxdist[c.rank()]) + " > " +
                           std::to_string(vtxdist[c.rank() + 1]) + ")");
  if (l.n < 0) return l;
  check.need(xadj != nullptr, "xadj is NULL");
  if (xadj == nullptr) return l;
  l.m = static_cast<std::int64_t>(xadj[l.n]);
  check.need(l.m >= 0, "xadj[n] is negative (" + std::to_string(l.m) + ")").array(adjncy, l.m, "adjncy");
  return l;
}

template <class I>
std::span<const I> span_of(const I* p, std::int64_t n) {
  return p ? std::span<const I>(p, static_cast<std::size_t>(n)) : std::span<const I>{};
}

template <class I>
hpart_status create(const char* fn, MPI_Comm comm, const I* vtxdist, const I* xadj, const I* adjncy, const I* vwgt,
                    int ncon, const I* adjwgt, hpart_graph** out) {
  return guard([&] {
    if (out) *out = nullptr;
    if (comm == MPI_COMM_NULL) throw hpart::Error(hpart::ErrorCode::invalid_argument, std::string(fn) + ": comm is MPI_COMM_NULL");
    const hpart::Comm c(comm);
    Check check(fn);
    check.need(out != nullptr, "out is NULL");
    const Lengths l = lengths(check, c, vtxdist, xadj, adjncy, ncon);
    check.agreed(c);
    const std::int64_t ranks = c.size() + 1, n = l.n, m = l.m, nw = l.n * ncon;
    auto h = std::make_unique<hpart_graph>();
    hpart::Graph& g = h->g;
    g.xadj = span_of(xadj, n + 1);
    g.vwgt = span_of(vwgt, nw);
    g.adjwgt = span_of(adjwgt, m);
    g.ncon = ncon;
    if constexpr (std::is_same_v<I, std::int64_t>) {
      g.vtxdist = span_of(vtxdist, ranks);
      g.adjncy = span_of(adjncy, m);
    } else {
      h->owned.vtxdist.assign(vtxdist, vtxdist + ranks);
      g.vtxdist = h->owned.vtxdist;
      g.adjncy32 = span_of(adjncy, m);
    }
    register_handle(h.get(), Kind::graph);
    *out = h.release();
  });
}

}  // namespace

extern "C" {

hpart_status hpart_graph_create_i64(MPI_Comm comm, const int64_t* vtxdist, const int64_t* xadj, const int64_t* adjncy,
                                    const int64_t* vwgt, int ncon, const int64_t* adjwgt, hpart_graph** out) {
  return create("hpart_graph_create_i64", comm, vtxdist, xadj, adjncy, vwgt, ncon, adjwgt, out);
}

hpart_status hpart_graph_create_i32(MPI_Comm comm, const int32_t* vtxdist, const int32_t* xadj, const int32_t* adjncy,
                                    const int32_t* vwgt, int ncon, const int32_t* adjwgt, hpart_graph** out) {
  return create("hpart_graph_create_i32", comm, vtxdist, xadj, adjncy, vwgt, ncon, adjwgt, out);
}

hpart_status hpart_graph_set_coords(hpart_graph* graph, int dim, const double* coords) {
  return guard([&] {
    Check("hpart_graph_set_coords").handle(graph, Kind::graph, "graph").need(dim == 2 || dim == 3 || coords == nullptr,
                                                                            "dim is " + std::to_string(dim) + ", must be 2 or 3").local();
    const auto n = graph->g.local_vertices();
    Check("hpart_graph_set_coords").array(coords, coords ? static_cast<std::int64_t>(n) : 0, "coords").local();
    graph->g.coords = coords ? std::span<const double>(coords, n * static_cast<std::size_t>(dim)) : std::span<const double>{};
    graph->g.dim = coords ? dim : 0;
  });
}

hpart_status hpart_graph_local_vertices(const hpart_graph* graph, int64_t* n) {
  return guard([&] {
    Check("hpart_graph_local_vertices").handle(graph, Kind::graph, "graph").need(n != nullptr, "n is NULL").local();
    *n = static_cast<int64_t>(graph->g.local_vertices());
  });
}

hpart_status hpart_graph_arrays(const hpart_graph* graph, const int64_t** vtxdist, const int64_t** xadj,
                                const int64_t** adjncy, const int32_t** adjncy32, const int64_t** vwgt,
                                const int64_t** adjwgt, int* ncon) {
  return guard([&] {
    Check("hpart_graph_arrays").handle(graph, Kind::graph, "graph").local();
    const hpart::Graph& g = graph->g;
    auto put = []<class T>(const T** to, std::span<const T> s) {
      if (to) *to = s.empty() ? nullptr : s.data();
    };
    // 32-bit offsets and weights are the caller's own arrays (a handle from _create_i32): NULL here.
    put(vtxdist, g.vtxdist), put(xadj, g.xadj.as64()), put(adjncy, g.adjncy), put(adjncy32, g.adjncy32),
        put(vwgt, g.vwgt.as64()), put(adjwgt, g.adjwgt.as64());
    if (ncon) *ncon = g.ncon;
  });
}

hpart_status hpart_graph_free(hpart_graph** graph) { return free_handle(graph, "hpart_graph_free"); }

hpart_status hpart_partition_graph(MPI_Comm comm, const hpart_graph* graph, const hpart_graph_options* opts,
                                   hpart_partition** out) {
  return guard([&] {
    if (out) *out = nullptr;
    Check check("hpart_partition_graph");
    check.need(out != nullptr, "out is NULL").handle(graph, Kind::graph, "graph");
    check.sized(opts, "opts", "hpart_graph_options_init");
    if (opts && opts->size == sizeof(*opts))
      check.need(graph_method_ok(opts->method), "opts->method is " + std::to_string(opts->method) + ", out of range");
    const hpart::Comm c = check.agreed(comm);
    hpart::GraphOptions o;
    o.parts = opts->parts;
    o.method = static_cast<hpart::GraphMethod>(opts->method);
    o.imbalance = opts->imbalance;
    o.seed = opts->seed;
    if (opts->target_sizes && opts->parts > 0)
      o.target_sizes = {opts->target_sizes, static_cast<std::size_t>(opts->parts)};
    *out = wrap_graph(hpart::partition_graph(c, graph->g, o), c.size());
  });
}

hpart_status hpart_partition_graph_hierarchical(MPI_Comm comm, const hpart_graph* graph,
                                                const hpart_hier_graph_options* opts, hpart_partition** out) {
  return guard([&] {
    if (out) *out = nullptr;
    Check check("hpart_partition_graph_hierarchical");
    check.need(out != nullptr, "out is NULL").handle(graph, Kind::graph, "graph");
    check.sized(opts, "opts", "hpart_hier_graph_options_init");
    if (opts && opts->size == sizeof(*opts))
      check.need(graph_method_ok(opts->node_method), "opts->node_method is " + std::to_string(opts->node_method) + ", out of range")
          .need(graph_method_ok(opts->rank_method), "opts->rank_method is " + std::to_string(opts->rank_method) + ", out of range");
    const hpart::Comm c = check.agreed(comm);
    const hpart::Topology topo = hpart::detect_topology(c, opts->topology ? opts->topology : "");
    hpart::HierGraphOptions o;
    o.parts = opts->parts;
    o.node_method = static_cast<hpart::GraphMethod>(opts->node_method);
    o.rank_method = static_cast<hpart::GraphMethod>(opts->rank_method);
    o.imbalance = opts->imbalance;
    o.seed = opts->seed;
    hpart::HierPartition p = hpart::partition_graph_hierarchical(c, graph->g, topo, o);
    std::vector<int> owners = p.owner_of_part;
    *out = wrap(static_cast<hpart::Partition&&>(p), c.size(), std::move(owners));
  });
}

hpart_status hpart_repartition_graph(MPI_Comm comm, const hpart_graph* graph, const int32_t* current,
                                     const hpart_graph_repart_options* opts, hpart_partition** out) {
  return guard([&] {
    if (out) *out = nullptr;
    Check check("hpart_repartition_graph");
    check.need(out != nullptr, "out is NULL").handle(graph, Kind::graph, "graph");
    check.sized(opts, "opts", "hpart_graph_repart_options_init");
    const bool graph_ok = graph && is_live(graph, Kind::graph);
    const auto n = graph_ok ? static_cast<std::int64_t>(graph->g.local_vertices()) : 0;
    check.array(current, n, "current");
    const hpart::Comm c = check.agreed(comm);
    hpart::GraphRepartOptions o;
    o.parts = opts->parts;
    o.imbalance = opts->imbalance;
    o.itr = opts->itr;
    o.max_rounds = opts->max_rounds;
    o.refine_passes = opts->refine_passes;
    o.reference_cut = opts->reference_cut;
    o.max_surface_growth = opts->max_surface_growth;
    hpart::GraphRepartition r =
        hpart::repartition_graph(c, graph->g, std::span<const hpart::part_t>(current, static_cast<std::size_t>(n)), o);
    const hpart::MigrationStats migrated = r.migrated;
    const bool scratch = r.from_scratch;
    const int steps = r.steps;
    const double growth = r.surface_growth;
    hpart_partition* h = wrap_graph(static_cast<hpart::GraphPartition&&>(r), c.size());
    h->migrated = migrated;
    h->from_scratch = scratch;
    h->steps = steps;
    h->surface_growth = growth;
    *out = h;
  });
}

hpart_status hpart_graph_cut(MPI_Comm comm, const hpart_graph* graph, const int32_t* parts, int num_parts,
                             hpart_graph_metrics* m) {
  return guard([&] {
    Check check("hpart_graph_cut");
    check.handle(graph, Kind::graph, "graph").sized(m, "m", "hpart_graph_metrics_init");
    const bool graph_ok = graph && is_live(graph, Kind::graph);
    const auto n = graph_ok ? static_cast<std::int64_t>(graph->g.local_vertices()) : 0;
    check.array(parts, n, "parts");
    const hpart::Comm c = check.agreed(comm);
    const hpart::GraphMetrics g =
        hpart::graph_metrics(c, graph->g, std::span<const hpart::part_t>(parts, static_cast<std::size_t>(n)), num_parts);
    m->edge_cut = g.edge_cut;
    m->comm_volume = g.comm_volume;
    m->boundary_vertices = g.boundary_vertices;
  });
}

}  // extern "C"
