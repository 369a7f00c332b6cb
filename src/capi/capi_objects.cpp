// The C API's local objects: point sets, grids, and the option and result structs' defaults
// (taken from the C++ option structs, so the defaults are written once).
#include "capi/capi.hpp"
#include "hpart/hierarchy.hpp"

using namespace hpart::capi;

hpart::PointSet hpart_points_s::view() const {
  const auto un = static_cast<std::size_t>(n);
  hpart::PointSet s;
  s.coords = {coords, coords ? un * static_cast<std::size_t>(dim) : 0};
  s.dim = dim;
  s.ncon = ncon;
  if (weights) s.weights = {weights, un * static_cast<std::size_t>(ncon)};
  if (ids) s.ids = std::span<const std::int64_t>(ids, un);
  if (ids32) s.ids = std::span<const std::int32_t>(ids32, un);
  return s;
}

namespace {

template <class S>
hpart_status init_struct(S* s, const char* fn) {
  return guard([&] {
    Check(fn).need(s != nullptr, "the struct is NULL").local();
    *s = S{};
    s->size = sizeof(S);
  });
}

}  // namespace

extern "C" {

hpart_status hpart_points_create(int dim, int64_t n, const double* coords, hpart_points** out) {
  return guard([&] {
    if (out) *out = nullptr;
    Check("hpart_points_create")
        .need(out != nullptr, "out is NULL")
        .need(dim == 2 || dim == 3, "dim is " + std::to_string(dim) + ", must be 2 or 3")
        .array(coords, n, "coords")
        .local();
    hpart_points* p = make_handle<hpart_points>();
    p->dim = dim;
    p->n = n;
    p->coords = coords;
    *out = p;
  });
}

hpart_status hpart_points_set_weights(hpart_points* points, int ncon, const double* weights) {
  return guard([&] {
    Check("hpart_points_set_weights")
        .handle(points, Kind::points, "points")
        .need(ncon >= 1, "ncon is " + std::to_string(ncon) + ", must be >= 1")
        .local();
    Check("hpart_points_set_weights").array(weights, weights ? points->n : 0, "weights").local();
    points->weights = weights;
    points->ncon = weights ? ncon : 1;
  });
}

hpart_status hpart_points_set_ids_i64(hpart_points* points, const int64_t* ids) {
  return guard([&] {
    Check("hpart_points_set_ids_i64").handle(points, Kind::points, "points").local();
    points->ids32 = nullptr;
    points->ids = ids;
  });
}

hpart_status hpart_points_set_ids_i32(hpart_points* points, const int32_t* ids) {
  return guard([&] {
    Check("hpart_points_set_ids_i32").handle(points, Kind::points, "points").local();
    points->ids = nullptr;
    points->ids32 = ids;
  });
}

hpart_status hpart_points_size(const hpart_points* points, int64_t* n) {
  return guard([&] {
    Check("hpart_points_size").handle(points, Kind::points, "points").need(n != nullptr, "n is NULL").local();
    *n = points->n;
  });
}

hpart_status hpart_points_dim(const hpart_points* points, int* dim) {
  return guard([&] {
    Check("hpart_points_dim").handle(points, Kind::points, "points").need(dim != nullptr, "dim is NULL").local();
    *dim = points->dim;
  });
}

hpart_status hpart_points_coords(const hpart_points* points, const double** coords) {
  return guard([&] {
    Check("hpart_points_coords").handle(points, Kind::points, "points").need(coords != nullptr, "coords is NULL").local();
    *coords = points->coords;
  });
}

hpart_status hpart_points_weights(const hpart_points* points, const double** weights, int* ncon) {
  return guard([&] {
    Check("hpart_points_weights")
        .handle(points, Kind::points, "points")
        .need(weights != nullptr, "weights is NULL")
        .need(ncon != nullptr, "ncon is NULL")
        .local();
    *weights = points->weights;
    *ncon = points->ncon;
  });
}

hpart_status hpart_points_ids(const hpart_points* points, const int64_t** ids) {
  return guard([&] {
    Check("hpart_points_ids").handle(points, Kind::points, "points").need(ids != nullptr, "ids is NULL").local();
    *ids = points->ids;
  });
}

hpart_status hpart_points_free(hpart_points** points) { return free_handle(points, "hpart_points_free"); }

hpart_status hpart_grid_create(int dim, const int64_t* extent, const int64_t* lo, const int64_t* hi,
                               const double* cost, hpart_grid** out) {
  return guard([&] {
    if (out) *out = nullptr;
    Check("hpart_grid_create")
        .need(out != nullptr, "out is NULL")
        .need(dim == 2 || dim == 3, "dim is " + std::to_string(dim) + ", must be 2 or 3")
        .need(extent != nullptr, "extent is NULL")
        .need(lo != nullptr, "lo is NULL")
        .need(hi != nullptr, "hi is NULL")
        .local();
    hpart::Grid g;
    g.dim = dim;
    g.local = hpart::Box::none(dim);
    for (int d = 0; d < dim; ++d) {
      g.extent[static_cast<std::size_t>(d)] = extent[d];
      g.local.lo[static_cast<std::size_t>(d)] = lo[d];
      g.local.hi[static_cast<std::size_t>(d)] = hi[d];
    }
    if (cost) g.cost = {cost, static_cast<std::size_t>(g.local.volume())};
    hpart_grid* h = make_handle<hpart_grid>();
    h->grid = g;
    *out = h;
  });
}

hpart_status hpart_grid_free(hpart_grid** grid) { return free_handle(grid, "hpart_grid_free"); }

hpart_status hpart_point_options_init(hpart_point_options* opts) {
  const hpart_status s = init_struct(opts, "hpart_point_options_init");
  if (s != HPART_OK) return s;
  const hpart::PointOptions d;
  opts->parts = d.parts;
  opts->curve = static_cast<int>(d.curve);
  opts->imbalance = d.imbalance;
  return HPART_OK;
}

hpart_status hpart_point_options_preset(hpart_point_options* opts, int preset, int parts) {
  const hpart_status s = init_struct(opts, "hpart_point_options_preset");
  if (s != HPART_OK) return s;
  return guard([&] {
    Check("hpart_point_options_preset")
        .need(preset >= HPART_PRESET_FAST && preset <= HPART_PRESET_STRONG,
              "preset is " + std::to_string(preset) + ", must be HPART_PRESET_FAST, _STANDARD or _STRONG")
        .local();
    const hpart::PointOptions d = hpart::PointOptions::preset(static_cast<hpart::Preset>(preset), parts);
    opts->parts = d.parts;
    opts->curve = static_cast<int>(d.curve);
    opts->imbalance = d.imbalance;
  });
}

hpart_status hpart_hier_point_options_init(hpart_hier_point_options* opts) {
  const hpart_status s = init_struct(opts, "hpart_hier_point_options_init");
  if (s != HPART_OK) return s;
  const hpart::HierPointOptions d;
  opts->parts = d.parts;
  opts->node_curve = static_cast<int>(d.node_curve);
  opts->rank_curve = static_cast<int>(d.rank_curve);
  opts->imbalance = d.imbalance;
  return HPART_OK;
}

hpart_status hpart_grid_options_init(hpart_grid_options* opts) {
  const hpart_status s = init_struct(opts, "hpart_grid_options_init");
  if (s != HPART_OK) return s;
  const hpart::GridOptions d;
  opts->parts = d.parts;
  opts->method = static_cast<int>(d.method);
  opts->curve = static_cast<int>(d.curve);
  opts->imbalance = d.imbalance;
  for (int i = 0; i < 3; ++i) opts->shape[i] = d.shape[static_cast<std::size_t>(i)];
  return HPART_OK;
}

hpart_status hpart_hier_grid_options_init(hpart_hier_grid_options* opts) {
  const hpart_status s = init_struct(opts, "hpart_hier_grid_options_init");
  if (s != HPART_OK) return s;
  const hpart::HierGridOptions d;
  opts->parts = d.parts;
  opts->node_cut = static_cast<int>(d.node_cut);
  opts->node_method = static_cast<int>(d.node_method);
  opts->rank_method = static_cast<int>(d.rank_method);
  opts->imbalance = d.imbalance;
  return HPART_OK;
}

hpart_status hpart_graph_options_init(hpart_graph_options* opts) {
  const hpart_status s = init_struct(opts, "hpart_graph_options_init");
  if (s != HPART_OK) return s;
  const hpart::GraphOptions d;
  opts->parts = d.parts;
  opts->method = static_cast<int>(d.method);
  opts->imbalance = d.imbalance;
  opts->seed = d.seed;
  return HPART_OK;
}

hpart_status hpart_hier_graph_options_init(hpart_hier_graph_options* opts) {
  const hpart_status s = init_struct(opts, "hpart_hier_graph_options_init");
  if (s != HPART_OK) return s;
  const hpart::HierGraphOptions d;
  opts->parts = d.parts;
  opts->node_method = static_cast<int>(d.node_method);
  opts->rank_method = static_cast<int>(d.rank_method);
  opts->imbalance = d.imbalance;
  opts->seed = d.seed;
  return HPART_OK;
}

hpart_status hpart_graph_repart_options_init(hpart_graph_repart_options* opts) {
  const hpart_status s = init_struct(opts, "hpart_graph_repart_options_init");
  if (s != HPART_OK) return s;
  const hpart::GraphRepartOptions d;
  opts->parts = d.parts;
  opts->imbalance = d.imbalance;
  opts->itr = d.itr;
  opts->max_rounds = d.max_rounds;
  opts->refine_passes = d.refine_passes;
  opts->reference_cut = d.reference_cut;
  opts->max_surface_growth = d.max_surface_growth;
  return HPART_OK;
}

hpart_status hpart_rebalance_options_init(hpart_rebalance_options* opts) {
  const hpart_status s = init_struct(opts, "hpart_rebalance_options_init");
  if (s != HPART_OK) return s;
  const hpart::RebalanceOptions d;
  opts->parts = d.parts;
  opts->curve = static_cast<int>(d.curve);
  opts->imbalance = d.imbalance;
  opts->horizon = d.horizon;
  opts->smoothing = d.smoothing;
  opts->trend_smoothing = d.trend_smoothing;
  opts->forgetting = d.forgetting;
  opts->max_surface_growth = d.max_surface_growth;
  opts->incremental = d.incremental ? 1 : 0;
  opts->max_rounds = d.max_rounds;
  opts->verbose = d.verbose;
  opts->itr = d.itr;
  return HPART_OK;
}

hpart_status hpart_metrics_init(hpart_metrics* m) { return init_struct(m, "hpart_metrics_init"); }
hpart_status hpart_graph_metrics_init(hpart_graph_metrics* m) { return init_struct(m, "hpart_graph_metrics_init"); }
hpart_status hpart_observation_init(hpart_observation* o) { return init_struct(o, "hpart_observation_init"); }
hpart_status hpart_decision_init(hpart_decision* d) { return init_struct(d, "hpart_decision_init"); }
hpart_status hpart_rebalance_stats_init(hpart_rebalance_stats* s) { return init_struct(s, "hpart_rebalance_stats_init"); }

}  // extern "C"
