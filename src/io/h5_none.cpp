// hpart built without parallel HDF5 (HPART_WITH_HDF5=OFF, or none found): the HDF5 readers and
// writers of hpart/hdf5.hpp throw the same hpart::Error on every rank. Each throws at its entry,
// before any communication, and whether HDF5 is there is a compile-time fact, so no rank is left
// waiting. Compiled instead of read_h5.cpp, write_h5.cpp and h5_file.cpp (src/io/CMakeLists.txt).
#include <string>

#include "core/features.hpp"
#include "hpart/error.hpp"
#include "hpart/hdf5.hpp"

namespace hpart {
namespace {

[[noreturn]] void no_hdf5(const char* call) {
  throw Error(ErrorCode::unsupported, detail::built_without("HDF5", call));
}

}  // namespace

PointFile read_points_h5(const Comm&, const std::string&) { no_hdf5("read_points_h5"); }

std::vector<part_t> read_parts_h5(const Comm&, const std::string&, const std::string&) { no_hdf5("read_parts_h5"); }

GridField read_grid_cost_h5(const Comm&, const std::string&, const std::string&) { no_hdf5("read_grid_cost_h5"); }

void write_points_h5(const Comm&, const std::string&, const PointSet&) { no_hdf5("write_points_h5"); }

void write_partition_h5(const Comm&, const std::string&, const Partition&, std::span<const gid_t>, const PointSet*) {
  no_hdf5("write_partition_h5");
}

void write_grid_partition_h5(const Comm&, const std::string&, const Grid&, const GridPartition&) {
  no_hdf5("write_grid_partition_h5");
}

void write_grid_partition_h5(const Comm&, const std::string&, const Grid&, const HierGridPartition&) {
  no_hdf5("write_grid_partition_h5");
}

GridPartition read_grid_partition_h5(const Comm&, const std::string&, const Grid&, int) {
  no_hdf5("read_grid_partition_h5");
}

HierGridPartition read_hier_grid_partition_h5(const Comm&, const std::string&, const Grid&, int) {
  no_hdf5("read_hier_grid_partition_h5");
}

}  // namespace hpart
