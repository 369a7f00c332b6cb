#pragma once
// File input and output for point sets and partitions. All functions are collective and
// throw hpart::Error on every rank when any rank fails (a malformed line names its line).
#include <span>
#include <string>
#include <vector>

#include "hpart/comm.hpp"
#include "hpart/point_set.hpp"
#include "hpart/types.hpp"

namespace hpart::io {

// Points read from a text file: this rank's share, in file order.
struct TextPoints {
  int dim = 3;
  std::vector<double> coords;   // n * dim
  std::vector<double> weights;  // n values when the file has a weight column, else empty
  long long first_index = 0;    // global index (0-based, file order) of this rank's first point

  [[nodiscard]] PointSet view() const {
    return PointSet{.coords = coords, .dim = dim, .weights = weights, .ncon = 1, .ids = {}};
  }
};

// Reads `x y [z] [w]` per line: dim columns of coordinates, optionally one more with a
// non-negative weight; every data line must have the same number of columns. Blank lines and
// lines starting with '#' are skipped. Each rank parses its own byte range of the file.
TextPoints read_points_text(const Comm& comm, const std::string& path, int dim);

// Writes one part id per line, ranks in order, each rank's objects in local order; with the
// partition of read_points_text's points this is one line per point in file order (METIS .part
// convention).
void write_parts_text(const Comm& comm, const std::string& path, std::span<const part_t> parts);

// Draws the points (x, y; 3D points projected along z) coloured by part into a PNG of
// width x height pixels scaled to the global bounding box. Pixels are reduced to rank 0: no
// rank ever holds more than the image.
void write_partition_png(const Comm& comm, const std::string& path, const PointSet& points,
                         std::span<const part_t> parts, int num_parts, int width = 1024,
                         int height = 1024);

}  // namespace hpart::io
