// hpart.Migration (the plan from old to new parts, and the move of numpy record arrays) and
// hpart.migrate_graph (hpart/migration.hpp, hpart/graph_migration.hpp).
#include "hpart/migration.hpp"

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "hpart/graph_migration.hpp"
#include "python/py_graph.hpp"
#include "python/py_values.hpp"

namespace hpart::python {

namespace {

// The C++ plan, the communicator it borrows (kept alive) and each local object's destination
// rank (the export list; a plan does not keep it).
struct PyMigration {
  PyMigration(py::object ref, const Comm& c) : comm_ref(std::move(ref)), comm(c) {}
  py::object comm_ref;
  Comm comm;
  std::unique_ptr<Migration> plan;
  std::vector<part_t> destinations;
  std::size_t local = 0;  // objects each move takes on this rank
};

struct PyMigratedGraph {
  py::object graph;  // hpart.GraphFile
  std::vector<gid_t> old_ids;
  std::vector<part_t> parts;
  MigrationStats migrated;
  std::size_t bytes_sent = 0;
};

// The parts argument: an int32 array, or an hpart.Partition (its parts and num_parts).
struct PartsArg {
  std::span<const part_t> parts;
  int num_parts = 0;
};

PartsArg parts_arg(Args& args, const py::object& parts, const py::object& num_parts, bool have_owners) {
  PartsArg a;
  if (py::isinstance<Partition>(parts)) {
    const auto& p = parts.cast<const Partition&>();
    a.parts = p.parts;
    a.num_parts = p.num_parts;
  } else {
    a.parts = args.array<part_t>(parts, "parts");
  }
  set_value(args, num_parts, "num_parts", a.num_parts);
  args.need(have_owners || a.num_parts >= 1,
            "num_parts is required (>= 1) with a parts array (or pass owner_of_part, or an hpart.Partition)");
  return a;
}

// The part -> rank map: owner_of_part, or the default blocks owner(p) = p R / K.
std::vector<int> owner_table(Args& args, const py::object& owner_of_part, int num_parts, int ranks) {
  if (!owner_of_part.is_none()) {
    const auto o = args.array<std::int32_t>(owner_of_part, "owner_of_part");
    return {o.begin(), o.end()};
  }
  std::vector<int> owners(static_cast<std::size_t>(std::max(num_parts, 0)));
  for (int p = 0; p < num_parts; ++p) owners[static_cast<std::size_t>(p)] = PartOwners{num_parts, ranks}.owner(p);
  return owners;
}

// Every rank must move records of one dtype and shape: the same hpart::Error on every rank
// otherwise (a mismatch would move bytes of one layout into another, or overrun).
void same_layout(const Comm& c, const std::string& layout, std::size_t record_bytes) {
  const auto h = static_cast<long long>(std::hash<std::string>{}(layout) >> 2);
  std::array<long long, 4> v{h, -h, static_cast<long long>(record_bytes), -static_cast<long long>(record_bytes)};
  c.max(std::span<long long>(v));
  if (v[0] != -v[1] || v[2] != -v[3])
    throw Error(ErrorCode::invalid_argument,
                "hpart.Migration.move: the ranks pass records of different dtypes or shapes (records of " +
                    std::to_string(-v[3]) + " to " + std::to_string(v[2]) +
                    " bytes): every rank must pass the same dtype and trailing shape");
}

const char* kMigrationDoc = R"doc(The export/import plan of one migration, to move any number of per-object arrays.

hpart.Migration(parts, num_parts=None, *, owner_of_part=None, ids=None, comm=None)

Collective. `parts` is the new part of each local object (int32 (n,)) or an hpart.Partition
(num_parts from it); part p goes to rank owner_of_part[p] (int32 (num_parts,)) or, by default,
to rank p * R // num_parts (contiguous blocks). `ids` (int64 (n,), optional) are checked unique
across ranks; imported_ids then names the arriving objects. Objects arrive grouped by source
rank, each group in the sender's local order.

Plan: num_imports, num_exports (leaving this rank), send_counts / recv_counts (int32 per rank),
destinations (int32 rank of each local object: the export list), sources (int32 source rank of
each arriving object: the import list), imported_ids (int64 or None), migrated (objects that
change rank, all ranks), bytes_sent / bytes_received, exchange (hpart.Exchange).

move(records) sends numpy records: any fixed-size dtype (structured dtypes with several fields
included) and any trailing shape, C-contiguous, one row per local object; the raw bytes of each
record travel (the C++ fixed-size record move) and a new array of the same dtype returns.

Example
-------
>>> rec = np.zeros(n, dtype=[("id", "i8"), ("x", "f8", 3), ("tag", "u1")])
>>> p = hpart.partition_points(xyz, parts=MPI.COMM_WORLD.size)
>>> m = hpart.Migration(p, ids=rec["id"].copy())
>>> mine = m.move(rec)             # this rank's records now, of rec's dtype
>>> xyz = m.move(xyz)              # (n, 3) float64 rows follow the same plan
)doc";

// Migration.move: the records of any fixed-size dtype, as raw bytes.
void def_move(py::class_<PyMigration>& cls) {
  cls.def(
          "move",
          [](const PyMigration& s, const ArrayArg& records) {
            const char* fn = "hpart.Migration.move";
            Args args(fn);
            const bool is_array = py::isinstance<py::array>(records);
            args.need(is_array, "records must be a numpy array (one record per local object), got " + type_name(records));
            py::array in = is_array ? py::reinterpret_borrow<py::array>(records) : py::array();
            std::string layout;
            std::size_t record_bytes = 0;
            std::vector<py::ssize_t> shape;
            if (is_array) {
              const py::dtype dt = in.dtype();
              layout = py::str(dt.attr("descr")).cast<std::string>();
              args.need(!dt.attr("hasobject").cast<bool>(),
                        "records has dtype " + py::repr(dt).cast<std::string>() +
                            " holding Python objects (pointers cannot move between processes)");
              args.need(in.ndim() >= 1, "records must have at least one dimension (one record per object)");
              args.need((in.flags() & py::array::c_style) != 0,
                        "records is not C-contiguous (a slice or transpose?): numpy.ascontiguousarray(x) makes a "
                        "contiguous copy");
              record_bytes = static_cast<std::size_t>(dt.itemsize());
              for (py::ssize_t d = 0; d < in.ndim(); ++d) {
                shape.push_back(in.shape(d));
                if (d > 0) record_bytes *= static_cast<std::size_t>(in.shape(d)), layout += "," + std::to_string(in.shape(d));
              }
              args.need(in.ndim() < 1 || static_cast<std::size_t>(in.shape(0)) == s.local,
                        "records has " + std::to_string(in.ndim() >= 1 ? in.shape(0) : 0) + " rows for " +
                            std::to_string(s.local) + " local objects of the plan");
              args.need(record_bytes > 0, "records of 0 bytes");
            }
            args.agreed(s.comm);
            same_layout(s.comm, layout, record_bytes);
            shape[0] = static_cast<py::ssize_t>(s.plan->num_imports());
            py::array out(in.dtype(), shape);
            const void* src = in.data();
            void* dst = out.mutable_data();
            {
              py::gil_scoped_release unlocked;
              s.plan->move_records(src, s.local, record_bytes, dst);
            }
            return out;
          },
          py::arg("records"),
          R"doc(Collective: send each local record to the rank that owns its part; returns the records this
rank now owns (num_imports rows, grouped by source rank, each group in the sender's order).

records : numpy array, any fixed-size dtype (e.g. a structured dtype with several fields), shape
    (n, ...) with n = the plan's local objects, C-contiguous. Each row's raw bytes move; the
    result is a new array of the same dtype and trailing shape. Python-object dtypes are refused.

Example
-------
>>> out = m.move(np.array([(1, 2.5)] * n, dtype=[("id", "i8"), ("w", "f8")]))
>>> out.dtype.names, len(out) == m.num_imports
)doc");
}

void bind_migration_class(py::module_& m) {
  py::class_<PyMigration> cls(m, "Migration", kMigrationDoc);
  cls.def(py::init([](const PartsOrPartitionArg& parts, const IntArg& num_parts, const ArrayArg& owner_of_part,
                       const ArrayArg& ids, const CommArg& comm) {
             const char* fn = "hpart.Migration";
             const Comm c = comm_of(comm, fn);
             Args args(fn);
             const PartsArg pa = parts_arg(args, parts, num_parts, !owner_of_part.is_none());
             const std::vector<int> owners = owner_table(args, owner_of_part, pa.num_parts, c.size());
             const auto id = args.array<gid_t>(ids, "ids", 1, 0, true);
             args.need(ids.is_none() || id.size() == pa.parts.size(),
                       "ids has " + std::to_string(id.size()) + " values for " + std::to_string(pa.parts.size()) +
                           " objects");
             args.agreed(c);
             std::optional<Migration> plan;
             {
               py::gil_scoped_release unlocked;
               plan.emplace(c, pa.parts, std::span<const int>(owners), id);  // checks parts and owners, agreed
             }
             auto pm = std::make_unique<PyMigration>(comm_object(comm), c);
             pm->plan = std::make_unique<Migration>(std::move(*plan));
             pm->local = pa.parts.size();
             pm->destinations.reserve(pa.parts.size());
             for (const part_t p : pa.parts) pm->destinations.push_back(owners[static_cast<std::size_t>(p)]);
             return pm;
           }),
           py::arg("parts"), py::arg("num_parts") = py::none(), py::kw_only(), py::arg("owner_of_part") = py::none(),
           py::arg("ids") = py::none(), py::arg("comm") = py::none())
      .def_property_readonly("num_imports", [](const PyMigration& s) { return s.plan->num_imports(); })
      .def_property_readonly("num_exports", [](const PyMigration& s) { return s.plan->num_exports(); },
                             "local objects that leave this rank")
      .def_property_readonly("migrated", [](const PyMigration& s) { return s.plan->migrated(); },
                             "objects that change rank, all ranks (weight = their count)")
      .def_property_readonly("bytes_sent", [](const PyMigration& s) { return s.plan->bytes_sent(); })
      .def_property_readonly("bytes_received", [](const PyMigration& s) { return s.plan->bytes_received(); })
      .def_property_readonly("send_counts",
                             [](py::object s) {
                               const auto c = s.cast<PyMigration&>().plan->send_counts();
                               return py::array_t<int>(static_cast<py::ssize_t>(c.size()), c.data(), s);
                             },
                             "int32 records this rank sends to each rank (self included)")
      .def_property_readonly("recv_counts",
                             [](py::object s) {
                               const auto c = s.cast<PyMigration&>().plan->recv_counts();
                               return py::array_t<int>(static_cast<py::ssize_t>(c.size()), c.data(), s);
                             },
                             "int32 records this rank receives from each rank (self included)")
      .def_property_readonly("destinations",
                             [](py::object s) { return view_of(s.cast<PyMigration&>().destinations, s); },
                             "int32 destination rank of each local object (the export list)")
      .def_property_readonly("sources",
                             [](const PyMigration& s) {
                               std::vector<part_t> from;
                               from.reserve(s.plan->num_imports());
                               const auto c = s.plan->recv_counts();
                               for (std::size_t r = 0; r < c.size(); ++r) from.insert(from.end(), c[r], static_cast<part_t>(r));
                               return to_numpy(std::move(from));
                             },
                             "int32 source rank of each arriving object, in arrival order (the import list)")
      .def_property_readonly("imported_ids",
                             [](py::object s) -> py::object {
                               auto& ids = const_cast<std::vector<gid_t>&>(s.cast<PyMigration&>().plan->imported_ids());
                               if (ids.empty() && s.cast<PyMigration&>().plan->num_imports() > 0) return py::none();
                               return view_of(ids, s);
                             },
                             "int64 ids of the arriving objects in arrival order (None without ids)")
      .def_property(
          "exchange", [](const PyMigration& s) { return s.plan->exchange(); },
          [](PyMigration& s, const py::object& e) {
            Args args("hpart.Migration.exchange");
            Exchange x = Exchange::automatic;
            if (py::isinstance<Exchange>(e)) {
              x = e.cast<Exchange>();
            } else {
              const py::dict members = py::module_::import("hpart._hpart").attr("Exchange").attr("__members__");
              const bool ok = py::isinstance<py::str>(e) && members.contains(e);
              args.need(ok, "exchange must be 'automatic', 'dense', 'sparse' or an hpart.Exchange");
              if (ok) x = members[e].cast<Exchange>();
            }
            args.local();
            s.plan->set_exchange(x);
          },
          "hpart.Exchange the moves use (automatic resolves at construction); every rank must set the same");
  def_move(cls);
}

void def_migrate_graph(py::module_& m) {
  py::class_<PyMigratedGraph>(m, "MigratedGraph", "The result of hpart.migrate_graph.")
      .def_readonly("graph", &PyMigratedGraph::graph,
                    "hpart.GraphFile: this rank's new block (renumbered: contiguous ids per rank, a new vtxdist)")
      .def_property_readonly("old_ids", [](py::object s) { return view_of(s.cast<PyMigratedGraph&>().old_ids, s); },
                             "int64 old global id of each new local vertex")
      .def_property_readonly("parts", [](py::object s) { return view_of(s.cast<PyMigratedGraph&>().parts, s); },
                             "int32 part of each new local vertex")
      .def_readonly("migrated", &PyMigratedGraph::migrated, "vertices that changed rank (all ranks), first weight")
      .def_readonly("bytes_sent", &PyMigratedGraph::bytes_sent, "this rank's payload to other ranks");

  m.def(
      "migrate_graph",
      [](const GraphArg& graph, const PartsOrPartitionArg& parts, const IntArg& num_parts, const ArrayArg& owner_of_part,
         const CommArg& comm) {
        const char* fn = "hpart.migrate_graph";
        const Comm c = comm_of(comm, fn);
        Args args(fn);
        const PyGraph* g = graph_of(args, graph);
        const PartsArg pa = parts_arg(args, parts, num_parts, !owner_of_part.is_none());
        const std::vector<int> owners = owner_table(args, owner_of_part, pa.num_parts, c.size());
        args.agreed(c);
        MigratedGraph mg;
        {
          py::gil_scoped_release unlocked;
          mg = migrate_graph(c, g->g, pa.parts, std::span<const int>(owners));
        }
        auto out = std::make_unique<PyMigratedGraph>();
        out->graph = py::cast(graph_file(std::move(mg.graph)));
        out->old_ids = std::move(mg.old_ids);
        out->parts = std::move(mg.parts);
        out->migrated = mg.migrated;
        out->bytes_sent = mg.bytes_sent;
        return out;
      },
      py::arg("graph"), py::arg("parts"), py::arg("num_parts") = py::none(), py::kw_only(),
      py::arg("owner_of_part") = py::none(), py::arg("comm") = py::none(),
      R"doc(Move a distributed graph to the ranks that own its vertices' parts.

Collective. Every rank receives the vertices of its parts with their adjacency, weights and
coordinates, renumbered so that the ranks again hold contiguous blocks of global ids. The
vertices arrive in the order an hpart.Migration of the same parts moves any per-vertex array,
so the caller's data can follow with that Migration.

Parameters
----------
graph : hpart.Graph
parts : int32 (n,), the new part of each local vertex, or an hpart.Partition (num_parts from it)
num_parts : int, with a parts array (unless owner_of_part is given)
owner_of_part : int32 (num_parts,), optional rank of every part (default: rank p * R // num_parts)
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.MigratedGraph: .graph (an hpart.GraphFile: this rank's new block), .old_ids, .parts,
.migrated, .bytes_sent

Example
-------
>>> p = hpart.partition_graph(g, MPI.COMM_WORLD.size)
>>> mg = hpart.migrate_graph(g, p)
>>> data = hpart.Migration(p).move(data)      # rows in mg.graph's vertex order
)doc");
}

}  // namespace

void bind_migration(py::module_& m) {
  py::enum_<Exchange>(m, "Exchange", "How a Migration's moves talk (the same result, bit for bit).")
      .value("automatic", Exchange::automatic, "sparse when every rank has few peers, dense otherwise")
      .value("dense", Exchange::dense, "one MPI_Alltoallv")
      .value("sparse", Exchange::sparse, "point-to-point between the ranks that exchange records");

  bind_migration_class(m);
  def_migrate_graph(m);
}

}  // namespace hpart::python
