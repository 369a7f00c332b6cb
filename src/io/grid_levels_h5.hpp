#pragma once
// What a grid partition file holds beyond its cells and boxes, so that it reads back as exactly
// the partition that was written, whatever made it: the locator in the text form PartitionMap
// saves (/locator, docs/assign.md: sfc splitters, the blocks' cut tree, tensor starts, and the
// hierarchies' node levels with each node's parts), and a hierarchical partition's levels
// (/node_of_part, /owner_of_part, /node_boxes), which the internode halo needs.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "hpart/hierarchy.hpp"
#include "io/h5_file.hpp"

namespace hpart::detail {

struct GridLocator;

// A dataset the same on every rank (the per-part tables): rank 0 writes it, the others take
// part in the collective transfer with an empty block.
template <class T>
void write_replicated(const H5File& f, const std::string& name, hid_t file_type, const std::vector<hsize_t>& dims,
                      const std::vector<T>& values) {
  const H5Dataset ds = f.create(name, file_type, dims);
  std::vector<hsize_t> count = dims;
  if (f.comm().rank() != 0) std::fill(count.begin(), count.end(), 0);
  f.write(ds, std::vector<hsize_t>(dims.size(), 0), count, native_type<T>(), values.data());
}

// Collective: /locator, the saved text of p.locator (uint8, one byte a character), from rank 0.
void write_grid_locator_h5(const H5File& f, const GridPartition& p);

// Collective: /node_of_part and /owner_of_part (int32, K; the attribute owner_ranks: the
// communicator's size) and /node_boxes (int64, nodes x 2 dim: lo_x lo_y [lo_z] hi_x hi_y [hi_z],
// an empty box with hi < lo), from rank 0.
void write_grid_levels_h5(const H5File& f, int dim, const HierGridPartition& p);
// The local checks of the levels write_grid_levels_h5 writes (empty: fine).
std::string check_grid_levels(const HierGridPartition& p);

// Collective: the file's /locator for `grid` and K parts. found false when the file has none
// (written before hpart saved it); locator null for a one-part partition. A text that does not
// parse, or describes another grid or part count, is an io Error, the same on every rank.
struct SavedLocator {
  bool found = false;
  std::shared_ptr<const GridLocator> locator;
};
SavedLocator read_grid_locator_h5(const H5File& f, const Grid& grid, int K);

// Collective: the levels into `out` (node_of_part, node_boxes, and owner_of_part when the reading
// communicator has owner_ranks ranks, else none) when the file has /node_of_part; false (and
// `out` untouched) when it has not. Shapes and node ids are checked: an
// io Error naming the dataset, the same on every rank.
bool read_grid_levels_h5(const H5File& f, int dim, int K, HierGridPartition& out);

}  // namespace hpart::detail
