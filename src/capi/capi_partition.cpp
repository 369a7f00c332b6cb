// The C API's point and grid partitioners and evaluate_partition: argument checks agreed across
// the ranks, then the C++ call, its result wrapped in an hpart_partition.
#include <span>

#include "capi/capi.hpp"
#include "hpart/hierarchy.hpp"
#include "hpart/points.hpp"
#include "hpart/topology.hpp"

using namespace hpart::capi;

static_assert(HPART_CURVE_HILBERT == static_cast<int>(hpart::Curve::hilbert) &&
              HPART_CURVE_MORTON == static_cast<int>(hpart::Curve::morton));
static_assert(HPART_GRID_SFC == static_cast<int>(hpart::GridMethod::sfc) &&
              HPART_GRID_BLOCKS == static_cast<int>(hpart::GridMethod::blocks) &&
              HPART_GRID_TENSOR == static_cast<int>(hpart::GridMethod::tensor) &&
              HPART_GRID_UNIFORM == static_cast<int>(hpart::GridMethod::uniform));
static_assert(HPART_NODE_CUT_STAIRCASE == static_cast<int>(hpart::NodeCut::staircase) &&
              HPART_NODE_CUT_BOXES == static_cast<int>(hpart::NodeCut::boxes) &&
              HPART_NODE_CUT_GRAPH == static_cast<int>(hpart::NodeCut::graph));
static_assert(HPART_PRESET_FAST == static_cast<int>(hpart::Preset::fast) &&
              HPART_PRESET_STRONG == static_cast<int>(hpart::Preset::strong));
static_assert(static_cast<int>(HPART_ERR_INTERNAL) == static_cast<int>(hpart::ErrorCode::internal) &&
              static_cast<int>(HPART_ERR_IO) == static_cast<int>(hpart::ErrorCode::io) &&
              static_cast<int>(HPART_ERR_SIZE_MISMATCH) == static_cast<int>(hpart::ErrorCode::size_mismatch) &&
              static_cast<int>(HPART_ERR_INVALID_INPUT) == static_cast<int>(hpart::ErrorCode::invalid_input));

namespace {

bool curve_ok(int c) { return c == HPART_CURVE_HILBERT || c == HPART_CURVE_MORTON; }
bool grid_method_ok(int m) { return m >= HPART_GRID_SFC && m <= HPART_GRID_UNIFORM; }

std::string bad_value(const char* name, int v) { return std::string(name) + " is " + std::to_string(v) + ", out of range"; }

// Target sizes: parts values when given (the C++ call checks them).
std::span<const double> targets(const double* t, int parts) {
  return t ? std::span<const double>(t, static_cast<std::size_t>(parts > 0 ? parts : 0)) : std::span<const double>{};
}

hpart_status points_call(MPI_Comm comm, const hpart_points* points, const hpart_point_options* opts,
                         hpart_partition** out) {
  return guard([&] {
    if (out) *out = nullptr;
    Check check("hpart_partition_points");
    check.need(out != nullptr, "out is NULL").handle(points, Kind::points, "points");
    check_point_options(check, opts);
    const hpart::Comm c = check.agreed(comm);
    *out = wrap(hpart::partition_points(c, points->view(), point_options(*opts)), c.size());
  });
}

}  // namespace

namespace hpart::capi {

void check_point_options(Check& check, const hpart_point_options* opts) {
  check.sized(opts, "opts", "hpart_point_options_init");
  if (opts && opts->size == sizeof(*opts)) check.need(curve_ok(opts->curve), bad_value("opts->curve", opts->curve));
}

void check_hier_point_options(Check& check, const hpart_hier_point_options* opts) {
  check.sized(opts, "opts", "hpart_hier_point_options_init");
  if (opts && opts->size == sizeof(*opts))
    check.need(curve_ok(opts->node_curve), bad_value("opts->node_curve", opts->node_curve))
        .need(curve_ok(opts->rank_curve), bad_value("opts->rank_curve", opts->rank_curve));
}

PointOptions point_options(const hpart_point_options& opts) {
  PointOptions o;
  o.parts = opts.parts;
  o.curve = static_cast<Curve>(opts.curve);
  o.imbalance = opts.imbalance;
  o.target_sizes = targets(opts.target_sizes, opts.parts);
  return o;
}

HierPointOptions hier_point_options(const hpart_hier_point_options& opts) {
  HierPointOptions o;
  o.parts = opts.parts;
  o.node_curve = static_cast<Curve>(opts.node_curve);
  o.rank_curve = static_cast<Curve>(opts.rank_curve);
  o.imbalance = opts.imbalance;
  return o;
}

}  // namespace hpart::capi

extern "C" {

hpart_status hpart_partition_points(MPI_Comm comm, const hpart_points* points, const hpart_point_options* opts,
                                    hpart_partition** out) {
  return points_call(comm, points, opts, out);
}

hpart_status hpart_partition_points_hierarchical(MPI_Comm comm, const hpart_points* points,
                                                 const hpart_hier_point_options* opts, hpart_partition** out) {
  return guard([&] {
    if (out) *out = nullptr;
    Check check("hpart_partition_points_hierarchical");
    check.need(out != nullptr, "out is NULL").handle(points, Kind::points, "points");
    check_hier_point_options(check, opts);
    const hpart::Comm c = check.agreed(comm);
    const hpart::Topology topo = hpart::detect_topology(c, opts->topology ? opts->topology : "");
    const hpart::HierPointOptions o = hier_point_options(*opts);
    *out = wrap(hpart::partition_points_hierarchical(c, points->view(), topo, o), c.size());
  });
}

hpart_status hpart_partition_grid(MPI_Comm comm, const hpart_grid* grid, const hpart_grid_options* opts,
                                  hpart_partition** out) {
  return guard([&] {
    if (out) *out = nullptr;
    Check check("hpart_partition_grid");
    check.need(out != nullptr, "out is NULL").handle(grid, Kind::grid, "grid");
    check.sized(opts, "opts", "hpart_grid_options_init");
    if (opts && opts->size == sizeof(*opts))
      check.need(curve_ok(opts->curve), bad_value("opts->curve", opts->curve))
          .need(grid_method_ok(opts->method), bad_value("opts->method", opts->method));
    const hpart::Comm c = check.agreed(comm);
    hpart::GridOptions o;
    o.parts = opts->parts;
    o.method = static_cast<hpart::GridMethod>(opts->method);
    o.curve = static_cast<hpart::Curve>(opts->curve);
    o.imbalance = opts->imbalance;
    o.shape = {opts->shape[0], opts->shape[1], opts->shape[2]};
    o.target_sizes = targets(opts->target_sizes, opts->parts);
    hpart_partition* h = wrap(hpart::partition_grid(c, grid->grid, o), c.size());
    h->domain = grid->grid.domain();
    *out = h;
  });
}

hpart_status hpart_partition_grid_hierarchical(MPI_Comm comm, const hpart_grid* grid,
                                               const hpart_hier_grid_options* opts, hpart_partition** out) {
  return guard([&] {
    if (out) *out = nullptr;
    Check check("hpart_partition_grid_hierarchical");
    check.need(out != nullptr, "out is NULL").handle(grid, Kind::grid, "grid");
    check.sized(opts, "opts", "hpart_hier_grid_options_init");
    if (opts && opts->size == sizeof(*opts))
      check.need(opts->node_cut >= HPART_NODE_CUT_STAIRCASE && opts->node_cut <= HPART_NODE_CUT_GRAPH,
                 bad_value("opts->node_cut", opts->node_cut))
          .need(grid_method_ok(opts->node_method), bad_value("opts->node_method", opts->node_method))
          .need(grid_method_ok(opts->rank_method), bad_value("opts->rank_method", opts->rank_method));
    const hpart::Comm c = check.agreed(comm);
    const hpart::Topology topo = hpart::detect_topology(c, opts->topology ? opts->topology : "");
    hpart::HierGridOptions o;
    o.parts = opts->parts;
    o.node_cut = static_cast<hpart::NodeCut>(opts->node_cut);
    o.node_method = static_cast<hpart::GridMethod>(opts->node_method);
    o.rank_method = static_cast<hpart::GridMethod>(opts->rank_method);
    o.imbalance = opts->imbalance;
    hpart_partition* h = wrap(hpart::partition_grid_hierarchical(c, grid->grid, topo, o), c.size());
    h->domain = grid->grid.domain();
    *out = h;
  });
}

hpart_status hpart_repartition_grid(MPI_Comm comm, const hpart_grid* grid, const hpart_partition* previous,
                                    int parts, double imbalance, hpart_partition** out) {
  return guard([&] {
    if (out) *out = nullptr;
    Check check("hpart_repartition_grid");
    check.need(out != nullptr, "out is NULL").handle(grid, Kind::grid, "grid");
    check.handle(previous, Kind::partition, "previous");
    if (previous && is_live(previous, Kind::partition))
      check.need(previous->grid_part() != nullptr, "previous is not a grid partition");
    const hpart::Comm c = check.agreed(comm);
    hpart::GridRepartition r = hpart::repartition_grid(c, grid->grid, *previous->grid_part(), {parts, imbalance});
    const hpart::MigrationStats migrated = r.migrated;
    const bool scratch = r.from_scratch;
    const int steps = r.steps;
    const double growth = r.surface_growth;
    hpart_partition* h = wrap(static_cast<hpart::GridPartition&&>(r), c.size());
    h->domain = grid->grid.domain();
    h->migrated = migrated;
    h->from_scratch = scratch;
    h->steps = steps;
    h->surface_growth = growth;
    *out = h;
  });
}

hpart_status hpart_evaluate_partition(MPI_Comm comm, const int32_t* parts, int64_t n, int num_parts,
                                      const double* weights, int ncon, const double* target_sizes,
                                      hpart_partition** out) {
  return guard([&] {
    if (out) *out = nullptr;
    Check check("hpart_evaluate_partition");
    check.need(out != nullptr, "out is NULL").array(parts, n, "parts");
    check.need(ncon >= 1, "ncon is " + std::to_string(ncon) + ", must be >= 1");
    const hpart::Comm c = check.agreed(comm);
    const auto un = static_cast<std::size_t>(n);
    std::vector<hpart::part_t> p(parts, parts + un);
    std::span<const double> w;
    if (weights) w = {weights, un * static_cast<std::size_t>(ncon)};
    *out = wrap(hpart::evaluate_partition(c, std::move(p), num_parts, w, ncon, targets(target_sizes, num_parts)),
                c.size());
  });
}

}  // extern "C"
