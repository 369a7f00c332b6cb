// What `hpart evaluate` and `hpart repartition` share: the part file of an input, and the
// options that do not apply to its kind.
#include "file_workflows.hpp"

#include <algorithm>

#include "hpart/hdf5.hpp"
#include "hpart/io.hpp"

namespace hpart_cli {
namespace {

const char* objects_of(const Input& in) { return in.is_graph() ? "vertices" : "points"; }

}  // namespace

InputParts read_input_parts(const hpart::Comm& comm, const Input& in, const std::string& path, int parts) {
  InputParts out;
  const long long first = in.first_index();
  const std::size_t count = in.local_count();
  if (is_hdf5_path(path)) {
    // read_parts_h5 gives rank r rows [N r / R, N (r + 1) / R): the graph readers' and the HDF5
    // point reader's blocks, but not the byte-range blocks of a text point file.
    const long long n = in.global_count(), R = comm.size(), r = comm.rank();
    const bool same_blocks = first == n / R * r + n % R * r / R && static_cast<long long>(count) ==
                                                                       n / R * (r + 1) + n % R * (r + 1) / R - first;
    if (comm.min(same_blocks ? 1 : 0) == 0)
      throw UsageError("an HDF5 part file ('" + path + "') goes with an HDF5 point file or a graph; for the text point "
                       "file '" + in.path + "' give the parts as text (one id per line)");
    out.parts = hpart::read_parts_h5(comm, path);
    const long long total = comm.sum(static_cast<long long>(out.parts.size()));
    if (total != n)
      comm.agree(hpart::ErrorCode::io, path + " has " + std::to_string(total) + " part ids but the input has " +
                                           std::to_string(n) + " " + objects_of(in));
    std::string bad;
    for (std::size_t i = 0; i < out.parts.size() && bad.empty(); ++i)
      if (out.parts[i] < 0 || (parts > 0 && out.parts[i] >= parts))
        bad = path + ": /parts row " + std::to_string(first + static_cast<long long>(i)) + ": part id " +
              std::to_string(out.parts[i]) + (out.parts[i] < 0 ? " is negative" : " is not below K = " + std::to_string(parts));
    comm.agree(bad.empty() ? hpart::ErrorCode::ok : hpart::ErrorCode::io, bad);
  } else {
    out.parts = hpart::read_parts_text(comm, path, first, count, in.global_count(), parts, objects_of(in));
  }
  int largest = -1;
  for (const hpart::part_t p : out.parts) largest = std::max(largest, static_cast<int>(p));
  out.num_parts = parts > 0 ? parts : comm.max(largest) + 1;
  return out;
}

hpart::GridField read_grid_field(const hpart::Comm& comm, const std::string& path, const std::string& dataset, bool given,
                                 std::string& cost) {
  cost = "cost " + dataset;
  try {
    return hpart::read_grid_cost_h5(comm, path, dataset);
  } catch (const hpart::Error& e) {
    // Every rank throws the same Error, so every rank takes the same branch.
    if (given || std::string(e.what()).find(": no such dataset") == std::string::npos) throw;
  }
  hpart::GridField shape = hpart::read_grid_cost_h5(comm, path, "/parts");
  shape.cost.clear();
  shape.grid.cost = {};
  cost = "unit cost (no " + dataset + ")";
  return shape;
}

}  // namespace hpart_cli
