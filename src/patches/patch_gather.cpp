#include "patches/patch_gather.hpp"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <numeric>
#include <string>

#include "core/memory_budget.hpp"
#include "core/validate.hpp"
#include "grid/grid_input.hpp"

namespace hpart::patches {
namespace {

std::string check_arguments(const PatchList& list, int parts) {
  if (std::string problem = detail::check_parts(parts); !problem.empty()) return problem;
  return grid::check_grid_shape(list.dim, list.extent);
}

std::string check_local(const PatchList& list) {
  if (!list.cost.empty() && list.cost.size() != list.boxes.size())
    return "cost has " + std::to_string(list.cost.size()) + " values for " + std::to_string(list.boxes.size()) +
           " patches (one per patch, or none for cell counts)";
  const Box domain = Box::from_extent(list.dim, {list.extent[0], list.extent[1], list.extent[2], 1});
  for (std::size_t i = 0; i < list.boxes.size(); ++i) {
    const Box& b = list.boxes[i];
    const std::string which = "patch " + std::to_string(i) + " " + b.str();
    if (b.dim != list.dim) return which + " has dim " + std::to_string(b.dim) + " but the list has dim " + std::to_string(list.dim);
    if (b.empty()) return which + " is empty (hi < lo)";
    if (!(b.intersect(domain) == b)) return which + " lies outside the domain " + domain.str();
  }
  if (std::string w = detail::check_weights(list.cost, list.boxes.size(), 1); !w.empty()) return "cost: " + w;
  return {};
}

// The first pair of overlapping patches, in order of their lower x bound (the same on every rank).
std::string check_disjoint(const GatheredPatches& g) {
  std::vector<std::size_t> order(g.boxes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return g.boxes[a].lo[0] < g.boxes[b].lo[0] || (g.boxes[a].lo[0] == g.boxes[b].lo[0] && a < b);
  });
  const auto owner = [&](std::size_t i) {
    const auto r = std::upper_bound(g.first.begin(), g.first.end(), static_cast<int>(i)) - g.first.begin() - 1;
    return "patch " + std::to_string(i - static_cast<std::size_t>(g.first[static_cast<std::size_t>(r)])) + " of rank " +
           std::to_string(r) + " " + g.boxes[i].str();
  };
  for (std::size_t k = 0; k < order.size(); ++k)
    for (std::size_t j = k + 1; j < order.size() && g.boxes[order[j]].lo[0] <= g.boxes[order[k]].hi[0]; ++j)
      if (!g.boxes[order[k]].intersect(g.boxes[order[j]]).empty())
        return owner(std::min(order[k], order[j])) + " and " + owner(std::max(order[k], order[j])) +
               " overlap (the patches of a level must be disjoint)";
  return {};
}

void agree_on(const Comm& comm, ErrorCode code, const std::string& problem) {
  comm.agree(problem.empty() ? ErrorCode::ok : code, problem);
}

}  // namespace

GatheredPatches gather_patches(const Comm& comm, const PatchList& list, int parts, detail::Replicated options,
                               const std::string& option_problem) {
  std::string problem = option_problem;
  ErrorCode code = ErrorCode::invalid_argument;
  if (problem.empty()) problem = check_arguments(list, parts);
  if (problem.empty()) problem = check_local(list), code = ErrorCode::invalid_input;
  options.value("patch list dim", static_cast<long long>(list.dim))
      .values("patch list extent", std::span<const std::int64_t>(list.extent))
      .value("parts", static_cast<long long>(parts))
      .given("cost", !list.cost.empty(), list.boxes.empty());
  detail::agree(comm, options, problem.empty() ? ErrorCode::ok : code, problem);
  const int R = comm.size();
  GatheredPatches g;
  g.rank = comm.rank();
  const int mine = static_cast<int>(list.boxes.size());
  std::vector<int> counts(static_cast<std::size_t>(R));
  MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, comm.get());
  // Every rank keeps the whole list (6 bounds, a cost, a box, a part: ~120 bytes a patch), and
  // Allgatherv counts bounds in int.
  long long sum = 0;
  for (const int c : counts) sum += c;
  problem = sum == 0 ? "the patch list is empty on every rank" : "";
  if (problem.empty() && 6 * sum > INT_MAX)
    problem = std::to_string(sum) + " patches: at most (2^31 - 1) / 6 are supported (every rank keeps the list)";
  if (problem.empty())
    problem = detail::check_memory(120.0 * static_cast<double>(sum), "the gathered list of " + std::to_string(sum) + " patches",
                                   "every rank keeps the whole list: coarsen the level into fewer, larger patches");
  agree_on(comm, ErrorCode::invalid_input, problem);
  g.first.assign(static_cast<std::size_t>(R) + 1, 0);
  for (int r = 0; r < R; ++r) g.first[static_cast<std::size_t>(r) + 1] = g.first[static_cast<std::size_t>(r)] + counts[static_cast<std::size_t>(r)];
  const auto total = static_cast<std::size_t>(g.first.back());

  // Bounds as 6 integers a patch, costs apart: two Allgatherv.
  std::vector<std::int64_t> bounds(static_cast<std::size_t>(mine) * 6, 0), all_bounds(total * 6);
  std::vector<double> cost(static_cast<std::size_t>(mine));
  for (std::size_t i = 0; i < list.boxes.size(); ++i) {
    const Box& b = list.boxes[i];
    for (int d = 0; d < list.dim; ++d) {
      bounds[i * 6 + static_cast<std::size_t>(d)] = b.lo[static_cast<std::size_t>(d)];
      bounds[i * 6 + 3 + static_cast<std::size_t>(d)] = b.hi[static_cast<std::size_t>(d)];
    }
    if (list.cost.empty()) {
      double cells = 1.0;  // in double: a 2^21^3 patch would overflow int64
      for (int d = 0; d < list.dim; ++d) cells *= static_cast<double>(b.size(d));
      cost[i] = cells;
    } else {
      cost[i] = list.cost[i];
    }
  }
  std::vector<int> counts6(static_cast<std::size_t>(R)), displs6(static_cast<std::size_t>(R));
  for (int r = 0; r < R; ++r) {
    counts6[static_cast<std::size_t>(r)] = 6 * counts[static_cast<std::size_t>(r)];
    displs6[static_cast<std::size_t>(r)] = 6 * g.first[static_cast<std::size_t>(r)];
  }
  MPI_Allgatherv(bounds.data(), 6 * mine, MPI_INT64_T, all_bounds.data(), counts6.data(), displs6.data(), MPI_INT64_T,
                 comm.get());
  g.cost.resize(total);
  MPI_Allgatherv(cost.data(), mine, MPI_DOUBLE, g.cost.data(), counts.data(), g.first.data(), MPI_DOUBLE, comm.get());
  g.boxes.resize(total);
  for (std::size_t i = 0; i < total; ++i) {
    Box& b = g.boxes[i];
    b.dim = list.dim;
    for (int d = 0; d < list.dim; ++d) {
      b.lo[static_cast<std::size_t>(d)] = all_bounds[i * 6 + static_cast<std::size_t>(d)];
      b.hi[static_cast<std::size_t>(d)] = all_bounds[i * 6 + 3 + static_cast<std::size_t>(d)];
    }
  }
  // Every rank holds the same list, so every rank reaches the same verdict: no vote needed,
  // but agree anyway so that the error path is the common one.
  agree_on(comm, ErrorCode::invalid_input, check_disjoint(g));
  return g;
}

std::vector<part_t> gather_parts(const Comm& comm, const GatheredPatches& g, const std::vector<part_t>& local) {
  std::vector<int> counts(g.first.size() - 1);
  for (std::size_t r = 0; r < counts.size(); ++r) counts[r] = g.first[r + 1] - g.first[r];
  std::vector<part_t> all(g.boxes.size());
  MPI_Allgatherv(local.data(), static_cast<int>(local.size()), MPI_INT32_T, all.data(), counts.data(), g.first.data(),
                 MPI_INT32_T, comm.get());
  return all;
}

}  // namespace hpart::patches
