// sfc on a grid: curve keys from cell indices (no coordinates), then the same distributed
// splitter search as for points.
#include <array>
#include <memory>

#include "core/validate.hpp"
#include "grid/grid_methods.hpp"
#include "points/splitter_search.hpp"

namespace hpart::grid {

MethodResult sfc_cells(const Comm& comm, const GridInput& in, const GridOptions& opts) {
  auto locator = std::make_shared<CurveLocator>();
  locator->keys = CellKeys::for_grid(*in.grid, opts.curve);
  const std::size_t n = in.local.size();
  // Keys row by row (no per-cell index arithmetic); rows are independent, so threads split them.
  const auto key_buffer = std::make_unique_for_overwrite<std::uint64_t[]>(n);  // written in full below
  const std::span<std::uint64_t> keys(key_buffer.get(), n);
  std::vector<std::array<std::int64_t, 3>> rows;  // (first index, y, z) of every local x-row
  for_each_row(in.local, in.local.box, [&](std::size_t index, std::int64_t, std::int64_t y, std::int64_t z, std::int64_t) {
    rows.push_back({static_cast<std::int64_t>(index), y, z});
  });
  const std::int64_t x0 = in.local.box.lo[0], nx = in.local.nx;
  const CellKeys ck = locator->keys;
  const auto nrows = static_cast<std::ptrdiff_t>(rows.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t r = 0; r < nrows; ++r) {
    const auto& row = rows[static_cast<std::size_t>(r)];
    std::uint64_t* out = keys.data() + row[0];
    for (std::int64_t k = 0; k < nx; ++k) out[k] = ck.key({x0 + k, row[1], row[2], 0});
  }

  sfc::CurveObjects objects;
  objects.keys = keys;
  objects.first_id = 0;  // grid cells have distinct keys: the id half never breaks a tie
  if (!in.unit_cost) {
    objects.weights = in.grid->cost;
    objects.set_weight_exponent(in.exponent);
  }
  sfc::SplitterSearchOptions search;
  search.parts = opts.parts;
  search.targets = detail::normalised_targets(opts.target_sizes, opts.parts);
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
