#pragma once
// Parallel file I/O for point sets and partitions. Every function is collective over `comm`,
// reads or writes with MPI-IO (each rank its own byte range), and throws the same hpart::Error
// on every rank when a file cannot be opened or a line is malformed (the message names it).
// Arguments every rank must pass alike (the path, dim, num_parts, max_side, whether weights are
// given) are compared before any file is opened, and the memory a call needs (from the file's
// size, or the picture's) is checked before it is allocated (budget: HPART_MEMORY_LIMIT, else
// the node's available memory shared by its ranks), so neither ends in a hang or a bad_alloc.
#include <span>
#include <string>
#include <vector>

#include "hpart/comm.hpp"
#include "hpart/graph_arrays.hpp"
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
  // Text files: the values per line (2 to 4), and whether a header line named them. Without a
  // header a 3-column file is 'x y z' or 'x y w' only by the dim argument (or the default,
  // 3D): a caller that cannot tell which the user meant can refuse it (columns == 3 &&
  // !columns_declared). HDF5 files: their shape (columns = dim, plus 1 when weighted), declared.
  int columns = 0;
  bool columns_declared = false;

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
// A header line may declare the columns: a line before the first point (a comment or not) whose
// words are the names `x y [z] [w]` in this order ("# x y w", "x,y,z", "% x y z w"). It decides
// dim and weights; a dim argument that contradicts it, or point lines with another column
// count, are errors.
// Without a header:
//   dim = 0: taken from the column count: 2 -> x y, 3 -> x y z, 4 -> x y z w.
//   dim = 2: x y or x y w;  dim = 3: x y z or x y z w.
// Every data line must have the same number of values, all finite, and weights must be >= 0.
// Values below the smallest double (1e-400) read as 0, the nearest double, as strtod reads them;
// denormals are kept exactly; values beyond +-1.8e308 are an error naming the line. Ranks whose
// byte range holds no point line (files with fewer points than ranks) get no points.
PointFile read_points_text(const Comm& comm, const std::string& path, int dim = 0);

// Reads a point file (read_points_text's format) holding one point per vertex of a graph, in
// vertex order (the .xyz files that come with METIS/Chaco meshes), and returns the points of
// this rank's vertices [vtxdist[r], vtxdist[r + 1]) in that order (ids = vertex ids): the
// coordinates for geometric graph methods and pictures. A file whose point count is not the
// graph's vertex count (vtxdist's last value) is an error naming both; a weight column is read
// and kept.
PointFile read_vertex_coords(const Comm& comm, const std::string& path, std::span<const gid_t> vtxdist, int dim = 0);

// Writes one part id per line, the ranks' `parts` concatenated in rank order (METIS .part
// convention): with the points of read_points_text, line i holds the part of the file's point i.
// Part ids must be >= 0; ranks may hold none.
void write_parts_text(const Comm& comm, const std::string& path, std::span<const part_t> parts);

// Reads a part file (the METIS .part format write_parts_text writes: one part id per line, in
// object order; blank lines and lines starting with '#' or '%' are skipped and still counted
// for line numbers) and returns the ids of entries [first, first + count) on this rank. Each rank
// parses the lines of its 1/R-th of the file's bytes and the ids then move to the ranks that
// asked for them (one all-to-all), so the ranks may ask for any blocks: those of the object
// readers (PointFile::ids, GraphFile::vtxdist) are the usual ones. Errors, the same on every
// rank, naming the file and, for a bad line, its number: a line that is not one integer in
// [0, 2^31) (in [0, num_parts) when num_parts > 0), a count of ids other than expected_total
// ("parts.txt has 15605 part ids but the input has 15606 vertices": `objects` names them), a
// block outside [0, expected_total), and memory beyond the budget.
std::vector<part_t> read_parts_text(const Comm& comm, const std::string& path, long long first, std::size_t count,
                                    long long expected_total, int num_parts = 0,
                                    const std::string& objects = "objects");

// Writes the ranks' points (rank order) in the format read_points_text reads: a header line
// naming the columns ("# x y w"), then `x y [z] [w]` per point, numbers in shortest round-trip
// form, a weight column when `points.weights` is given (ncon 1).
// Every rank holding points must pass the same dim and give weights alike (all or none).
void write_points_text(const Comm& comm, const std::string& path, const PointSet& points);

// --- Pictures (PNG, drawn with cairo; the build feature PNG) -----------------------------------
// Every picture is drawn the same way: each rank rasterises its own objects into a pixel buffer
// of (layer, depth, part) keys, a MAX reduction merges the buffers onto rank 0 (so the picture is
// the same bytes at any rank count, and no rank ever holds all the objects), and rank 0 colours
// and writes it. Parts get colours from a palette of well-separated colours, chosen by a greedy
// colouring (DSatur) of the parts that touch in the picture (graphs: that share a cut edge), so
// neighbouring parts never share a colour; non-adjacent parts may. 3D objects are shown as
// sections: the thinnest axis is cut into up to 4 slabs, and a montage of panels, each labelled
// with its position ("z = 0.375"), shows the section through each slab's middle.
// Without the PNG feature every picture writer throws ErrorCode::unsupported ("hpart was built
// without PNG") on every rank, after its arguments are checked.
struct PictureOptions {
  int max_side = 1024;                // pixels on the longer side of the drawing area, in [16, 8192]
  std::string title;                  // a line above the drawing ("" = none)
  std::vector<std::string> legend;    // lines under the title, e.g. "16 parts  imbalance 0.029  cut 1234"
  std::span<const int> node_of_part;  // grids: node of each part (num_parts values, >= 0), drawn as
                                      // thick dark lines between nodes; empty: part lines only
};
// A header (title, legend lines, and a swatch with the part number of each colour when K <= 32)
// is drawn above the drawing when the title or a legend line is given; without them the picture
// is the drawing alone (max_side on its longer side). Every field must be the same on every rank
// (compared, like the other arguments, before anything is drawn). The header is at least 480
// pixels wide (a narrow drawing is centred under it).

// Draws the points coloured by part into a PNG on rank 0 (white background). 2D: the points as
// dots (larger when they are sparse); 3D: sections, see above. The drawing's longer side has
// `max_side` pixels; the other follows the bounding box's aspect. Memory: one max_side^2 buffer
// of 8-byte keys per rank, reduced onto rank 0, never the points. Every part id must be in
// [0, num_parts); points may span any finite range (up to +-1.8e308).
void write_partition_png(const Comm& comm, const std::string& path, const PointSet& points,
                         std::span<const part_t> parts, int num_parts, const PictureOptions& options);
void write_partition_png(const Comm& comm, const std::string& path, const PointSet& points,
                         std::span<const part_t> parts, int num_parts, int max_side = 1024);

// Draws a grid partition into a PNG on rank 0, filling the drawing (grids longer than max_side
// are sampled, shorter ones magnified), coloured by part, with thin dark lines between parts and,
// given options.node_of_part (one node per part: num_parts values), thick black lines between
// parts on different nodes (hierarchies: HierGridPartition::node_of_part). 3D grids: sections
// through up to 4 cell layers of the thinnest axis, each panel labelled with its layer. Rank 0
// asks p's locator for the part of each pixel's cell, so no rank ever holds the cells (memory:
// the picture).
void write_grid_partition_png(const Comm& comm, const std::string& path, const Grid& grid, const GridPartition& p,
                              const PictureOptions& options);
void write_grid_partition_png(const Comm& comm, const std::string& path, const Grid& grid, const GridPartition& p,
                              int max_side = 1024);

// Draws a partitioned graph into a PNG on rank 0 at its vertices' coordinates: edges inside a
// part in the part's colour, cut edges thin grey, vertices as dots in a darker shade of their
// part's colour (larger when the graph is sparse on the picture). `coords` holds one point per
// local vertex (coords.size() == graph.local_vertices(), dim 2 or 3; a Graph with coordinates
// passes PointSet{.coords = g.coords, .dim = g.dim}). The coordinates and parts of off-rank
// neighbours come from one ghost exchange, and an edge between ranks is drawn by both ends
// identically, so the picture is the same at any rank count. 3D: sections as for points (an
// edge is drawn in a slab when both its ends lie in it). Collective; validates the graph
// (validate_graph) and the parts (one per local vertex, in [0, num_parts)); the colouring
// gathers each rank's distinct pairs of parts joined by a cut edge on rank 0.
void write_graph_partition_png(const Comm& comm, const std::string& path, const Graph& graph, const PointSet& coords,
                               std::span<const part_t> parts, int num_parts, const PictureOptions& options = {});

}  // namespace hpart
