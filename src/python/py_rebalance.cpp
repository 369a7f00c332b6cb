// hpart.Rebalancer (observe / decide / rebalance of point sets and graphs) and
// hpart.repartition_points (hpart/rebalance.hpp).
#include "hpart/rebalance.hpp"

#include <array>
#include <memory>
#include <optional>
#include <string>

#include "python/py_graph.hpp"
#include "python/py_grid.hpp"
#include "python/py_options.hpp"

namespace hpart::python {

namespace {

// The C++ Rebalancer and the communicator it borrows: the mpi4py object is kept alive with it.
struct PyRebalancer {
  PyRebalancer(py::object ref, const Comm& c, Rebalancer&& r) : comm_ref(std::move(ref)), comm(c), rb(std::move(r)) {}
  py::object comm_ref;
  Comm comm;
  Rebalancer rb;
};

// What a Rebalancer call partitions: a point set (a coords array) or an hpart.Graph.
struct Objects {
  PointSet points;
  const PyGraph* graph = nullptr;
  std::size_t size = 0;
};

Objects objects_of(Args& args, const py::object& objects, const py::object& weights, const py::object& ids) {
  Objects o;
  if (py::isinstance<PyGraph>(objects)) {
    o.graph = &objects.cast<const PyGraph&>();
    o.size = o.graph->g.local_vertices();
    args.need(weights.is_none() && ids.is_none(),
              "weights and ids are for point sets; a graph's load is its first vertex weight (vwgt)");
  } else {
    o.points = point_set(args, objects, weights, ids);
    o.size = o.points.size();
  }
  return o;
}

// After the arguments are agreed: every rank passes the same kind of objects (a point set on one
// rank and a graph on another would enter different collectives).
void same_kind(const Comm& c, const Objects& o, const char* fn) {
  if (!same_everywhere(c, o.graph ? 1 : 0))
    throw Error(ErrorCode::invalid_argument,
                std::string(fn) + ": some ranks pass a graph and others a point set: pass the same kind everywhere");
}

std::span<const part_t> parts_of(Args& args, const py::object& parts, std::size_t n) {
  return per_object<part_t>(args, parts, "parts", n, "local objects", true);
}

// A features argument: float64 (n, nfeatures); nfeatures = 0 for None.
std::span<const double> features_of(Args& args, const py::object& f, int& nfeatures) {
  const bool two = py::isinstance<py::array>(f) && py::reinterpret_borrow<py::array>(f).ndim() == 2;
  nfeatures = two ? static_cast<int>(py::reinterpret_borrow<py::array>(f).shape(1)) : 0;
  args.need(f.is_none() || two, "features must be a 2-D array (objects, nfeatures)");
  return two ? args.array<double>(f, "features", 2, nfeatures) : std::span<const double>{};
}

const char* kOptionsDoc = R"doc(Options of an hpart.Rebalancer (read-only: rb.options).

parts (K), curve, imbalance (the tolerance that triggers and that rebalance reaches), horizon
(steps the loss is predicted over), smoothing / trend_smoothing (EWMA weights of the load level
and trend), forgetting (of the least-squares cost model), max_surface_growth (fresh partition
beyond it), incremental, max_rounds (diffusion rounds), verbose, itr (graphs: ParMETIS's itr).
)doc";

const char* kPartitionDoc = R"doc(A fresh partition of the objects; resets the load history.

Collective over the Rebalancer's communicator.

Parameters
----------
objects : float64 (n, 2) or (n, 3) coords of a point set, or an hpart.Graph (every rank the same kind)
weights : float64 (n,) or (n, ncon), optional (point sets: the cost of each object)
ids : int64 or int32 (n,), optional global ids (point sets)

Returns
-------
hpart.Partition (its parts are the default `parts` of the next observe and rebalance)

Example
-------
>>> rb = hpart.Rebalancer(8)
>>> p = rb.partition(xyz, weights=costs)
)doc";

const char* kObserveDoc = R"doc(Feed one step's measurement to the load model (hpart::Observation).

Collective. Raises hpart.Error on every rank for NaN/negative values, wrong lengths or part ids.

Parameters
----------
step_seconds : float, this rank's wall time of the last step (None on every rank, or given on
    every rank)
object_costs : float64 (n,), each local object's cost in the last step (with step_seconds only
    their relative sizes count)
features : float64 (n, nfeatures), values that explain each object's cost; with step_seconds the
    Rebalancer fits cost ~ a . features + b (predicted_costs, cost_coefficients)
parts : int32 (n,), the current part of each local object (default: the last returned parts)

Example
-------
>>> rb.observe(step_seconds=t_step, object_costs=costs)
)doc";

const char* kDecideDoc = R"doc(Should the caller rebalance now?

Collective. Rebalance when the predicted time saved over the horizon exceeds the predicted
repartition + migration cost and the predicted imbalance exceeds the tolerance.

Returns
-------
hpart.Decision, identical on every rank (.rebalance, .reason, the predictions; true as a bool
when it says rebalance)

Example
-------
>>> d = rb.decide()
>>> if d:
...     p = rb.rebalance(xyz, weights=costs)
)doc";

const char* kRebalanceDoc = R"doc(A new partition within the tolerance that moves little weight from `parts`.

Collective. Incremental (diffusion or splitter shift, whichever is predicted to move less;
graphs: hpart.repartition_graph with a cut watch) or from scratch (relabelled) when the surface
grew past max_surface_growth, incremental=False or no parts are known. Resets the load history;
rb.stats says how (kind, rounds, migrated).

Parameters
----------
objects : coords float64 (n, 2|3) or an hpart.Graph (its first vertex weight is the load)
parts : int32 (n,), current part of each local object (default: the last returned Partition's)
weights : float64 (n,) or (n, ncon), point sets: the current cost of each object
ids : int64 or int32 (n,), optional global ids (point sets)

Returns
-------
hpart.Partition

Example
-------
>>> p = rb.rebalance(xyz, weights=costs)
>>> rb.stats.kind, rb.stats.migrated
)doc";

const char* kRecordMigrationDoc = R"doc(Record the measured migration time after a rebalance.

Collective (the max over ranks is taken); feeds the cost prediction of decide().

Parameters
----------
seconds : float, this rank's time moving the objects

Example
-------
>>> t0 = MPI.Wtime(); data = hpart.Migration(p).move(data)
>>> rb.record_migration_seconds(MPI.Wtime() - t0)
)doc";

const char* kRebalancerDoc = R"doc(Feedback-driven dynamic repartitioning of point sets and graphs.

hpart.Rebalancer(parts, *, curve=None, imbalance=None, horizon=None, smoothing=None,
                 trend_smoothing=None, forgetting=None, max_surface_growth=None, incremental=None,
                 max_rounds=None, verbose=None, itr=None, comm=None)

Collective over `comm` (default MPI.COMM_WORLD; kept alive by the Rebalancer). Options left None
keep the C++ defaults (hpart.RebalanceOptions); every rank must pass the same. It measures the
load (step times and/or per-object costs), predicts it over `horizon` steps, decides when a
repartition pays, and repartitions incrementally so that little weight moves.

Objects are a point set (coords float64 (n, 2|3), with weights=/ids= as in
hpart.partition_points; the first weight is the current cost) or an hpart.Graph (its first
vertex weight is the load). `parts` arguments (int32 per local object) default to the parts of
the Partition this Rebalancer returned last (valid while the local objects did not change).

Methods: partition(objects, *, weights, ids), observe(*, step_seconds, object_costs, features,
parts), decide() -> hpart.Decision, rebalance(objects, parts=None, *, weights, ids),
record_migration_seconds(s), predicted_costs(features), cost_coefficients(); properties stats
(hpart.RebalanceStats), last_decision, options.

Example
-------
>>> rb = hpart.Rebalancer(8, imbalance=0.05)
>>> p = rb.partition(xyz)                       # then move the objects (hpart.Migration)
>>> for step in range(100):
...     t, costs = simulate(p.parts)
...     rb.observe(step_seconds=t, object_costs=costs)
...     if rb.decide().rebalance:
...         p = rb.rebalance(xyz, weights=costs)   # then migrate, and:
...         rb.record_migration_seconds(t_migrate)
)doc";

void bind_rebalance_results(py::module_& m) {
  py::enum_<RebalanceKind>(m, "RebalanceKind", "Method of the Rebalancer's last (re)partition.")
      .value("none", RebalanceKind::none, "no repartition yet")
      .value("scratch", RebalanceKind::scratch, "from scratch, relabelled to keep most weight in place")
      .value("shift", RebalanceKind::shift, "curve splitters shifted")
      .value("diffusion", RebalanceKind::diffusion, "load diffused between neighbouring parts");

  py::class_<RebalanceOptions>(m, "RebalanceOptions", kOptionsDoc)
      .def_readonly("parts", &RebalanceOptions::parts)
      .def_readonly("curve", &RebalanceOptions::curve)
      .def_readonly("imbalance", &RebalanceOptions::imbalance)
      .def_readonly("horizon", &RebalanceOptions::horizon)
      .def_readonly("smoothing", &RebalanceOptions::smoothing)
      .def_readonly("trend_smoothing", &RebalanceOptions::trend_smoothing)
      .def_readonly("forgetting", &RebalanceOptions::forgetting)
      .def_readonly("max_surface_growth", &RebalanceOptions::max_surface_growth)
      .def_readonly("incremental", &RebalanceOptions::incremental)
      .def_readonly("max_rounds", &RebalanceOptions::max_rounds)
      .def_readonly("verbose", &RebalanceOptions::verbose)
      .def_readonly("itr", &RebalanceOptions::itr);

  py::class_<Decision>(m, "Decision", "What Rebalancer.decide() concluded (the same on every rank), and from what.")
      .def_readonly("rebalance", &Decision::rebalance, "True: rebalance now")
      .def_readonly("reason", &Decision::reason, "one readable line")
      .def_readonly("imbalance", &Decision::imbalance, "last observed load imbalance (max / mean - 1)")
      .def_readonly("predicted_imbalance", &Decision::predicted_imbalance, "at the end of the horizon")
      .def_readonly("predicted_loss_seconds", &Decision::predicted_loss_seconds,
                    "predicted sum over the horizon of (max - mean) load")
      .def_readonly("predicted_gain_seconds", &Decision::predicted_gain_seconds,
                    "the part of the loss a rebalance now would save")
      .def_readonly("predicted_cost_seconds", &Decision::predicted_cost_seconds, "repartition + migration")
      .def_readonly("residual_imbalance", &Decision::residual_imbalance, "imbalance a rebalance is predicted to leave")
      .def_readonly("steps_since", &Decision::steps_since, "observations since the last (re)partition")
      .def("__bool__", [](const Decision& d) { return d.rebalance; })
      .def("__repr__", [](const Decision& d) {
        return std::string("Decision(rebalance=") + (d.rebalance ? "True" : "False") + ", reason='" + d.reason + "')";
      });

  py::class_<RebalanceStats>(m, "RebalanceStats", "The Rebalancer's last (re)partition.")
      .def_readonly("kind", &RebalanceStats::kind, "hpart.RebalanceKind of the last (re)partition")
      .def_readonly("rounds", &RebalanceStats::rounds, "diffusion rounds of the last rebalance")
      .def_readonly("rebalances", &RebalanceStats::rebalances, "rebalance() calls so far")
      .def_readonly("migrated", &RebalanceStats::migrated, "objects whose part changed in the last call")
      .def_readonly("seconds", &RebalanceStats::seconds, "wall time of the last partition/rebalance")
      .def_readonly("migration_seconds", &RebalanceStats::migration_seconds)
      .def_readonly("imbalance", &RebalanceStats::imbalance, "of the last returned partition")
      .def_readonly("surface", &RebalanceStats::surface, "points: coarse-grid surface estimate; graphs: edge cut")
      .def_readonly("surface_fresh", &RebalanceStats::surface_fresh, "the same right after the last fresh partition")
      .def("__repr__", [](const RebalanceStats& s) {
        return std::string("RebalanceStats(kind=") + to_string(s.kind) + ", rebalances=" + std::to_string(s.rebalances) +
               ", migrated=" + std::to_string(s.migrated.objects) + ", imbalance=" + std::to_string(s.imbalance) + ")";
      });
}

// decide, rebalance and the cost model of hpart.Rebalancer.
void def_rebalancer_steering(py::class_<PyRebalancer>& cls) {
  cls.def(
          "decide",
          [](PyRebalancer& r) {
            Args("hpart.Rebalancer.decide").agreed(r.comm);
            py::gil_scoped_release unlocked;
            return r.rb.decide();
          },
          kDecideDoc)
      .def(
          "rebalance",
          [](PyRebalancer& r, const ObjectsArg& objects, const ArrayArg& parts, const ArrayArg& weights,
             const ArrayArg& ids) {
            const char* fn = "hpart.Rebalancer.rebalance";
            Args args(fn);
            const Objects o = objects_of(args, objects, weights, ids);
            const auto p = parts_of(args, parts, o.size);
            args.agreed(r.comm);
            same_kind(r.comm, o, fn);
            py::gil_scoped_release unlocked;
            return o.graph ? r.rb.rebalance(o.graph->g, p) : r.rb.rebalance(o.points, p);
          },
          py::arg("objects"), py::arg("parts") = py::none(), py::kw_only(), py::arg("weights") = py::none(),
          py::arg("ids") = py::none(),
          R"doc(Collective: a new partition within the tolerance that moves little weight from `parts`.

objects : coords (with weights = the current cost of each object, ids) or an hpart.Graph (its
    first vertex weight is the load)
parts : int32 (n,), current part of each local object (default: the last returned Partition's)

Incremental (diffusion or splitter shift, whichever is predicted to move less; graphs:
hpart.repartition_graph with a cut watch) or from scratch (relabelled) when the surface grew
past max_surface_growth, incremental=False or no parts are known. Resets the load history.
Returns hpart.Partition; stats says how (kind, rounds, migrated).
)doc")
      .def(
          "record_migration_seconds",
          [](PyRebalancer& r, const FloatArg& seconds) {
            Args args("hpart.Rebalancer.record_migration_seconds");
            double s = 0.0;
            args.need(!seconds.is_none(), "seconds is required");
            set_value(args, seconds, "seconds", s);
            args.agreed(r.comm);
            py::gil_scoped_release unlocked;
            r.rb.record_migration_seconds(s);
          },
          py::arg("seconds"),
          kRebalanceDoc)
      .def(
          "predicted_costs",
          [](const PyRebalancer& r, const ArrayArg& features) {
            Args args("hpart.Rebalancer.predicted_costs");
            int nf = 0;
            const auto f = features_of(args, features, nf);
            const auto coef = r.rb.cost_coefficients();
            args.need(coef.empty() || static_cast<int>(coef.size()) - 1 == nf,
                      "features has " + std::to_string(nf) + " columns, the cost model " +
                          std::to_string(coef.empty() ? 0 : coef.size() - 1));
            args.local();
            return to_numpy(r.rb.predicted_costs(f));
          },
          py::arg("features"),
          kRecordMigrationDoc)
      .def(
          "cost_coefficients", [](const PyRebalancer& r) { return to_numpy(r.rb.cost_coefficients()); },
          "Local: the fitted coefficients a_0..a_{nfeatures-1}, b (float64; empty before a fit), the same on every rank.")
      .def_property_readonly("stats", [](const PyRebalancer& r) { return r.rb.stats(); })
      .def_property_readonly("last_decision", [](const PyRebalancer& r) { return r.rb.last_decision(); })
      .def_property_readonly("options", [](const PyRebalancer& r) { return r.rb.options(); });
}

void bind_rebalancer(py::module_& m) {
  py::class_<PyRebalancer> cls(m, "Rebalancer", kRebalancerDoc);
  cls.def(py::init([](const IntArg& parts, const NameArg& curve, const FloatArg& imbalance, const IntArg& horizon,
                       const FloatArg& smoothing, const FloatArg& trend_smoothing, const FloatArg& forgetting,
                       const FloatArg& max_surface_growth, const BoolArg& incremental,
                       const IntArg& max_rounds, const IntArg& verbose, const FloatArg& itr,
                       const CommArg& comm) {
             const char* fn = "hpart.Rebalancer";
             const Comm c = comm_of(comm, fn);
             Args args(fn);
             RebalanceOptions o;
             o.parts = value_of<int>(args, parts, "parts");
             set_enum(args, curve, "curve", o.curve, curve_from_string);
             set_value(args, imbalance, "imbalance", o.imbalance);
             set_value(args, horizon, "horizon", o.horizon);
             set_value(args, smoothing, "smoothing", o.smoothing);
             set_value(args, trend_smoothing, "trend_smoothing", o.trend_smoothing);
             set_value(args, forgetting, "forgetting", o.forgetting);
             set_value(args, max_surface_growth, "max_surface_growth", o.max_surface_growth);
             set_value(args, incremental, "incremental", o.incremental);
             set_value(args, max_rounds, "max_rounds", o.max_rounds);
             set_value(args, verbose, "verbose", o.verbose);
             set_value(args, itr, "itr", o.itr);
             args.agreed(c);
             std::optional<Rebalancer> rb;
             {
               py::gil_scoped_release unlocked;
               rb.emplace(c, o);
             }
             return std::make_unique<PyRebalancer>(comm_object(comm), c, std::move(*rb));
           }),
           py::arg("parts"), py::kw_only(), py::arg("curve") = py::none(), py::arg("imbalance") = py::none(),
           py::arg("horizon") = py::none(), py::arg("smoothing") = py::none(), py::arg("trend_smoothing") = py::none(),
           py::arg("forgetting") = py::none(), py::arg("max_surface_growth") = py::none(),
           py::arg("incremental") = py::none(), py::arg("max_rounds") = py::none(), py::arg("verbose") = py::none(),
           py::arg("itr") = py::none(), py::arg("comm") = py::none())
      .def(
          "partition",
          [](PyRebalancer& r, const ObjectsArg& objects, const ArrayArg& weights, const ArrayArg& ids) {
            const char* fn = "hpart.Rebalancer.partition";
            Args args(fn);
            const Objects o = objects_of(args, objects, weights, ids);
            args.agreed(r.comm);
            same_kind(r.comm, o, fn);
            py::gil_scoped_release unlocked;
            return o.graph ? r.rb.partition(o.graph->g) : r.rb.partition(o.points);
          },
          py::arg("objects"), py::kw_only(), py::arg("weights") = py::none(), py::arg("ids") = py::none(),
          kPartitionDoc)
      .def(
          "observe",
          [](PyRebalancer& r, const FloatArg& step_seconds, const ArrayArg& object_costs, const ArrayArg& features,
             const ArrayArg& parts) {
            Args args("hpart.Rebalancer.observe");
            Observation obs;
            if (!step_seconds.is_none()) {
              double t = 0.0;
              set_value(args, step_seconds, "step_seconds", t);
              obs.step_seconds = t;
            }
            obs.object_costs = args.array<double>(object_costs, "object_costs", 1, 0, true);
            obs.features = features_of(args, features, obs.nfeatures);
            obs.parts = args.array<part_t>(parts, "parts", 1, 0, true);
            args.agreed(r.comm);
            py::gil_scoped_release unlocked;
            r.rb.observe(obs);
          },
          py::kw_only(), py::arg("step_seconds") = py::none(), py::arg("object_costs") = py::none(),
          py::arg("features") = py::none(), py::arg("parts") = py::none(),
          kObserveDoc);
  def_rebalancer_steering(cls);
}

void def_repartition_points(py::module_& m) {
  bind_repartition<Partition>(m, "PointRepartition",
                              "The result of hpart.repartition_points: an hpart.Partition plus migrated, from_scratch,\n"
                              "steps (diffusion rounds) and surface_growth.");
  m.def(
      "repartition_points",
      [](const ArrayArg& coords, const ArrayArg& current, const IntArg& parts, const ArrayArg& weights,
         const ArrayArg& ids, const NameArg& curve, const FloatArg& imbalance, const IntArg& max_rounds,
         const CommArg& comm) {
        const char* fn = "hpart.repartition_points";
        const Comm c = comm_of(comm, fn);
        Args args(fn);
        const PointSet ps = point_set(args, coords, weights, ids);
        const auto cur = per_object<part_t>(args, current, "current", ps.size(), "points");
        PointRepartOptions opts;
        opts.parts = value_of<int>(args, parts, "parts");
        set_enum(args, curve, "curve", opts.curve, curve_from_string);
        set_value(args, imbalance, "imbalance", opts.imbalance);
        set_value(args, max_rounds, "max_rounds", opts.max_rounds);
        args.agreed(c);
        py::gil_scoped_release unlocked;
        return repartition_points(c, ps, cur, opts);
      },
      py::arg("coords"), py::arg("current"), py::arg("parts"), py::kw_only(), py::arg("weights") = py::none(),
      py::arg("ids") = py::none(), py::arg("curve") = py::none(), py::arg("imbalance") = py::none(),
      py::arg("max_rounds") = py::none(), py::arg("comm") = py::none(),
      R"doc(Repartition a point set whose weights changed, from its current parts, moving little.

The Rebalancer's rebalance() for one event, without its load history: load diffuses between
neighbouring parts, moving the points nearest the receiving part, until the first weight is
within `imbalance`; failing that in max_rounds, a fresh curve partition relabelled to keep the
most weight in place (from_scratch).

Parameters
----------
coords : float64 (n, 2) or (n, 3); weights : float64 (n,) or (n, ncon); ids : int64 or int32 (n,)
current : int32 (n,), the current part of each local point, in [0, parts)
parts : int, K >= 1
curve : "hilbert" (default) or "morton" (of a fresh partition)
imbalance : max part weight / mean - 1 to reach (default 0.02)
max_rounds : diffusion rounds before the fresh partition (default 8)
comm : mpi4py.MPI.Comm, optional

Returns
-------
hpart.PointRepartition: parts, metrics, .migrated (objects, weight), .from_scratch, .steps

Example
-------
>>> p = hpart.partition_points(xyz, 8)
>>> r = hpart.repartition_points(xyz, p.parts, 8, weights=new_costs)
>>> r.migrated.objects, r.metrics.imbalance
)doc");
}

}  // namespace

void bind_rebalance(py::module_& m) {
  bind_rebalance_results(m);
  bind_rebalancer(m);
  def_repartition_points(m);
}

}  // namespace hpart::python
