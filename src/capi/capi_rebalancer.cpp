// The C API's Rebalancer: a handle holding the communicator and the C++ Rebalancer that
// borrows it; every call but stats and free is collective over that communicator.
#include <algorithm>
#include <cstring>
#include <span>

#include "capi/capi.hpp"

using namespace hpart::capi;

static_assert(HPART_REBALANCE_NONE == static_cast<int>(hpart::RebalanceKind::none) &&
              HPART_REBALANCE_SCRATCH == static_cast<int>(hpart::RebalanceKind::scratch) &&
              HPART_REBALANCE_SHIFT == static_cast<int>(hpart::RebalanceKind::shift) &&
              HPART_REBALANCE_DIFFUSION == static_cast<int>(hpart::RebalanceKind::diffusion));

namespace {

hpart::RebalanceOptions options_of(const hpart_rebalance_options& o) {
  hpart::RebalanceOptions r;
  r.parts = o.parts;
  r.curve = static_cast<hpart::Curve>(o.curve);
  r.imbalance = o.imbalance;
  r.horizon = o.horizon;
  r.smoothing = o.smoothing;
  r.trend_smoothing = o.trend_smoothing;
  r.forgetting = o.forgetting;
  r.max_surface_growth = o.max_surface_growth;
  r.incremental = o.incremental != 0;
  r.max_rounds = o.max_rounds;
  r.verbose = o.verbose;
  r.itr = o.itr;
  return r;
}

// The live Rebalancer, or a throw. A freed one still has its communicator (a tombstone): the
// error is then agreed with the peers, whose calls agree on their arguments first, so every rank
// reports it. A NULL or foreign pointer has no communicator of its own: the error is agreed over
// the one communicator of this rank's Rebalancers when they share one, else it stays local.
hpart_rebalancer& live(hpart_rebalancer* rb, const char* fn) {
  const MPI_Comm tomb = rb ? tombstone_comm(rb, Kind::rebalancer) : MPI_COMM_NULL;
  if (tomb != MPI_COMM_NULL) Check(fn).need(false, "rb is freed").agreed(tomb);
  if (rb == nullptr || !is_live(rb, Kind::rebalancer)) {
    const MPI_Comm peers = only_comm(Kind::rebalancer);
    Check check(fn);
    check.handle(rb, Kind::rebalancer, "rb");
    if (peers != MPI_COMM_NULL) check.agreed(peers);
    check.local();
  }
  return *rb;
}

std::span<const hpart::part_t> parts_span(const int32_t* parts, std::int64_t n) {
  return parts ? std::span<const hpart::part_t>(parts, static_cast<std::size_t>(n)) : std::span<const hpart::part_t>{};
}

// Common to the four calls that return a partition.
template <class Obj, class F>
hpart_status partition_call(const char* fn, hpart_rebalancer* rb, const Obj* obj, Kind kind, hpart_partition** out,
                            F&& call) {
  return guard([&] {
    if (out) *out = nullptr;
    hpart_rebalancer& r = live(rb, fn);
    Check(fn).need(out != nullptr, "out is NULL").handle(obj, kind, kind_name(kind)).agreed(r.comm);
    *out = wrap(call(r), r.comm.size());
  });
}

}  // namespace

extern "C" {

hpart_status hpart_rebalancer_create(MPI_Comm comm, const hpart_rebalance_options* opts, hpart_rebalancer** out) {
  return guard([&] {
    if (out) *out = nullptr;
    Check check("hpart_rebalancer_create");
    check.need(out != nullptr, "out is NULL").sized(opts, "opts", "hpart_rebalance_options_init");
    if (opts && opts->size == sizeof(*opts))
      check.need(opts->curve == HPART_CURVE_HILBERT || opts->curve == HPART_CURVE_MORTON,
                 "opts->curve is " + std::to_string(opts->curve) + ", out of range");
    check.agreed(comm);
    auto h = std::make_unique<hpart_rebalancer>(comm);
    h->rb = std::make_unique<hpart::Rebalancer>(h->comm, options_of(*opts));
    register_handle(h.get(), Kind::rebalancer, comm);
    *out = h.release();
  });
}

hpart_status hpart_rebalancer_partition_points(hpart_rebalancer* rb, const hpart_points* points, hpart_partition** out) {
  return partition_call("hpart_rebalancer_partition_points", rb, points, Kind::points, out,
                        [&](hpart_rebalancer& r) { return r.rb->partition(points->view()); });
}

hpart_status hpart_rebalancer_partition_graph(hpart_rebalancer* rb, const hpart_graph* graph, hpart_partition** out) {
  return partition_call("hpart_rebalancer_partition_graph", rb, graph, Kind::graph, out,
                        [&](hpart_rebalancer& r) { return r.rb->partition(graph->g); });
}

hpart_status hpart_rebalancer_rebalance_points(hpart_rebalancer* rb, const hpart_points* points, const int32_t* parts,
                                               hpart_partition** out) {
  return partition_call("hpart_rebalancer_rebalance_points", rb, points, Kind::points, out, [&](hpart_rebalancer& r) {
    return r.rb->rebalance(points->view(), parts_span(parts, points->n));
  });
}

hpart_status hpart_rebalancer_rebalance_graph(hpart_rebalancer* rb, const hpart_graph* graph, const int32_t* parts,
                                              hpart_partition** out) {
  return partition_call("hpart_rebalancer_rebalance_graph", rb, graph, Kind::graph, out, [&](hpart_rebalancer& r) {
    return r.rb->rebalance(graph->g, parts_span(parts, static_cast<std::int64_t>(graph->g.local_vertices())));
  });
}

hpart_status hpart_rebalancer_observe(hpart_rebalancer* rb, const hpart_observation* obs) {
  return guard([&] {
    hpart_rebalancer& r = live(rb, "hpart_rebalancer_observe");
    Check check("hpart_rebalancer_observe");
    check.sized(obs, "obs", "hpart_observation_init");
    if (obs && obs->size == sizeof(*obs))
      check.need(obs->n >= 0, "obs->n is negative (" + std::to_string(obs->n) + ")")
          .need(obs->nfeatures >= 0, "obs->nfeatures is negative (" + std::to_string(obs->nfeatures) + ")")
          .need(obs->features != nullptr || obs->nfeatures == 0, "obs->features is NULL but obs->nfeatures > 0");
    check.agreed(r.comm);
    const auto n = static_cast<std::size_t>(obs->n);
    hpart::Observation o;
    if (obs->has_step_seconds) o.step_seconds = obs->step_seconds;
    if (obs->object_costs) o.object_costs = {obs->object_costs, n};
    if (obs->features) o.features = {obs->features, n * static_cast<std::size_t>(obs->nfeatures)};
    o.nfeatures = obs->nfeatures;
    o.parts = parts_span(obs->parts, obs->n);
    r.rb->observe(o);
  });
}

hpart_status hpart_rebalancer_decide(hpart_rebalancer* rb, hpart_decision* decision) {
  return guard([&] {
    hpart_rebalancer& r = live(rb, "hpart_rebalancer_decide");
    Check("hpart_rebalancer_decide").sized(decision, "decision", "hpart_decision_init").agreed(r.comm);
    const hpart::Decision d = r.rb->decide();
    decision->rebalance = d.rebalance ? 1 : 0;
    decision->imbalance = d.imbalance;
    decision->predicted_imbalance = d.predicted_imbalance;
    decision->predicted_loss_seconds = d.predicted_loss_seconds;
    decision->predicted_gain_seconds = d.predicted_gain_seconds;
    decision->predicted_cost_seconds = d.predicted_cost_seconds;
    decision->residual_imbalance = d.residual_imbalance;
    decision->steps_since = d.steps_since;
    const std::size_t len = std::min(d.reason.size(), sizeof(decision->reason) - 1);
    std::memcpy(decision->reason, d.reason.data(), len);
    decision->reason[len] = '\0';
  });
}

hpart_status hpart_rebalancer_record_migration_seconds(hpart_rebalancer* rb, double seconds) {
  return guard([&] {
    hpart_rebalancer& r = live(rb, "hpart_rebalancer_record_migration_seconds");
    Check("hpart_rebalancer_record_migration_seconds").agreed(r.comm);
    r.rb->record_migration_seconds(seconds);
  });
}

hpart_status hpart_rebalancer_stats(const hpart_rebalancer* rb, hpart_rebalance_stats* stats) {
  return guard([&] {
    Check("hpart_rebalancer_stats")
        .handle(rb, Kind::rebalancer, "rb")
        .sized(stats, "stats", "hpart_rebalance_stats_init")
        .local();
    const hpart::RebalanceStats& s = rb->rb->stats();
    stats->kind = static_cast<int>(s.kind);
    stats->rounds = s.rounds;
    stats->rebalances = s.rebalances;
    stats->migrated_objects = s.migrated.objects;
    stats->migrated_weight = s.migrated.weight;
    stats->seconds = s.seconds;
    stats->migration_seconds = s.migration_seconds;
    stats->imbalance = s.imbalance;
    stats->surface = s.surface;
    stats->surface_fresh = s.surface_fresh;
  });
}

hpart_status hpart_rebalancer_free(hpart_rebalancer** rb) { return free_handle(rb, "hpart_rebalancer_free"); }

}  // extern "C"
