// sfc on a grid: curve keys from cell indices (no coordinates), then the same distributed
// splitter search as for points.
#include <memory>

#include "core/validate.hpp"
#include "grid/grid_methods.hpp"
#include "sfc/splitter_search.hpp"

namespace hpart::grid {

MethodResult sfc_cells(const Comm& comm, const GridInput& in, const GridOptions& opts) {
  auto locator = std::make_shared<CurveLocator>();
  locator->keys = CellKeys::for_grid(*in.grid, opts.curve);
  const std::size_t n = in.local.size();
  std::vector<std::uint64_t> keys(n);
  const auto sn = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < sn; ++i) keys[static_cast<std::size_t>(i)] = locator->keys.key(in.local.cell(static_cast<std::size_t>(i)));

  sfc::CurveObjects objects;
  objects.keys = keys;
  objects.first_id = 0;  // grid cells have distinct keys: the id half never breaks a tie
  if (!in.unit_cost) {
    objects.weights = in.grid->cost;
    objects.set_weight_exponent(in.exponent);
  }
  sfc::SplitterSearchOptions search;
  search.parts = opts.parts;
  search.targets = detail::normalised_targets({}, opts.parts);
  search.imbalance = opts.imbalance;
  const std::vector<sfc::Order> splitters = sfc::find_splitters(comm, objects, search);

  MethodResult r;
  r.parts.resize(n);
  sfc::assign_parts(objects, splitters, search.first_bits, r.parts);
  locator->inner.assign(splitters.begin() + 1, splitters.end() - 1);
  r.box_shaped = false;
  r.locator = std::move(locator);
  return r;
}

}  // namespace hpart::grid
