// partition_patches: gather the level's patch list, order it canonically along the curve, assign
// on every rank alike (pure kernels), keep the local answers.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "core/log.hpp"
#include "metrics/partition_metrics.hpp"
#include "core/validate.hpp"
#include "metrics/part_ids.hpp"
#include "grid/grid_locator.hpp"
#include "patches/patch_assign.hpp"
#include "patches/patch_gather.hpp"
#include "kernels/enum_names.hpp"
#include "metrics/migration_volume.hpp"

namespace hpart {
namespace {

// Curve order of the patch centres; ties (patches sharing a centre cell cannot exist, they are
// disjoint, but keys are coarse) broken by the lower corner, so the order is a function of the
// patch list alone, not of how it was spread over ranks.
std::vector<std::size_t> canonical_order(const patches::GatheredPatches& g, const PatchList& list, Curve curve) {
  Grid shape;
  shape.dim = list.dim;
  shape.extent = list.extent;
  const grid::CellKeys keys = grid::CellKeys::for_grid(shape, curve);
  std::vector<std::uint64_t> key(g.boxes.size());
  for (std::size_t i = 0; i < g.boxes.size(); ++i) {
    const Box& b = g.boxes[i];
    Cell centre{0, 0, 0, 0};
    for (int d = 0; d < b.dim; ++d) {
      const auto k = static_cast<std::size_t>(d);
      centre[k] = b.lo[k] + (b.hi[k] - b.lo[k]) / 2;
    }
    key[i] = keys.key(centre);
  }
  std::vector<std::size_t> order(g.boxes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (key[a] != key[b]) return key[a] < key[b];
    return std::lexicographical_compare(g.boxes[a].lo.begin(), g.boxes[a].lo.end(), g.boxes[b].lo.begin(),
                                        g.boxes[b].lo.end());
  });
  return order;
}

// The swap refinement until the heaviest part is within `imbalance` of the mean; returns its steps.
int refine_to(std::span<const double> cost, std::vector<part_t>& parts, int K, double imbalance) {
  const double total = std::accumulate(cost.begin(), cost.end(), 0.0);
  // Enough steps for every patch to move a couple of times; in practice it stops far sooner.
  const int max_steps = static_cast<int>(std::min<std::size_t>(2 * cost.size() + static_cast<std::size_t>(K), 1 << 24));
  return patches::refine_by_swaps(cost, parts, K, max_steps, (1.0 + imbalance) * total / K);
}

std::vector<part_t> assign(std::span<const double> cost, const PatchOptions& opts) {
  const int K = opts.parts;
  std::vector<part_t> parts;
  switch (opts.method) {
    case PatchMethod::knapsack:
      parts = patches::assign_knapsack(cost, K);
      refine_to(cost, parts, K, opts.imbalance);
      break;
    case PatchMethod::sfc: parts = patches::assign_chains(cost, K); break;
    case PatchMethod::sfc_swap:
      parts = patches::assign_chains(cost, K);
      refine_to(cost, parts, K, opts.imbalance);
      break;
  }
  return parts;
}

// The part boxes (bounding box of each part's patches) and the summary of the local patches' parts.
PatchPartition make_result(const Comm& comm, const patches::GatheredPatches& g, const PatchList& list,
                           const std::vector<part_t>& part_of, int K) {
  PatchPartition out;
  out.boxes.assign(static_cast<std::size_t>(K), Box{});
  for (Box& b : out.boxes) {
    b.dim = list.dim;
    for (int d = 0; d < list.dim; ++d) b.lo[static_cast<std::size_t>(d)] = 0, b.hi[static_cast<std::size_t>(d)] = -1;
  }
  std::vector<bool> seen(static_cast<std::size_t>(K), false);
  for (std::size_t i = 0; i < part_of.size(); ++i) {
    const auto p = static_cast<std::size_t>(part_of[i]);
    Box& b = out.boxes[p];
    for (int d = 0; d < list.dim; ++d) {
      const auto k = static_cast<std::size_t>(d);
      b.lo[k] = seen[p] ? std::min(b.lo[k], g.boxes[i].lo[k]) : g.boxes[i].lo[k];
      b.hi[k] = seen[p] ? std::max(b.hi[k], g.boxes[i].hi[k]) : g.boxes[i].hi[k];
    }
    seen[p] = true;
  }
  std::vector<part_t> local(part_of.begin() + static_cast<std::ptrdiff_t>(g.local_begin()),
                            part_of.begin() + static_cast<std::ptrdiff_t>(g.local_end()));
  const std::span<const double> local_cost(g.cost.data() + g.local_begin(), g.local_end() - g.local_begin());
  static_cast<Partition&>(out) = detail::summarise_partition(comm, std::move(local), K, local_cost, 1, {});
  return out;
}

}  // namespace

constexpr detail::EnumNames<PatchMethod, 3> kPatchMethods{{
    {PatchMethod::knapsack, "knapsack"}, {PatchMethod::sfc, "sfc"}, {PatchMethod::sfc_swap, "sfc-swap"}}};

const char* to_string(PatchMethod m) { return detail::enum_name(kPatchMethods, m); }

PatchOptions PatchOptions::preset(Preset p, int parts) {
  PatchOptions o;
  o.parts = parts;
  if (p == Preset::fast) o.method = PatchMethod::sfc;
  if (p == Preset::strong) o.imbalance = 0.0;  // swap refinement until no swap helps
  return o;
}

PatchMethod patch_method_from_string(const char* name) {
  return detail::enum_from_name(kPatchMethods, name, "patch method");
}

PatchPartition partition_patches(const Comm& comm, const PatchList& list, const PatchOptions& opts) {
  const detail::Stopwatch clock;
  const bool tolerance_ok = std::isfinite(opts.imbalance) && opts.imbalance >= 0.0;
  detail::Replicated args;
  args.value("method", static_cast<long long>(opts.method))
      .value("curve", static_cast<long long>(opts.curve))
      .value("imbalance", opts.imbalance);
  const patches::GatheredPatches g = patches::gather_patches(
      comm, list, opts.parts, args,
      tolerance_ok ? "" : "imbalance tolerance must be finite and >= 0 (got " + std::to_string(opts.imbalance) + ")");
  const std::vector<std::size_t> order = canonical_order(g, list, opts.curve);
  std::vector<double> cost(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) cost[k] = g.cost[order[k]];
  const std::vector<part_t> in_order = assign(cost, opts);
  std::vector<part_t> part_of(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) part_of[order[k]] = in_order[k];

  PatchPartition out = make_result(comm, g, list, part_of, opts.parts);
  if (opts.method != PatchMethod::sfc) detail::record_tolerance(out, opts.imbalance);  // sfc: no tolerance
  const double seconds = detail::seconds_max(comm, clock);
  out.metrics.seconds = seconds;
  detail::log(comm, 1,
              std::string("partition_patches ") + to_string(opts.method) + ": " + std::to_string(g.boxes.size()) +
                  " patches, " + std::to_string(opts.parts) + " parts, " + std::to_string(seconds) + " s, imbalance " +
                  std::to_string(out.metrics.imbalance.at(0)));
  return out;
}

PatchRepartition repartition_patches(const Comm& comm, const PatchList& list, std::span<const part_t> current,
                                     const PatchRepartOptions& opts) {
  const detail::Stopwatch clock;
  const bool tolerance_ok = opts.imbalance >= 0.0 && opts.imbalance < 10.0;
  detail::Replicated args;
  args.value("repartition_patches: imbalance", opts.imbalance);
  const patches::GatheredPatches g = patches::gather_patches(
      comm, list, opts.parts, args,
      tolerance_ok ? "" : "repartition_patches: imbalance must be in [0, 10) (got " + std::to_string(opts.imbalance) + ")");
  std::string bad;
  if (current.size() != list.boxes.size())
    bad = "repartition_patches: current has " + std::to_string(current.size()) + " parts for " +
          std::to_string(list.boxes.size()) + " local patches";
  else if (std::string ids = detail::check_part_ids(current, opts.parts); !ids.empty())
    bad = "repartition_patches: current: " + ids;
  comm.agree(bad.empty() ? ErrorCode::ok : ErrorCode::invalid_input, bad);
  const std::vector<part_t> before =
      patches::gather_parts(comm, g, std::vector<part_t>(current.begin(), current.end()));

  // The refinement in the canonical (curve) order, so that its ties do not depend on the input's
  // spread over ranks.
  const std::vector<std::size_t> order = canonical_order(g, list, Curve::hilbert);
  std::vector<double> cost(order.size());
  std::vector<part_t> in_order(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) cost[k] = g.cost[order[k]], in_order[k] = before[order[k]];
  PatchRepartition out;
  out.steps = refine_to(cost, in_order, opts.parts, opts.imbalance);
  std::vector<part_t> part_of(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) part_of[order[k]] = in_order[k];
  out.migrated = detail::moved_here(before, part_of, g.cost, 1);  // the whole list, on every rank

  static_cast<PatchPartition&>(out) = make_result(comm, g, list, part_of, opts.parts);
  detail::record_tolerance(out, opts.imbalance);
  const double seconds = detail::seconds_max(comm, clock);
  out.metrics.seconds = seconds;
  detail::log(comm, 1,
              "repartition_patches: " + std::to_string(g.boxes.size()) + " patches, " + std::to_string(out.steps) +
                  " moves/swaps, " + std::to_string(out.migrated.objects) + " patches migrated, imbalance " +
                  std::to_string(out.metrics.imbalance.at(0)));
  return out;
}

GridNeighbours patch_neighbours(const Comm& comm, const PatchList& list, const PatchPartition& p, int halo) {
  std::string bad =
      halo < 1 ? "halo width must be >= 1 (got " + std::to_string(halo) + ")"
      : p.parts.size() != list.boxes.size()
          ? "the partition has " + std::to_string(p.parts.size()) + " parts for " +
                std::to_string(list.boxes.size()) + " local patches"
          : std::string();
  if (bad.empty()) bad = detail::check_part_ids(p.parts, p.num_parts);
  detail::Replicated args;
  args.value("halo width", static_cast<long long>(halo));
  const patches::GatheredPatches g = patches::gather_patches(comm, list, p.num_parts, args, bad);
  const std::vector<part_t> part = patches::gather_parts(comm, g, p.parts);
  const Box domain = Box::from_extent(list.dim, {list.extent[0], list.extent[1], list.extent[2], 1});
  // Sweep in order of the lower x bound: only patches whose x range comes within `halo` meet.
  std::vector<std::size_t> order(g.boxes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return g.boxes[a].lo[0] < g.boxes[b].lo[0]; });
  std::int64_t widest = 0;
  for (const Box& b : g.boxes) widest = std::max(widest, b.size(0));
  const auto K = static_cast<std::size_t>(p.num_parts);
  std::vector<std::vector<PartNeighbour>> pairs(K);
  const auto add = [&](part_t to, part_t from, std::int64_t cells, int contact) {
    auto& v = pairs[static_cast<std::size_t>(to)];
    auto it = std::find_if(v.begin(), v.end(), [&](const PartNeighbour& n) { return n.part == from; });
    if (it == v.end()) v.push_back(PartNeighbour{from, cells, contact});
    else it->halo_cells += cells, it->contact = std::min(it->contact, contact);
  };
  for (std::size_t a = 0; a < order.size(); ++a) {
    const Box& A = g.boxes[order[a]];
    const Box reach = A.grown(halo).intersect(domain);
    // Candidates: lo_x in [reach.lo_x - widest + 1, reach.hi_x].
    auto it = std::lower_bound(order.begin(), order.end(), reach.lo[0] - widest + 1,
                               [&](std::size_t i, std::int64_t x) { return g.boxes[i].lo[0] < x; });
    for (; it != order.end() && g.boxes[*it].lo[0] <= reach.hi[0]; ++it) {
      const std::size_t b = *it;
      if (part[b] == part[order[a]]) continue;
      const Box shared = reach.intersect(g.boxes[b]);
      if (!shared.empty()) add(part[order[a]], part[b], shared.volume(), contact_kind(A, g.boxes[b]));
    }
  }
  GridNeighbours out;
  out.of_part = std::move(pairs);
  for (auto& v : out.of_part) {
    std::sort(v.begin(), v.end(), [](const PartNeighbour& x, const PartNeighbour& y) { return x.part < y.part; });
    for (const PartNeighbour& n : v) out.halo_volume += n.halo_cells;
  }
  return out;
}

}  // namespace hpart
