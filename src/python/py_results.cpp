// The one partition shape (hpart.Partition) and its metrics, shared by every partitioner.
#include "python/py_common.hpp"

namespace hpart::python {

void bind_results(py::module_& m) {
  py::class_<PartitionMetrics>(m, "PartitionMetrics", "Balance of a partition (global, the same on every rank).")
      .def_readonly("imbalance", &PartitionMetrics::imbalance,
                    "per constraint: max part weight / target - 1 (0.03 = 3% over)")
      .def_readonly("empty_parts", &PartitionMetrics::empty_parts)
      .def_readonly("objects", &PartitionMetrics::objects, "global object count")
      .def_readonly("seconds", &PartitionMetrics::seconds, "wall time of the call, max over ranks")
      .def_readonly("tolerance", &PartitionMetrics::tolerance, "the imbalance asked for (-1: none)")
      .def_readonly("within_tolerance", &PartitionMetrics::within_tolerance)
      .def("__repr__", [](const PartitionMetrics& x) {
        std::string s = "PartitionMetrics(imbalance=[";
        for (std::size_t i = 0; i < x.imbalance.size(); ++i) s += (i ? ", " : "") + std::to_string(x.imbalance[i]);
        return s + "], objects=" + std::to_string(x.objects) + ", empty_parts=" + std::to_string(x.empty_parts) +
               ", seconds=" + std::to_string(x.seconds) + ")";
      });
  py::class_<GraphMetrics>(m, "GraphMetrics", "Edge cut and communication volume of a graph partition (global).")
      .def_readonly("edge_cut", &GraphMetrics::edge_cut, "total weight of edges between parts")
      .def_readonly("comm_volume", &GraphMetrics::comm_volume,
                    "sum over vertices of the number of other parts among its neighbours")
      .def_readonly("boundary_vertices", &GraphMetrics::boundary_vertices)
      .def("__repr__", [](const GraphMetrics& g) {
        return "GraphMetrics(edge_cut=" + std::to_string(g.edge_cut) + ", comm_volume=" + std::to_string(g.comm_volume) +
               ", boundary_vertices=" + std::to_string(g.boundary_vertices) + ")";
      });
  py::class_<MigrationStats>(m, "MigrationStats", "What a repartition moved (global).")
      .def_readonly("objects", &MigrationStats::objects)
      .def_readonly("weight", &MigrationStats::weight)
      .def("__repr__", [](const MigrationStats& s) {
        return "MigrationStats(objects=" + std::to_string(s.objects) + ", weight=" + std::to_string(s.weight) + ")";
      });
  py::class_<Partition>(m, "Partition",
                        "The result of every partitioner: the part of each local object, and global tables.\n\n"
                        "parts is a numpy int32 array over the result's own memory (no copy); part_weights is\n"
                        "(num_parts, ncon) float64, part_sizes (num_parts,) int64.")
      .def_readonly("num_parts", &Partition::num_parts)
      .def_readonly("ncon", &Partition::ncon)
      .def_property_readonly("parts", [](py::object self) { return view_of(self.cast<Partition&>().parts, self); },
                             "int32 part of each local object, in input order")
      .def_property_readonly("part_weights",
                             [](py::object self) {
                               auto& p = self.cast<Partition&>();
                               return view_of(p.part_weights, self, p.ncon > 0 ? p.ncon : 1);
                             })
      .def_property_readonly("part_sizes", [](py::object self) { return view_of(self.cast<Partition&>().part_sizes, self); })
      .def_readonly("metrics", &Partition::metrics)
      .def("__len__", &Partition::size)
      .def("__repr__", [](const Partition& p) {
        return "Partition(num_parts=" + std::to_string(p.num_parts) + ", local objects=" + std::to_string(p.size()) +
               ", imbalance=" + (p.metrics.imbalance.empty() ? std::string("-") : std::to_string(p.metrics.imbalance[0])) +
               ")";
      });
}

}  // namespace hpart::python
