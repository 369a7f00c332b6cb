// Reading a grid partition back (write_grid_partition_h5's file): the parts of this rank's cells
// from /parts, the boxes from /boxes, the metrics recomputed from the grid's cost, and a locator,
// so that the result works wherever partition_grid's does (grid_neighbours, pictures, map_of,
// repartition_grid). The locator is the one the file saved (/locator) or, for box-shaped parts
// that guillotine cuts separate, a cut tree (repartition_grid moves the planes of trees only);
// files without /locator get their curve splitters inferred from the layout (sfc). A
// hierarchy's levels come from /node_of_part and /node_boxes. Whatever locator it is, it is
// checked against every local cell before it is returned.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/memory_budget.hpp"
#include "grid/grid_input.hpp"
#include "grid/grid_locator.hpp"
#include "hpart/hdf5.hpp"
#include "io/grid_levels_h5.hpp"
#include "io/h5_file.hpp"
#include "points/curve_objects.hpp"

namespace hpart {
namespace {

using detail::H5Dataset;
using detail::H5File;

// The node of parts [first, first + count) in a cut tree over `boxes`: a plane along some axis
// with parts [first, first + k) wholly below it and the rest wholly above (the k nearest the
// middle, as bisection splits), recursively. -1 when no such plane exists.
int build_tree(const std::vector<Box>& boxes, int dim, part_t first, int count, std::vector<grid::CutNode>& nodes) {
  const auto node = static_cast<int>(nodes.size());
  nodes.push_back(grid::CutNode{.first = first});
  if (count == 1) return node;
  int best_k = -1, best_d = 0;
  std::int64_t best_cut = 0;
  std::vector<std::int64_t> below(static_cast<std::size_t>(count));
  for (int d = 0; d < dim; ++d) {
    const auto a = static_cast<std::size_t>(d);
    std::int64_t hi = std::numeric_limits<std::int64_t>::min();
    for (int k = 0; k < count; ++k) below[static_cast<std::size_t>(k)] = hi = std::max(hi, boxes[static_cast<std::size_t>(first + k)].hi[a]);
    std::int64_t lo = std::numeric_limits<std::int64_t>::max();
    for (int k = count - 1; k >= 1; --k) {
      lo = std::min(lo, boxes[static_cast<std::size_t>(first + k)].lo[a]);
      if (below[static_cast<std::size_t>(k - 1)] + 1 != lo) continue;
      if (best_k < 0 || std::abs(2 * k - count) < std::abs(2 * best_k - count)) best_k = k, best_d = d, best_cut = lo;
    }
  }
  if (best_k < 0) return -1;
  const int lower = build_tree(boxes, dim, first, best_k, nodes);
  const int upper = lower < 0 ? -1 : build_tree(boxes, dim, first + best_k, count - best_k, nodes);
  if (upper < 0) return -1;
  nodes[static_cast<std::size_t>(node)] = grid::CutNode{best_d, best_cut, lower, upper, first};
  return node;
}

// Splitters of curve ranges: part q starts at the smallest key of its cells (an empty part at
// the next part's start, so that no cell counts to it).
std::shared_ptr<grid::CurveLocator> curve_locator(const Comm& comm, const Grid& grid, const grid::BoxCells& cells,
                                                  std::span<const part_t> parts, int K, Curve curve) {
  auto loc = std::make_shared<grid::CurveLocator>();
  loc->keys = grid::CellKeys::for_grid(grid, curve);
  std::vector<unsigned long> start(static_cast<std::size_t>(K), std::numeric_limits<unsigned long>::max());
  for (std::size_t i = 0; i < parts.size(); ++i) {
    auto& s = start[static_cast<std::size_t>(parts[i])];
    s = std::min<unsigned long>(s, loc->keys.key(cells.cell(i)));
  }
  comm.min(std::span<unsigned long>(start));
  for (int q = K - 2; q >= 1; --q)
    start[static_cast<std::size_t>(q)] = std::min(start[static_cast<std::size_t>(q)], start[static_cast<std::size_t>(q + 1)]);
  for (int q = 1; q < K; ++q)
    loc->inner.push_back(start[static_cast<std::size_t>(q)] == std::numeric_limits<unsigned long>::max()
                             ? sfc::kNoSplitter
                             : sfc::make_order(start[static_cast<std::size_t>(q)], 0));
  return loc;
}

// Whether `loc` gives every local cell its part, on every rank (null: every cell in part 0, as
// GridPartition::part_of answers without a locator).
bool locates_all(const Comm& comm, const detail::GridLocator* loc, const grid::BoxCells& cells, std::span<const part_t> parts) {
  int ok = 1;
  for (std::size_t i = 0; i < parts.size() && ok; ++i) ok = (loc ? loc->part_of(cells.cell(i)) : 0) == parts[i] ? 1 : 0;
  return comm.min(ok) == 1;
}

// The locator of `out` (its parts and boxes read): see the file's header for the order.
void choose_locator(const Comm& comm, const detail::H5File& f, const Grid& grid, const grid::BoxCells& cells,
                    GridPartition& out) {
  const int K = out.num_parts;
  const detail::SavedLocator saved = detail::read_grid_locator_h5(f, grid, K);
  const bool saved_tree = dynamic_cast<const grid::TreeLocator*>(saved.locator.get()) != nullptr;
  if (out.box_shaped && !saved_tree) {
    auto tree = std::make_shared<grid::TreeLocator>();
    if (build_tree(out.boxes, grid.dim, 0, K, tree->nodes) >= 0 && locates_all(comm, tree.get(), cells, out.parts)) {
      out.locator = std::move(tree);
      return;
    }
  }
  if (saved.found) {
    comm.agree(locates_all(comm, saved.locator.get(), cells, out.parts) ? ErrorCode::ok : ErrorCode::io,
               f.where("/locator") + ": the saved locator does not give every cell its part in /parts (was the file "
                                     "changed after hpart wrote it?)");
    out.locator = saved.locator;
    return;
  }
  for (const Curve curve : {Curve::hilbert, Curve::morton}) {
    auto loc = curve_locator(comm, grid, cells, out.parts, K, curve);
    if (locates_all(comm, loc.get(), cells, out.parts)) {
      out.locator = std::move(loc);
      return;
    }
  }
  comm.agree(ErrorCode::unsupported,
             f.path() + ": it has no /locator, and its parts are neither boxes separated by guillotine cuts (blocks, "
                        "tensor, uniform) nor ranges of a Hilbert or Morton curve (sfc): write it again with this "
                        "hpart's write_grid_partition_h5 (hpart grid --out), which saves the locator");
}

}  // namespace

HierGridPartition read_hier_grid_partition_h5(const Comm& comm, const std::string& path, const Grid& grid,
                                              int num_parts) {
  const H5File f(comm, path, H5File::Mode::read);
  const H5Dataset ds = *f.open("/parts", true);
  const H5Dataset bx = *f.open("/boxes", true);
  const auto agree = [&](bool ok, const std::string& what) {
    comm.agree(ok ? ErrorCode::ok : ErrorCode::io, ok ? std::string() : f.where(what));
  };
  // Shapes first (the same metadata on every rank): /parts is the grid, C order; /boxes K x 2 dim.
  bool same = ds.rank() == grid.dim && ds.type_class == H5T_INTEGER;
  std::string extent;
  for (int d = 0; d < grid.dim; ++d) {
    const std::int64_t n = grid.extent[static_cast<std::size_t>(grid.dim - 1 - d)];
    extent += (d > 0 ? " x " : "") + std::to_string(n);
    same = same && d < ds.rank() && ds.dims[static_cast<std::size_t>(d)] == static_cast<hsize_t>(n);
  }
  agree(same, "/parts: shape " + ds.shape() + (ds.type_class == H5T_INTEGER ? "" : " (not integers)") +
                  "; expected the grid's " + extent + " integer part ids");
  agree(bx.rank() == 2 && bx.dims[1] == static_cast<hsize_t>(2 * grid.dim) && bx.type_class == H5T_INTEGER &&
            bx.dims[0] >= 1 && bx.dims[0] <= (hsize_t{1} << 30),
        "/boxes: shape " + bx.shape() + "; expected K x " + std::to_string(2 * grid.dim) + " integers (one box per part)");
  const int K = static_cast<int>(bx.dims[0]);
  agree(num_parts <= 0 || num_parts == K, "/boxes: the file holds " + std::to_string(K) + " parts, but " +
                                              std::to_string(num_parts) + " were asked for");
  const Box local = grid.local.dim == 0 ? Box::none(grid.dim) : grid.local;
  const grid::BoxCells cells(local);
  const std::string memory = detail::check_memory(
      12.0 * static_cast<double>(cells.size()) + 64.0 * K, "reading the grid partition '" + path + "'",
      "each rank holds the parts of its own cells: use more ranks");
  comm.agree(memory.empty() ? ErrorCode::ok : ErrorCode::invalid_input, memory);

  std::vector<std::int64_t> corners(static_cast<std::size_t>(K) * 2 * static_cast<std::size_t>(grid.dim));
  f.read(bx, {0, 0}, bx.dims, H5T_NATIVE_INT64, corners.data());
  std::vector<std::int64_t> ids(cells.size());
  std::vector<hsize_t> start(static_cast<std::size_t>(grid.dim), 0), count(static_cast<std::size_t>(grid.dim), 0);
  if (!local.empty())
    for (int d = 0; d < grid.dim; ++d) {
      start[static_cast<std::size_t>(grid.dim - 1 - d)] = static_cast<hsize_t>(local.lo[static_cast<std::size_t>(d)]);
      count[static_cast<std::size_t>(grid.dim - 1 - d)] = static_cast<hsize_t>(local.size(d));
    }
  f.read(ds, start, count, ds.exact_integer_type(), ids.data());
  std::string bad;
  std::vector<part_t> parts(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || ids[i] >= K) {
      const Cell c = cells.cell(i);
      bad = f.where("/parts") + " cell (x " + std::to_string(c[0]) + ", y " + std::to_string(c[1]) +
            (grid.dim == 3 ? ", z " + std::to_string(c[2]) : std::string()) + "): part id " + ds.exact_integer_text(ids[i]) +
            " is not in [0, " + std::to_string(K) + ") (K = the rows of /boxes)";
      break;
    }
    parts[i] = static_cast<part_t>(ids[i]);
  }
  comm.agree(bad.empty() ? ErrorCode::ok : ErrorCode::io, bad);
  std::vector<std::int64_t>().swap(ids);

  HierGridPartition out;
  static_cast<Partition&>(out) = evaluate_partition(comm, std::move(parts), K, grid.cost, 1);
  out.boxes.resize(static_cast<std::size_t>(K));
  bool box_shaped = true;
  const auto D = static_cast<std::size_t>(grid.dim);
  for (std::size_t q = 0; q < out.boxes.size(); ++q) {
    Box& b = out.boxes[q];
    b.dim = grid.dim;
    for (std::size_t a = 0; a < D; ++a) b.lo[a] = corners[q * 2 * D + a], b.hi[a] = corners[q * 2 * D + D + a];
    // The file's boxes are the parts' boxes, or their cells' bounding boxes (sfc): a part with as
    // many cells as its box is that box.
    box_shaped = box_shaped && (b.empty() ? out.part_sizes[q] == 0 : b.volume() == out.part_sizes[q]);
  }
  out.box_shaped = box_shaped;
  choose_locator(comm, f, grid, cells, out);
  detail::read_grid_levels_h5(f, grid.dim, K, out);
  return out;
}

GridPartition read_grid_partition_h5(const Comm& comm, const std::string& path, const Grid& grid, int num_parts) {
  HierGridPartition h = read_hier_grid_partition_h5(comm, path, grid, num_parts);
  return std::move(static_cast<GridPartition&>(h));
}

}  // namespace hpart
