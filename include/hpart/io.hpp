#pragma once
// Parallel file I/O for point sets and partitions. Every function is collective over `comm`,
// reads or writes with MPI-IO (each rank its own byte range), and throws the same hpart::Error
// on every rank when a file cannot be opened or a line is malformed (the message names it).
#include <span>
#include <string>
#include <vector>

#include "hpart/comm.hpp"
#include "hpart/grid.hpp"
#include "hpart/point_set.hpp"
#include "hpart/types.hpp"

namespace hpart {

// A point set read from a file: this rank's consecutive block of the file's points.
struct PointFile {
  int dim = 3;
  bool weighted = false;
  std::vector<double> coords;   // n * dim, interleaved
  std::vector<double> weights;  // n values when weighted, else empty (unit weights)
  std::vector<gid_t> ids;       // position of each point in the file (0-based, over all ranks)
  gid_t global_count = 0;       // points in the whole file

  [[nodiscard]] std::size_t size() const { return ids.size(); }
  // A view for hpart::partition; valid while this PointFile lives.
  [[nodiscard]] PointSet view() const {
    return PointSet{.coords = coords, .dim = dim, .weights = weights, .ncon = 1, .ids = ids};
  }
};

// Reads a text point file, one point per line: `x y [z] [w]`, numbers separated by blanks or
// commas; blank lines and lines starting with '#' or '%' are skipped (and still counted for line
// numbers in errors). Each rank parses the lines that start in its 1/R-th of the file's bytes,
// so rank r gets the points after those of ranks < r, in file order.
//   dim = 0: taken from the column count: 2 -> x y, 3 -> x y z, 4 -> x y z w.
//   dim = 2: x y or x y w;  dim = 3: x y z or x y z w.
// Every data line must have the same number of values, all finite, and weights must be >= 0.
PointFile read_points_text(const Comm& comm, const std::string& path, int dim = 0);

// Writes one part id per line, the ranks' `parts` concatenated in rank order (METIS .part
// convention): with the points of read_points_text, line i holds the part of the file's point i.
void write_parts_text(const Comm& comm, const std::string& path, std::span<const part_t> parts);

// Writes the ranks' points (rank order) in the format read_points_text reads: `x y [z] [w]`,
// numbers in shortest round-trip form, a weight column when `points.weights` is given (ncon 1).
void write_points_text(const Comm& comm, const std::string& path, const PointSet& points);

// Draws the points coloured by part into a PNG on rank 0 (white background; parts get
// well-separated hues). 3D points are projected onto the two axes of largest extent. The
// image's longer side has `max_side` pixels; the other follows the bounding box's aspect.
// Memory: one max_side^2 pixel buffer per rank, reduced onto rank 0, never the points.
void write_partition_png(const Comm& comm, const std::string& path, const PointSet& points,
                         std::span<const part_t> parts, int num_parts, int max_side = 1024);

// Draws a grid partition into a PNG on rank 0: one pixel per cell (grids longer than max_side
// are sampled, short ones magnified), coloured by part, with part edges darkened; 3D grids show
// their middle z slice. Rank 0 asks p's locator for the part of each pixel's cell, so no rank
// ever holds the cells (memory: the picture).
void write_grid_partition_png(const Comm& comm, const std::string& path, const Grid& grid, const GridPartition& p,
                              int max_side = 1024);

}  // namespace hpart
