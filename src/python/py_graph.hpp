#pragma once
// hpart.Graph, shared by the graph, Rebalancer and migration bindings: an hpart::Graph whose
// spans view numpy arrays (kept alive here) or arrays this object owns (a reader's GraphFile,
// an int32 vtxdist widened, a migrated graph).
#include <memory>
#include <vector>

#include "hpart/graph.hpp"
#include "python/py_common.hpp"

namespace hpart::python {

struct PyGraph {
  Graph g;                       // what every call passes to C++
  GraphFile owned;               // arrays this object owns (g may view them)
  std::vector<py::object> keep;  // the caller's numpy arrays g views
  PyGraph() = default;
  PyGraph(const PyGraph&) = delete;  // g's spans point into `owned`
  PyGraph& operator=(const PyGraph&) = delete;
  virtual ~PyGraph() = default;
};

// What a reader returns (hpart.GraphFile, an hpart.Graph): g views `owned`.
struct PyGraphFile : PyGraph {};

// A graph owning `file` (moved, no copy of its arrays).
std::unique_ptr<PyGraphFile> graph_file(GraphFile&& file);

// A GraphMethod name: the Python enum's "geometric_refine" and the library's "geometric+refine"
// both (hpart::Error for another name, as graph_method_from_string).
GraphMethod graph_method_of(const char* name);

// The hpart.Graph argument `name`, or nullptr after recording a problem in args.
const PyGraph* graph_of(Args& args, const py::object& graph, const char* name = "graph");

}  // namespace hpart::python
