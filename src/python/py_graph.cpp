// hpart.Graph (numpy CSR in the ParMETIS convention), the graph readers, validate_graph,
// partition_graph, repartition_graph and graph_metrics (hpart/graph.hpp).
#include "hpart/graph.hpp"

#include <string>
#include <utility>

#include "python/py_graph.hpp"
#include "python/py_options.hpp"
#include "python/py_values.hpp"

namespace hpart::python {

namespace {

// A 1-D or (rows, cols) int64 or int32 array, viewed in place at its own width (the Graph keeps
// it alive). Other dtypes are refused by Args (no silent conversion).
IntSpan int_array(Args& args, PyGraph& pg, const py::object& a, const char* name, py::ssize_t cols = 0,
                  bool optional = false) {
  if (!a.is_none()) pg.keep.push_back(a);
  if (is_int32(a)) return args.array<std::int32_t>(a, name, 1, cols, optional);
  return args.array<std::int64_t>(a, name, 1, cols, optional);
}

// A read-only numpy view of a span inside `owner` (None when empty and `none_if_empty`).
template <class T>
py::object view(std::span<const T> s, const py::handle& owner, py::ssize_t cols = 0, bool none_if_empty = false) {
  if (s.empty() && none_if_empty) return py::none();
  py::array_t<T> a = cols > 0 ? py::array_t<T>({static_cast<py::ssize_t>(s.size()) / cols, cols}, s.data(), owner)
                              : py::array_t<T>(static_cast<py::ssize_t>(s.size()), s.data(), owner);
  a.attr("setflags")(py::arg("write") = false);
  return a;
}
py::object view(IntSpan s, const py::handle& owner, py::ssize_t cols = 0, bool none_if_empty = false) {
  return s.visit([&](auto at_width) { return view(at_width, owner, cols, none_if_empty); });
}

std::span<const part_t> parts_arg(Args& args, const py::object& parts, const char* name, const PyGraph* g) {
  if (g == nullptr) return args.array<part_t>(parts, name);
  return per_object<part_t>(args, parts, name, g->g.local_vertices(), "local vertices");
}

template <class Read>
void def_reader(py::module_& m, const char* name, Read read, const char* doc) {
  m.def(
      name,
      [read, name](const PathArg& path, const CommArg& comm) {
        const std::string fn = std::string("hpart.") + name;
        const Comm c = comm_of(comm, fn.c_str());
        Args args(fn.c_str());
        const std::string p = path_of(args, path);
        args.agreed(c);
        GraphFile f;
        {
          py::gil_scoped_release unlocked;
          f = read(c, p);
        }
        return graph_file(std::move(f));
      },
      py::arg("path"), py::kw_only(), py::arg("comm") = py::none(), doc);
}

}  // namespace

GraphMethod graph_method_of(const char* name) {
  const std::string s = name;
  return graph_method_from_string(s == "geometric_refine" ? "geometric+refine" : name);
}

std::unique_ptr<PyGraphFile> graph_file(GraphFile&& file) {
  auto pg = std::make_unique<PyGraphFile>();
  pg->owned = std::move(file);
  pg->g = pg->owned.view();
  return pg;
}

const PyGraph* graph_of(Args& args, const py::object& graph, const char* name) {
  if (py::isinstance<PyGraph>(graph)) return &graph.cast<const PyGraph&>();
  args.need(false, std::string(name) + " must be an hpart.Graph (hpart.Graph(vtxdist, xadj, adjncy, ...) or a reader's), got " +
                       type_name(graph));
  return nullptr;
}

namespace {

void bind_graph_class(py::module_& m) {
  py::enum_<GraphMethod>(m, "GraphMethod", "Method of hpart.partition_graph.")
      .value("graph", GraphMethod::graph, "hpart's own multilevel partitioner (default)")
      .value("metis", GraphMethod::metis, "METIS_PartGraphKway on the graph gathered to rank 0")
      .value("geometric_refine", GraphMethod::geometric_refine,
             "Hilbert partition of the vertex coordinates, refined on the graph (needs coords)");

  py::class_<PyGraph>(m, "Graph", R"doc(A distributed graph in the ParMETIS convention (numpy CSR).

hpart.Graph(vtxdist, xadj, adjncy, *, vwgt=None, adjwgt=None, coords=None, comm=None)

Collective over `comm` (the argument checks are agreed: a bad array on one rank is hpart.Error
on every rank). Rank r owns the global vertices [vtxdist[r], vtxdist[r+1]).

vtxdist : int64 or int32 (R + 1,), the same on every rank
xadj    : int64 or int32 (n + 1,), offsets into adjncy (n = local vertices)
adjncy  : int64 or int32 (xadj[n],), global ids of the neighbours (each edge listed at both ends)
vwgt    : int64 or int32 (n,) or (n, ncon), optional vertex weights >= 0 (unit by default)
adjwgt  : int64 or int32 (xadj[n],), optional edge weights > 0 (unit by default)
coords  : float64 (n, 2) or (n, 3), optional (the geometric_refine method)

The arrays are used in place at their own width (int32 or int64, each array its own): no copy,
and the Graph keeps them alive (do not change them while it is used); they read back at that
width. Only an int32 vtxdist (R + 1 values) is widened into the Graph. Other dtypes,
non-contiguous arrays and wrong shapes raise hpart.Error; lengths, values and symmetry are
checked by every call (hpart.validate_graph).

The arrays read back as read-only numpy views: g.vtxdist, g.xadj, g.adjncy, g.vwgt ((n, ncon)
or None), g.adjwgt (or None), g.coords ((n, dim) or None); g.ncon, g.dim, len(g) (local vertices).

Example
-------
>>> import numpy as np, hpart
>>> from mpi4py import MPI
>>> # the path 0 - 1 - 2 - 3, all on this rank
>>> g = hpart.Graph(np.array([0, 4]), np.array([0, 1, 3, 5, 6]), np.array([1, 0, 2, 1, 3, 2]),
...                 comm=MPI.COMM_SELF)
>>> p = hpart.partition_graph(g, 2, comm=MPI.COMM_SELF)
>>> p.cut.edge_cut, p.part_sizes
(1, array([2, 2]))
)doc")
      .def(py::init([](const ArrayArg& vtxdist, const ArrayArg& xadj, const ArrayArg& adjncy,
                       const ArrayArg& vwgt, const ArrayArg& adjwgt, const ArrayArg& coords,
                       const CommArg& comm) {
             const char* fn = "hpart.Graph";
             const Comm c = comm_of(comm, fn);
             Args args(fn);
             auto pg = std::make_unique<PyGraph>();
             Graph& g = pg->g;
             // Every array is used in place at its width, except an int32 vtxdist (R + 1
             // values), widened into the Graph (hpart's global ids are 64-bit).
             const IntSpan ranges = int_array(args, *pg, vtxdist, "vtxdist");
             if (ranges.is32()) pg->owned.vtxdist = ranges.to_vector();
             g.vtxdist = ranges.is32() ? std::span<const gid_t>(pg->owned.vtxdist) : ranges.as64();
             g.xadj = int_array(args, *pg, xadj, "xadj");
             const IntSpan ids = int_array(args, *pg, adjncy, "adjncy");
             g.adjncy = ids.as64();
             g.adjncy32 = ids.as32();
             const bool vwgt_2d = py::isinstance<py::array>(vwgt) && py::reinterpret_borrow<py::array>(vwgt).ndim() == 2;
             g.ncon = vwgt_2d ? static_cast<int>(py::reinterpret_borrow<py::array>(vwgt).shape(1)) : 1;
             g.vwgt = int_array(args, *pg, vwgt, "vwgt", vwgt_2d ? g.ncon : 0, true);
             g.adjwgt = int_array(args, *pg, adjwgt, "adjwgt", 0, true);
             if (!coords.is_none()) {
               const bool two = py::isinstance<py::array>(coords) && py::reinterpret_borrow<py::array>(coords).ndim() == 2;
               const auto cols = two ? py::reinterpret_borrow<py::array>(coords).shape(1) : 0;
               args.need(!two || cols == 2 || cols == 3, "coords must have 2 or 3 columns, got " + std::to_string(cols));
               g.dim = cols == 2 ? 2 : 3;
               g.coords = args.array<double>(coords, "coords", 2, g.dim);
               pg->keep.push_back(coords);
             }
             args.agreed(c);
             return pg;
           }),
           py::arg("vtxdist"), py::arg("xadj"), py::arg("adjncy"), py::kw_only(), py::arg("vwgt") = py::none(),
           py::arg("adjwgt") = py::none(), py::arg("coords") = py::none(), py::arg("comm") = py::none())
      .def_property_readonly("vtxdist", [](py::object s) { return view(s.cast<PyGraph&>().g.vtxdist, s); })
      .def_property_readonly("xadj", [](py::object s) { return view(s.cast<PyGraph&>().g.xadj, s); })
      .def_property_readonly("adjncy",
                             [](py::object s) {
                               const Graph& g = s.cast<PyGraph&>().g;
                               return g.adjncy32.empty() ? view(g.adjncy, s) : view(g.adjncy32, s);  // either width
                             })
      .def_property_readonly("vwgt",
                             [](py::object s) {
                               const Graph& g = s.cast<PyGraph&>().g;
                               return view(g.vwgt, s, g.ncon, true);
                             })
      .def_property_readonly("adjwgt", [](py::object s) { return view(s.cast<PyGraph&>().g.adjwgt, s, 0, true); })
      .def_property_readonly("coords",
                             [](py::object s) {
                               const Graph& g = s.cast<PyGraph&>().g;
                               return view(g.coords, s, g.dim, true);
                             })
      .def_property_readonly("ncon", [](const PyGraph& s) { return s.g.ncon; })
      .def_property_readonly("dim", [](const PyGraph& s) { return s.g.dim; })
      .def("__len__", [](const PyGraph& s) { return s.g.local_vertices(); })
      .def("__repr__", [](const PyGraph& s) {
        return "Graph(local vertices=" + std::to_string(s.g.local_vertices()) +
               ", global vertices=" + std::to_string(s.g.vtxdist.empty() ? 0 : s.g.vtxdist.back()) +
               ", local adjacency entries=" + std::to_string(s.g.entries()) + ", ncon=" + std::to_string(s.g.ncon) + ")";
      });
}

void bind_graph_readers(py::module_& m) {
  py::class_<PyGraphFile, PyGraph>(m, "GraphFile",
                                   "An hpart.Graph read from a file: this rank's block [N r / R, N (r+1) / R) of the\n"
                                   "vertices, its arrays owned by the object and read as numpy views (no copy).")
      .def_property_readonly("global_vertices", [](const PyGraphFile& s) { return s.owned.global_vertices; })
      .def_property_readonly("global_edges", [](const PyGraphFile& s) { return s.owned.global_edges; },
                             "undirected edges (each listed at both ends)");

  const char* reader_tail = R"doc(

Collective over `comm`; parses in parallel. A bad file raises the same hpart.Error (code io,
"path:line: what") on every rank.

Parameters
----------
path : str or os.PathLike, the same on every rank
comm : mpi4py.MPI.Comm, optional (default MPI.COMM_WORLD)

Returns
-------
hpart.GraphFile (an hpart.Graph) holding rank r's block [N r / R, N (r+1) / R) of the vertices,
0-based ids; its arrays are numpy views of the C++ GraphFile (vtxdist, xadj, adjncy, vwgt or
None, adjwgt or None); .global_vertices, .global_edges

Example
-------
>>> g = hpart.read_graph_metis("mesh.graph")
>>> g.global_vertices, g.xadj[:3], g.adjncy[:5]
>>> p = hpart.partition_graph(g, 16)
)doc";
  static const std::string metis_doc =
      std::string("Read a METIS .graph file (header `n m [fmt [ncon]]`, 1-based adjacency lines, optional vertex\n"
                  "and edge weights).") + reader_tail;
  static const std::string chaco_doc =
      std::string("Read a Chaco graph file (the METIS layout; fmt's first digit: each line starts with its vertex number).") +
      reader_tail;
  static const std::string mm_doc =
      std::string("Read a MatrixMarket coordinate file as the graph of a square matrix's pattern (symmetrised,\n"
                  "diagonal dropped, unit weights).") + reader_tail;
  def_reader(m, "read_graph_metis", [](const Comm& c, const std::string& p) { return read_graph_metis(c, p); },
             metis_doc.c_str());
  def_reader(m, "read_graph_chaco", [](const Comm& c, const std::string& p) { return read_graph_chaco(c, p); },
             chaco_doc.c_str());
  def_reader(m, "read_graph_matrix_market",
             [](const Comm& c, const std::string& p) { return read_graph_matrix_market(c, p); }, mm_doc.c_str());

  m.def(
      "validate_graph",
      [](const GraphArg& graph, const CommArg& comm) {
        const char* fn = "hpart.validate_graph";
        const Comm c = comm_of(comm, fn);
        Args args(fn);
        const PyGraph* g = graph_of(args, graph);
        args.agreed(c);
        py::gil_scoped_release unlocked;
        validate_graph(c, g->g);
      },
      py::arg("graph"), py::kw_only(), py::arg("comm") = py::none(),
      R"doc(Check a distributed graph: structure, lengths, weights and symmetry.

Collective. Every graph call runs it first; call it alone to check a graph you built.

Parameters
----------
graph : hpart.Graph
comm : mpi4py.MPI.Comm, optional

Raises
------
hpart.Error, the same on every rank, naming global vertex ids, e.g. "asymmetric: vertex 5 lists
9 but 9 does not list 5" (code invalid_argument for vtxdist/ncon/dim, size_mismatch for array
lengths, invalid_input for values and symmetry)

Example
-------
>>> hpart.validate_graph(hpart.Graph(vtxdist, xadj, adjncy))
)doc");
}

void def_partition_graph(py::module_& m) {
  py::class_<GraphPartition, Partition>(m, "GraphPartition",
                                        "An hpart.Partition of the local vertices plus its cut (hpart.GraphMetrics).")
      .def_readonly("cut", &GraphPartition::cut, "edge cut, communication volume, boundary vertices (global)");
  bind_repartition<GraphPartition>(m, "GraphRepartition",
                                   "The result of hpart.repartition_graph: a GraphPartition (parts, metrics, cut) plus\n"
                                   "migrated, from_scratch, steps (diffusion rounds), surface_growth.");

  m.def(
      "partition_graph",
      [](const GraphArg& graph, const IntArg& parts, const NameArg& method, const FloatArg& imbalance,
         const IntArg& seed, const ArrayArg& target_sizes, const NameArg& preset, const CommArg& comm) {
        const char* fn = "hpart.partition_graph";
        const Comm c = comm_of(comm, fn);
        Args args(fn);
        const PyGraph* g = graph_of(args, graph);
        auto opts = options_of<GraphOptions>(args, parts, preset);
        set_enum(args, method, "method", opts.method, graph_method_of);
        set_value(args, imbalance, "imbalance", opts.imbalance);
        set_value(args, seed, "seed", opts.seed);
        opts.target_sizes = args.array<double>(target_sizes, "target_sizes", 1, 0, true);
        args.agreed(c);
        py::gil_scoped_release unlocked;
        return partition_graph(c, g->g, opts);
      },
      py::arg("graph"), py::arg("parts"), py::kw_only(), py::arg("method") = py::none(),
      py::arg("imbalance") = py::none(), py::arg("seed") = py::none(), py::arg("target_sizes") = py::none(),
      py::arg("preset") = py::none(), py::arg("comm") = py::none(),
      R"doc(Partition a distributed graph into `parts` parts, minimising the edge cut.

Collective over `comm` (an mpi4py communicator; default MPI.COMM_WORLD). Validates the graph
first (hpart.validate_graph). Every option must be the same on every rank.

Parameters
----------
graph : hpart.Graph (from numpy arrays, or a reader's hpart.GraphFile)
parts : int, K >= 1 (independent of the number of ranks)
method : "graph" (default: hpart's multilevel partitioner), "metis" (METIS on the graph gathered
    to rank 0) or "geometric_refine" (Hilbert curve on the coords, refined), or hpart.GraphMethod
imbalance : per constraint, max part weight / target - 1 (default 0.03)
seed : int, random seed of the multilevel method (default 1)
target_sizes : float64 (parts,), optional relative part sizes
preset : "fast", "standard" (default) or "strong": how much work the graph method spends on its
    cut (docs/benchmarks.md "Graph presets": strong cuts 3-15% less in 3-13x the time); the
    options given here override the preset's
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.GraphPartition: .parts (int32 per local vertex), .part_weights, .part_sizes, .metrics
(imbalance per constraint, within_tolerance) and .cut (edge_cut, comm_volume, boundary_vertices).

Raises hpart.Error on every rank for bad input (asymmetric graph, vtxdist disagreeing, ...).

Example
-------
>>> g = hpart.read_graph_metis("mesh.graph")
>>> p = hpart.partition_graph(g, 16, imbalance=0.03)
>>> p.cut.edge_cut, p.metrics.imbalance
>>> hpart.partition_graph(g, 16, preset="strong").cut.edge_cut   # smaller, slower
)doc");
}

void def_repartition_graph(py::module_& m) {
  m.def(
      "repartition_graph",
      [](const GraphArg& graph, const ArrayArg& current, const IntArg& parts, const FloatArg& imbalance,
         const FloatArg& itr, const IntArg& max_rounds, const IntArg& refine_passes,
         const FloatArg& reference_cut, const FloatArg& max_surface_growth, const ArrayArg& migration_sizes,
         const CommArg& comm) {
        const char* fn = "hpart.repartition_graph";
        const Comm c = comm_of(comm, fn);
        Args args(fn);
        const PyGraph* g = graph_of(args, graph);
        const auto cur = parts_arg(args, current, "current", g);
        GraphRepartOptions opts;
        opts.parts = value_of<int>(args, parts, "parts");
        set_value(args, imbalance, "imbalance", opts.imbalance);
        set_value(args, itr, "itr", opts.itr);
        set_value(args, max_rounds, "max_rounds", opts.max_rounds);
        set_value(args, refine_passes, "refine_passes", opts.refine_passes);
        set_value(args, reference_cut, "reference_cut", opts.reference_cut);
        set_value(args, max_surface_growth, "max_surface_growth", opts.max_surface_growth);
        opts.migration_sizes = args.array<std::int64_t>(migration_sizes, "migration_sizes", 1, 0, true);
        args.agreed(c);
        py::gil_scoped_release unlocked;
        return repartition_graph(c, g->g, cur, opts);
      },
      py::arg("graph"), py::arg("current"), py::arg("parts"), py::kw_only(), py::arg("imbalance") = py::none(),
      py::arg("itr") = py::none(), py::arg("max_rounds") = py::none(), py::arg("refine_passes") = py::none(),
      py::arg("reference_cut") = py::none(), py::arg("max_surface_growth") = py::none(),
      py::arg("migration_sizes") = py::none(), py::arg("comm") = py::none(),
      R"doc(Repartition a partitioned graph whose weights changed, moving little (ParMETIS's AdaptiveRepart).

Collective. Load diffuses between neighbouring parts, moving boundary vertices, then a boundary
refinement keeps the moves that pay; the first weight is balanced (docs/repartitioning.md).

Parameters
----------
graph : hpart.Graph with the new weights
current : int32 (n,), the current part of each local vertex, in [0, parts)
parts : int, K >= 1
imbalance : first constraint, max part weight / mean - 1 (default 0.03)
itr : cost of cutting an edge of weight 1 relative to migrating a vertex weight of 1 (default 1000)
max_rounds : balancing rounds before a fresh partition (default 8)
refine_passes : boundary refinement passes (default 4)
reference_cut : edge cut of the last fresh partition (0: no cut watch)
max_surface_growth : the incremental cut may grow to this times reference_cut (default 1.3)
migration_sizes : int64 (n,), optional cost of migrating each local vertex (ParMETIS's vsize)
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.GraphRepartition: the GraphPartition fields plus .migrated (objects, weight),
.from_scratch, .steps and .surface_growth.

Example
-------
>>> p = hpart.partition_graph(g, 8)
>>> g2 = hpart.Graph(g.vtxdist, g.xadj, g.adjncy, vwgt=new_weights)
>>> r = hpart.repartition_graph(g2, p.parts, 8, reference_cut=p.cut.edge_cut)
>>> r.migrated.objects, r.metrics.imbalance
)doc");

  m.def(
      "graph_metrics",
      [](const GraphArg& graph, const ArrayArg& parts, const IntArg& num_parts, const CommArg& comm) {
        const char* fn = "hpart.graph_metrics";
        const Comm c = comm_of(comm, fn);
        Args args(fn);
        const PyGraph* g = graph_of(args, graph);
        const auto p = parts_arg(args, parts, "parts", g);
        const int k = value_of<int>(args, num_parts, "num_parts");
        args.agreed(c);
        py::gil_scoped_release unlocked;
        return graph_metrics(c, g->g, p, k);
      },
      py::arg("graph"), py::arg("parts"), py::arg("num_parts"), py::kw_only(), py::arg("comm") = py::none(),
      R"doc(Edge cut, communication volume and boundary vertices of a graph partition.

Collective; the result is global (the same on every rank).

Parameters
----------
graph : hpart.Graph
parts : int32 (n,), the part of each local vertex, in [0, num_parts)
num_parts : int
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.GraphMetrics: .edge_cut (each cut edge once, with its weight), .comm_volume,
.boundary_vertices

Example
-------
>>> m = hpart.graph_metrics(g, p.parts, 16)
>>> m.edge_cut == p.cut.edge_cut
True
)doc");
}

}  // namespace

void bind_graph(py::module_& m) {
  bind_graph_class(m);
  bind_graph_readers(m);
  def_partition_graph(m);
  def_repartition_graph(m);
}

}  // namespace hpart::python
