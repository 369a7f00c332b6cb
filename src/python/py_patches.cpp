// hpart.partition_patches, hpart.repartition_patches, hpart.patch_neighbours: AMR patch lists
// (hpart/patches.hpp). Patches come as an int64 (n, 2 dim) array of lo..., hi... rows (the
// layout of the /boxes datasets hpart writes), turned into the C++ boxes (56 bytes a patch).
#include "hpart/patches.hpp"

#include <algorithm>
#include <string>

#include "python/py_grid.hpp"
#include "python/py_options.hpp"

namespace hpart::python {

namespace {

// A patch list whose boxes vector backs the PatchList's span: keep it alive for the call.
struct Patches {
  std::vector<Box> boxes;
  PatchList list;
};

void patch_list(Args& args, Patches& out, const py::object& boxes, const py::object& extent, const py::object& cost) {
  int dim = 0;
  if (py::isinstance<py::sequence>(extent) && !py::isinstance<py::str>(extent)) dim = static_cast<int>(py::len(extent));
  args.need(dim == 2 || dim == 3, "extent must have 2 or 3 values (x, y[, z])");
  out.list.dim = dim == 3 ? 3 : 2;
  if (dim == 2 || dim == 3) {
    const Cell e = cell_of(args, extent, dim, "extent");
    for (int d = 0; d < 3; ++d) out.list.extent[static_cast<std::size_t>(d)] = d < dim ? e[static_cast<std::size_t>(d)] : 1;
  }
  const int w = 2 * out.list.dim;
  const auto b = args.array<std::int64_t>(boxes, "boxes", 2, w);
  const std::size_t n = b.size() / static_cast<std::size_t>(w);
  out.boxes.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    Box& x = out.boxes[i];
    x.dim = out.list.dim;
    for (int d = 0; d < x.dim; ++d) {
      x.lo[static_cast<std::size_t>(d)] = b[i * static_cast<std::size_t>(w) + static_cast<std::size_t>(d)];
      x.hi[static_cast<std::size_t>(d)] = b[i * static_cast<std::size_t>(w) + static_cast<std::size_t>(x.dim + d)];
    }
  }
  out.list.boxes = out.boxes;
  out.list.cost = per_object<double>(args, cost, "cost", n, "patches", true);
}

// The library's names are "sfc-swap" (the CLI's); the Python enum value is sfc_swap: both work.
PatchMethod patch_method_of(const char* name) {
  std::string s(name);
  std::replace(s.begin(), s.end(), '_', '-');
  return patch_method_from_string(s.c_str());
}

const std::string kPatchParams = R"doc(boxes : int64 (n, 2 dim): this rank's patches as rows lo_x, lo_y[, lo_z], hi_x, hi_y[, hi_z]
        (inclusive; non-empty, inside the domain, disjoint over all ranks)
extent : the level's index domain, (nx, ny) or (nx, ny, nz)
cost : float64 (n,), optional patch costs (default: cell counts))doc";

void def_patch_neighbours(py::module_& m) {
  m.def(
      "patch_neighbours",
      [](const ArrayArg& boxes, const IntsArg& extent, const PatchPartitionArg& partition, const IntArg& halo,
         const CommArg& comm) {
        const char* fn = "hpart.patch_neighbours";
        const Comm c = comm_of(comm, fn);
        Args args(fn);
        Patches pl;
        patch_list(args, pl, boxes, extent, py::none());
        const PatchPartition* p = bound_of<PatchPartition>(args, partition, "partition", "hpart.PatchPartition");
        const int width = value_of<int>(args, halo, "halo");
        args.agreed(c);
        py::gil_scoped_release unlocked;
        return patch_neighbours(c, pl.list, *p, width);
      },
      py::arg("boxes"), py::arg("extent"), py::arg("partition"), py::kw_only(), py::arg("halo") = 1,
      py::arg("comm") = py::none(),
      (std::string(R"doc(What each part exchanges when every patch fills a ghost layer of width `halo` from the
patches around it (AMReX FillBoundary).

Collective; the result is global (the same on every rank), as hpart.grid_neighbours's.

Parameters
----------
)doc") + kPatchParams.substr(0, kPatchParams.find("\ncost")) + R"doc(
partition : hpart.PatchPartition of these patches
halo : int, the ghost layer width (default 1)
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.GridNeighbours: .of_part[p] lists hpart.PartNeighbour(part, halo_cells, contact);
.halo_volume is the total ghost cells filled from other parts

Example
-------
>>> n = hpart.patch_neighbours(boxes, extent, p, halo=2)
>>> n.halo_volume
)doc").c_str());
}

}  // namespace

void bind_patches(py::module_& m) {
  py::enum_<PatchMethod>(m, "PatchMethod", "How partition_patches assigns patches to parts.")
      .value("knapsack", PatchMethod::knapsack, "largest first onto the lightest part, then swaps: best balance")
      .value("sfc", PatchMethod::sfc, "curve order of the centres, cut into bottleneck-optimal chains: locality")
      .value("sfc_swap", PatchMethod::sfc_swap, "sfc, then swaps for the bottleneck (default)");
  py::class_<PatchPartition, Partition>(m, "PatchPartition",
                                        "A patch partition: the Partition of the local patches (input order;\n"
                                        "weights = costs) plus .boxes (per part: its patches' bounding box).")
      .def_property_readonly("boxes", [](const PatchPartition& p) { return boxes_to_list(p.boxes); });
  bind_repartition<PatchPartition>(m, "PatchRepartition",
                                   "hpart.repartition_patches's result: a PatchPartition plus what moved.");
  m.def(
      "partition_patches",
      [](const ArrayArg& boxes, const IntsArg& extent, const IntArg& parts, const ArrayArg& cost,
         const NameArg& method,
         const NameArg& curve, const FloatArg& imbalance, const NameArg& preset, const CommArg& comm) {
        const char* fn = "hpart.partition_patches";
        const Comm c = comm_of(comm, fn);
        Args args(fn);
        Patches pl;
        patch_list(args, pl, boxes, extent, cost);
        auto opts = options_of<PatchOptions>(args, parts, preset);
        set_enum(args, method, "method", opts.method, patch_method_of);
        set_enum(args, curve, "curve", opts.curve, curve_from_string);
        set_value(args, imbalance, "imbalance", opts.imbalance);
        args.agreed(c);
        py::gil_scoped_release unlocked;
        return partition_patches(c, pl.list, opts);
      },
      py::arg("boxes"), py::arg("extent"), py::arg("parts"), py::kw_only(), py::arg("cost") = py::none(),
      py::arg("method") = py::none(), py::arg("curve") = py::none(), py::arg("imbalance") = py::none(),
      py::arg("preset") = py::none(), py::arg("comm") = py::none(),
      (std::string(R"doc(Assign the patches of one AMR level to `parts` parts (cf. AMReX DistributionMapping).

Collective; gathers the boxes and costs (never cells). Deterministic: the same global patch list
gives the same parts for any split over ranks, any rank count and thread count.

Parameters
----------
)doc") + kPatchParams + R"doc(
parts : int, K >= 1
method : "sfc_swap" (default; also "sfc-swap"), "sfc" or "knapsack", or hpart.PatchMethod
curve : sfc methods: "hilbert" (default) or "morton"
imbalance : swap refinement stops within this of the mean (default 0.001; 0: to the end)
preset : "fast", "standard" or "strong"
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.PatchPartition: .parts (int32 per local patch), .part_weights (cost per part), .boxes

Example
-------
>>> boxes = np.array([[0, 0, 15, 15], [16, 0, 31, 15]], dtype=np.int64)   # on one rank
>>> p = hpart.partition_patches(boxes, (32, 16), parts=2, comm=MPI.COMM_SELF)
>>> p.parts
)doc").c_str());
  m.def(
      "repartition_patches",
      [](const ArrayArg& boxes, const IntsArg& extent, const ArrayArg& current, const IntArg& parts,
         const ArrayArg& cost,
         const FloatArg& imbalance, const CommArg& comm) {
        const char* fn = "hpart.repartition_patches";
        const Comm c = comm_of(comm, fn);
        Args args(fn);
        Patches pl;
        patch_list(args, pl, boxes, extent, cost);
        const auto cur = per_object<part_t>(args, current, "current", pl.boxes.size(), "patches");
        PatchRepartOptions opts;
        opts.parts = value_of<int>(args, parts, "parts");
        set_value(args, imbalance, "imbalance", opts.imbalance);
        args.agreed(c);
        py::gil_scoped_release unlocked;
        return repartition_patches(c, pl.list, cur, opts);
      },
      py::arg("boxes"), py::arg("extent"), py::arg("current"), py::arg("parts"), py::kw_only(),
      py::arg("cost") = py::none(), py::arg("imbalance") = py::none(), py::arg("comm") = py::none(),
      (std::string(R"doc(Rebalance a patch assignment whose costs changed, moving few patches.

Collective. Moves and swaps single patches from the heaviest part until it is within
`imbalance` of the mean; every other patch keeps its part. Deterministic over rank splits.

Parameters
----------
)doc") + kPatchParams + R"doc(
current : int32 (n,), the part of each local patch now
parts : int, the parts of `current`
imbalance : max / mean - 1 to reach (default 0.02)
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.PatchRepartition: a PatchPartition plus .migrated (patches and cost that moved), .steps

Example
-------
>>> r = hpart.repartition_patches(boxes, extent, p.parts, parts=8, cost=new_cost)
>>> r.migrated.objects
)doc").c_str());
  def_patch_neighbours(m);
}

}  // namespace hpart::python
