// hpart.Topology, hpart.detect_topology and the node-then-rank partitioners of grids and points
// and graphs (hpart/topology.hpp, hpart/hierarchy.hpp); graphs are the graph bindings' hpart.Graph.
#include "hpart/hierarchy.hpp"

#include <algorithm>
#include <cstring>

#include "hpart/topology.hpp"
#include "python/py_graph.hpp"
#include "python/py_grid.hpp"
#include "python/py_options.hpp"

namespace hpart::python {

namespace {

// The library has no parser for NodeCut; its names are the enumerators'.
NodeCut node_cut_from_string(const char* name) {
  if (std::strcmp(name, "staircase") == 0) return NodeCut::staircase;
  if (std::strcmp(name, "boxes") == 0) return NodeCut::boxes;
  if (std::strcmp(name, "graph") == 0) return NodeCut::graph;
  throw Error(ErrorCode::invalid_argument,
              std::string("unknown node cut '") + name + "' (expected staircase, boxes or graph)");
}

// The topology argument: an hpart.Topology, or None (detected after the arguments are agreed:
// detect_topology is collective).
const Topology* topology_arg(Args& args, const py::object& topology) {
  if (topology.is_none()) return nullptr;
  return bound_of<Topology>(args, topology, "topology", "hpart.Topology");
}

// The call's topology, after its arguments are agreed: the given one, or detected when every rank
// passed None (a rank detecting while the others do not would wait in detect_topology's
// collectives).
Topology topology_of(const Comm& c, const Topology* given, const char* fn) {
  if (!same_everywhere(c, given != nullptr ? 1 : 0))
    throw Error(ErrorCode::invalid_argument,
                std::string(fn) + ": topology is given on some ranks and None on others: pass it on every rank or on none");
  return given != nullptr ? *given : detect_topology(c);
}

void bind_classes(py::module_& m) {
  py::class_<Topology>(m, "Topology", R"doc(Where the ranks of a communicator run (hpart::Topology): the node of each rank.

From hpart.detect_topology (shared memory, or an "NxM" spec / HPART_TOPOLOGY emulating N nodes
of M ranks), or built from node_of_rank.

Example
-------
>>> t = hpart.detect_topology("2x2")          # at np 4: ranks 0,1 on node 0, ranks 2,3 on node 1
>>> t.nodes, t.node_of_rank, t.ranks_of(1)
)doc")
      .def(py::init([](const std::vector<int>& node_of_rank) {
             Topology t;
             t.node_of_rank = node_of_rank;
             t.nodes = node_of_rank.empty() ? 0 : *std::max_element(node_of_rank.begin(), node_of_rank.end()) + 1;
             t.source = "given";
             return t;
           }),
           py::arg("node_of_rank"), "A topology from the node of every rank (nodes = max + 1; checked when used).")
      .def_readonly("nodes", &Topology::nodes)
      .def_readonly("node_of_rank", &Topology::node_of_rank)
      .def_readonly("source", &Topology::source, "\"shared-memory\", \"given\" or the NxM spec used")
      .def_readonly("numa_of_rank", &Topology::numa_of_rank, "NUMA domain of each rank's binding, -1 where unknown")
      .def_readonly("numa_domains", &Topology::numa_domains)
      .def("ranks_on", &Topology::ranks_on, py::arg("node"))
      .def("ranks_of", &Topology::ranks_of, py::arg("node"), "the ranks of a node, ascending")
      .def("__repr__", [](const Topology& t) {
        return "Topology(nodes=" + std::to_string(t.nodes) + ", ranks=" + std::to_string(t.node_of_rank.size()) +
               ", source=" + t.source + ")";
      });
  py::enum_<NodeCut>(m, "NodeCut", "How partition_grid_hierarchical cuts the grid among nodes.")
      .value("staircase", NodeCut::staircase, "slabs across the longest side, cut at exact weights")
      .value("boxes", NodeCut::boxes, "box-shaped node parts from node_method")
      .value("graph", NodeCut::graph, "a METIS cut of the coarsened grid (default: least inter-node traffic)");
  py::class_<HierGridPartition, GridPartition>(
      m, "HierGridPartition",
      "A hierarchical grid partition: a GridPartition (parts numbered node by node) plus\n"
      ".node_of_part, .owner_of_part (rank of every part) and .node_boxes.")
      .def_readonly("node_of_part", &HierGridPartition::node_of_part)
      .def_readonly("owner_of_part", &HierGridPartition::owner_of_part)
      .def_property_readonly("node_boxes", [](const HierGridPartition& p) { return boxes_to_list(p.node_boxes); });
  py::class_<HierPartition, Partition>(m, "HierPartition",
                                       "A hierarchical partition: a Partition (parts numbered node by node) plus\n"
                                       ".node_of_part and .owner_of_part (rank of every part: pass it to Migration).")
      .def_readonly("node_of_part", &HierPartition::node_of_part)
      .def_readonly("owner_of_part", &HierPartition::owner_of_part);
  py::class_<LevelVolumes>(m, "LevelVolumes", "Halo volume split by level: crossing nodes, or inside one.")
      .def_readonly("total", &LevelVolumes::total)
      .def_readonly("internode", &LevelVolumes::internode)
      .def_readonly("intranode", &LevelVolumes::intranode)
      .def("__repr__", [](const LevelVolumes& v) {
        return "LevelVolumes(total=" + std::to_string(v.total) + ", internode=" + std::to_string(v.internode) +
               ", intranode=" + std::to_string(v.intranode) + ")";
      });
}

void def_topology_and_grid(py::module_& m) {
  m.def(
      "detect_topology",
      [](const StrArg& spec, const CommArg& comm) {
        const char* fn = "hpart.detect_topology";
        const Comm c = comm_of(comm, fn);
        Args args(fn);
        const auto s = value_of<std::string>(args, spec, "spec");
        args.agreed(c);
        py::gil_scoped_release unlocked;
        return detect_topology(c, s);
      },
      py::arg("spec") = "", py::kw_only(), py::arg("comm") = py::none(),
      R"doc(The node of every rank of `comm`.

Collective. Detected from shared memory (MPI_COMM_TYPE_SHARED), or emulated from a spec.

Parameters
----------
spec : str, "" (default: HPART_TOPOLOGY if set, else detected) or "NxM": N nodes of M ranks,
       numbered node by node (emulates nodes on one machine; N x M must be the size)
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.Topology: .nodes, .node_of_rank, .ranks_of(node), .source

Example
-------
>>> hpart.detect_topology().nodes
>>> hpart.detect_topology("2x2").node_of_rank     # at np 4: [0, 0, 1, 1]
)doc");
  m.def(
      "partition_grid_hierarchical",
      [](const GridArg& grid, const IntArg& parts, const TopologyArg& topology, const NameArg& node_cut,
         const NameArg& node_method, const NameArg& rank_method, const FloatArg& imbalance,
         const NameArg& preset, const CommArg& comm) {
        const char* fn = "hpart.partition_grid_hierarchical";
        const Comm c = comm_of(comm, fn);
        Args args(fn);
        const Grid g = grid_arg(args, grid);
        const Topology* given = topology_arg(args, topology);
        auto opts = options_of<HierGridOptions>(args, parts, preset);
        set_enum(args, node_cut, "node_cut", opts.node_cut, node_cut_from_string);
        set_enum(args, node_method, "node_method", opts.node_method, grid_method_from_string);
        set_enum(args, rank_method, "rank_method", opts.rank_method, grid_method_from_string);
        set_value(args, imbalance, "imbalance", opts.imbalance);
        args.agreed(c);
        py::gil_scoped_release unlocked;
        const Topology t = topology_of(c, given, fn);
        return partition_grid_hierarchical(c, g, t, opts);
      },
      py::arg("grid"), py::arg("parts") = 0, py::kw_only(), py::arg("topology") = py::none(),
      py::arg("node_cut") = py::none(), py::arg("node_method") = py::none(), py::arg("rank_method") = py::none(),
      py::arg("imbalance") = py::none(), py::arg("preset") = py::none(), py::arg("comm") = py::none(),
      R"doc(Partition a grid among nodes first, then among the ranks of each node.

Collective. Cuts between nodes are what crosses the network, so the node level minimises them
and the rank level balances exactly. Node i receives parts in proportion to its ranks.

Parameters
----------
grid : hpart.Grid
parts : int, total parts (default 0: one per rank; at least one per node)
topology : hpart.Topology, optional (default hpart.detect_topology(comm=comm))
node_cut : "graph" (default: METIS cut of the coarsened grid), "staircase" or "boxes"
node_method, rank_method : NodeCut.boxes: the grid methods of the two levels ("blocks", "sfc", ...)
imbalance : sfc levels' splitter tolerance (default 0.001)
preset : "fast", "standard" or "strong"
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.HierGridPartition: a GridPartition plus .node_of_part, .owner_of_part, .node_boxes

Example
-------
>>> t = hpart.detect_topology("2x2")                  # np 4 as 2 nodes of 2 ranks
>>> ext = (128, 128)
>>> p = hpart.partition_grid_hierarchical(hpart.Grid(ext, hpart.slab_of(ext)), parts=8, topology=t)
>>> p.node_of_part, p.owner_of_part
)doc");
}

void def_points_and_graph(py::module_& m) {
  m.def(
      "partition_points_hierarchical",
      [](const ArrayArg& coords, const IntArg& parts, const ArrayArg& weights, const ArrayArg& ids,
         const TopologyArg& topology, const NameArg& node_curve, const NameArg& rank_curve,
         const FloatArg& imbalance, const NameArg& preset, const CommArg& comm) {
        const char* fn = "hpart.partition_points_hierarchical";
        const Comm c = comm_of(comm, fn);
        Args args(fn);
        const PointSet ps = point_set(args, coords, weights, ids);
        const Topology* given = topology_arg(args, topology);
        auto opts = options_of<HierPointOptions>(args, parts, preset);
        set_enum(args, node_curve, "node_curve", opts.node_curve, curve_from_string);
        set_enum(args, rank_curve, "rank_curve", opts.rank_curve, curve_from_string);
        set_value(args, imbalance, "imbalance", opts.imbalance);
        args.agreed(c);
        py::gil_scoped_release unlocked;
        const Topology t = topology_of(c, given, fn);
        return partition_points_hierarchical(c, ps, t, opts);
      },
      py::arg("coords"), py::arg("parts") = 0, py::kw_only(), py::arg("weights") = py::none(),
      py::arg("ids") = py::none(), py::arg("topology") = py::none(), py::arg("node_curve") = py::none(),
      py::arg("rank_curve") = py::none(), py::arg("imbalance") = py::none(), py::arg("preset") = py::none(),
      py::arg("comm") = py::none(),
      R"doc(Partition a point set among nodes (along node_curve), then each node's points among its parts.

Collective. With the same curve at both levels the parts are those of a flat curve partition
with node-proportional part counts; the hierarchy adds the grouping by node (.node_of_part) and
the owner rank of each part (.owner_of_part).

Parameters
----------
coords : float64 (n, 2) or (n, 3), C-contiguous (not copied)
parts : int, total parts (default 0: one per rank)
weights, ids : as hpart.partition_points
topology : hpart.Topology, optional (default hpart.detect_topology(comm=comm))
node_curve, rank_curve : "hilbert" (default) or "morton"
imbalance : splitter tolerance of both levels (default 0.001)
preset : "fast", "standard" or "strong"
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.HierPartition: a Partition plus .node_of_part, .owner_of_part

Example
-------
>>> xyz = np.random.default_rng(MPI.COMM_WORLD.rank).random((1000, 3))
>>> p = hpart.partition_points_hierarchical(xyz, parts=8, topology=hpart.detect_topology("2x2"))
>>> p.owner_of_part
)doc");
  m.def(
      "partition_graph_hierarchical",
      [](const GraphArg& graph, const IntArg& parts, const TopologyArg& topology, const NameArg& node_method,
         const NameArg& rank_method, const FloatArg& imbalance, const IntArg& seed, const NameArg& preset,
         const CommArg& comm) {
        const char* fn = "hpart.partition_graph_hierarchical";
        const Comm c = comm_of(comm, fn);
        Args args(fn);
        const PyGraph* g = graph_of(args, graph);
        const Topology* given = topology_arg(args, topology);
        auto opts = options_of<HierGraphOptions>(args, parts, preset);
        set_enum(args, node_method, "node_method", opts.node_method, graph_method_of);
        set_enum(args, rank_method, "rank_method", opts.rank_method, graph_method_of);
        set_value(args, imbalance, "imbalance", opts.imbalance);
        set_value(args, seed, "seed", opts.seed);
        args.agreed(c);
        py::gil_scoped_release unlocked;
        const Topology t = topology_of(c, given, fn);
        return partition_graph_hierarchical(c, g->g, t, opts);
      },
      py::arg("graph"), py::arg("parts") = 0, py::kw_only(), py::arg("topology") = py::none(),
      py::arg("node_method") = py::none(), py::arg("rank_method") = py::none(), py::arg("imbalance") = py::none(),
      py::arg("seed") = py::none(), py::arg("preset") = py::none(), py::arg("comm") = py::none(),
      R"doc(Partition a graph among nodes (node_method), then each node's induced subgraph among its parts.

Collective; all ranks take part with the vertices they hold. The tolerance is split between the
levels so that the final parts meet `imbalance` (reported in .metrics.within_tolerance).

Parameters
----------
graph : hpart.Graph
parts : int, total parts (default 0: one per rank)
topology : hpart.Topology, optional (default hpart.detect_topology(comm=comm))
node_method, rank_method : "graph" (default), "metis" or "geometric_refine", or hpart.GraphMethod
imbalance : of the final parts, every constraint (default 0.03)
seed : both levels' seed (default 1)
preset : "fast", "standard" or "strong": both levels' effort (as hpart.partition_graph's)
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.HierPartition: a Partition of the local vertices plus .node_of_part, .owner_of_part

Example
-------
>>> g = hpart.read_graph_metis("mesh.graph")
>>> h = hpart.partition_graph_hierarchical(g, parts=16, topology=hpart.detect_topology("2x2"))
>>> h.node_of_part, hpart.graph_metrics(g, h.parts, 16).edge_cut
)doc");
}

}  // namespace

void bind_hierarchy(py::module_& m) {
  bind_classes(m);
  def_topology_and_grid(m);
  def_points_and_graph(m);
  m.def(
      "thread_chunks",
      [](const ArrayArg& weights, std::size_t n, int threads) {
        Args args("hpart.thread_chunks");
        const auto w = args.array<double>(weights, "weights", 1, 0, true);
        args.local();
        std::vector<int> chunks;
        {
          py::gil_scoped_release unlocked;
          chunks = thread_chunks(w, weights.is_none() ? n : w.size(), threads);
        }
        return to_numpy(std::move(chunks));
      },
      py::arg("weights"), py::kw_only(), py::arg("n") = 0, py::arg("threads") = 1,
      R"doc(Split a rank's objects, in the order given, into `threads` contiguous chunks of
bottleneck-optimal weight (the thread level of a hierarchy).

Not collective.

Parameters
----------
weights : float64 (n,), or None for `n` objects of unit weight
n : int, the object count when weights is None
threads : int, the chunks (default 1)

Returns
-------
numpy.ndarray, int32 (n,): the chunk of each object, ascending

Example
-------
>>> hpart.thread_chunks(np.array([1.0, 1, 1, 3]), threads=2)    # array([0, 0, 0, 1])
)doc");
  m.def(
      "level_volumes",
      [](const GridNeighbours& n, const std::vector<int>& node_of_part) { return level_volumes(n, node_of_part); },
      py::arg("neighbours"), py::arg("node_of_part"),
      R"doc(The halo volume of hpart.grid_neighbours split by level for a part -> node map.

Not collective.

Parameters
----------
neighbours : hpart.GridNeighbours
node_of_part : list of int, the node of every part (a hierarchical partition's .node_of_part)

Returns
-------
hpart.LevelVolumes: .internode (cells crossing nodes), .intranode, .total

Example
-------
>>> v = hpart.level_volumes(hpart.grid_neighbours(grid, p), p.node_of_part)
>>> v.internode, v.intranode
)doc");
}

}  // namespace hpart::python
