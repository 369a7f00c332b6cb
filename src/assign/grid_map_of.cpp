// map_of for grid partitions: the partition's locator, which every rank already holds, checked
// identical on every rank (by a hash of its saved form) together with the grid's shape.
#include <string>

#include "assign/grid_map.hpp"
#include "assign/map_build.hpp"
#include "assign/map_text.hpp"

namespace hpart {

PartitionMap map_of(const Comm& comm, const Grid& grid, const GridPartition& partition,
                    std::span<const int> owner_of_part) {
  std::string problem;
  if (grid.dim != 2 && grid.dim != 3) problem = "grid.dim must be 2 or 3, got " + std::to_string(grid.dim);
  for (int a = 0; problem.empty() && a < grid.dim; ++a)
    if (grid.extent[static_cast<std::size_t>(a)] < 1)
      problem = "grid.extent[" + std::to_string(a) + "] = " + std::to_string(grid.extent[static_cast<std::size_t>(a)]) + " < 1";
  if (problem.empty() && partition.num_parts < 1) problem = "the partition has " + std::to_string(partition.num_parts) + " parts";
  if (problem.empty()) problem = detail::check_owners(comm, owner_of_part, partition.num_parts);
  // The locator's saved form, compared across ranks.
  std::string locator;
  if (problem.empty()) {
    detail::TextWriter w;
    detail::write_locator(w, partition.locator.get(), partition.num_parts);
    locator = w.text();
  }
  detail::Replicated args;
  const std::array<std::int64_t, 3> extent{grid.extent[0], grid.extent[1], grid.dim == 3 ? grid.extent[2] : 1};
  args.value("dim", static_cast<long long>(grid.dim))
      .values("extent", std::span<const std::int64_t>(extent))
      .value("num_parts", static_cast<long long>(partition.num_parts))
      .values("owner_of_part", owner_of_part)
      .text("partition locator", locator);
  auto data = detail::agreed_map(comm, args, problem, MapKind::grid, grid.dim, partition.num_parts, owner_of_part);
  data->extent = extent;
  data->locator = partition.locator;
  return PartitionMap(std::move(data));
}

PartitionMap map_of(const Comm& comm, const Grid& grid, const HierGridPartition& partition) {
  return map_of(comm, grid, static_cast<const GridPartition&>(partition), partition.owner_of_part);
}

}  // namespace hpart
