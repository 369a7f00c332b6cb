// The partition pictures (hpart/io.hpp: write_partition_png, write_grid_partition_png,
// write_graph_partition_png with PictureOptions): the same bytes whichever ranks hold the
// objects (each picture is also drawn by rank 0 alone, holding them all, and compared), adjacent
// parts in different colours, titles and legends, node lines, graphs with cut edges, and bad
// input as the same error on every rank.
#include <gtest/gtest.h>
#include <mpi.h>
#include <png.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "hpart/graph.hpp"
#include "hpart/grid.hpp"
#include "hpart/io.hpp"
#include "test_graphs.hpp"
#include "test_grids.hpp"
#include "test_points.hpp"
#include "test_world.hpp"

#ifndef HPART_TEST_DIR
#error "HPART_TEST_DIR must name a scratch directory"
#endif

namespace {

using Ctx = hpart::testing::World;

std::string scratch(const std::string& name, const Ctx& c) {
  int world = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  return std::string(HPART_TEST_DIR) + "/pictures_" + name + "_np" + std::to_string(world) + "_s" + std::to_string(c.size) + ".png";
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Image {
  int width = 0, height = 0;
  std::vector<png_byte> rgb;
  [[nodiscard]] std::uint32_t at(int x, int y) const {
    const std::size_t k = 3 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x));
    return (std::uint32_t{rgb[k]} << 16) | (std::uint32_t{rgb[k + 1]} << 8) | rgb[k + 2];
  }
  [[nodiscard]] long long count(std::uint32_t colour) const {
    long long n = 0;
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) n += at(x, y) == colour ? 1 : 0;
    return n;
  }
};

Image decode(const std::string& path) {
  Image im;
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) return im;
  image.format = PNG_FORMAT_RGB;
  im.rgb.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, im.rgb.data(), 0, nullptr)) return {};
  im.width = static_cast<int>(image.width);
  im.height = static_cast<int>(image.height);
  return im;
}

// `draw(comm, path, alone)` on the test's communicator (each rank its share), then on rank 0
// alone (alone = true: it must hold everything); the two files must be the same bytes.
void expect_same_alone(const Ctx& c, const std::string& name,
                       const std::function<void(const hpart::Comm&, const std::string&, bool)>& draw) {
  const std::string shared = scratch(name, c), alone = scratch(name + "_alone", c);
  draw(hpart::Comm(c.comm), shared, false);
  MPI_Comm self;
  MPI_Comm_split(c.comm, c.rank == 0 ? 0 : MPI_UNDEFINED, 0, &self);
  if (c.rank == 0) {
    draw(hpart::Comm(self), alone, true);
    MPI_Comm_free(&self);
    const std::string a = file_bytes(shared), b = file_bytes(alone);
    EXPECT_GT(a.size(), 100u) << shared;
    EXPECT_TRUE(a == b) << shared << " and " << alone << " differ (" << a.size() << " and " << b.size() << " bytes)";
  }
  MPI_Barrier(c.comm);
}

// Parts of points in the unit square/cube: a blocks x blocks (x blocks) array of boxes.
std::vector<hpart::part_t> box_parts(const std::vector<double>& coords, int dim, int blocks) {
  std::vector<hpart::part_t> parts;
  for (std::size_t i = 0; i < coords.size(); i += static_cast<std::size_t>(dim)) {
    int p = 0;
    for (int a = dim - 1; a >= 0; --a)
      p = p * blocks + std::min(blocks - 1, static_cast<int>(coords[i + static_cast<std::size_t>(a)] * blocks));
    parts.push_back(p);
  }
  return parts;
}

hpart::PictureOptions titled(int max_side) {
  hpart::PictureOptions o;
  o.max_side = max_side;
  o.title = "test picture";
  o.legend = {"first legend line", "second legend line"};
  return o;
}

TEST(Pictures, PointsAreTheSameBytesAtAnyRankCount) {
  const Ctx c;
  for (const int dim : {2, 3}) {
    const long long n = dim == 2 ? 20000 : 60000;
    const int blocks = dim == 2 ? 4 : 3, k = dim == 2 ? 16 : 27;
    expect_same_alone(c, "points" + std::to_string(dim) + "d", [&](const hpart::Comm& comm, const std::string& path, bool alone) {
      const auto [b, e] = alone ? std::pair<long long, long long>{0, n} : hpart::testing::uneven_block(n, c.rank, c.size);
      const auto pts = hpart::testing::make_points(hpart::testing::Shape::uniform, dim, b, e, false);
      const auto parts = box_parts(pts.coords, dim, blocks);
      hpart::write_partition_png(comm, path, hpart::PointSet{pts.coords, dim, {}, 1, pts.ids}, parts, k, titled(300));
    });
  }
  if (c.rank != 0) return;
  // 3D: sections, a montage of 4 labelled panels, each showing 9 of the 27 boxes.
  const Image im = decode(scratch("points3d", c));
  ASSERT_GT(im.width, 0);
  std::set<std::uint32_t> colours;
  for (int y = 0; y < im.height; ++y)
    for (int x = 0; x < im.width; ++x) colours.insert(im.at(x, y));
  EXPECT_GE(colours.size(), 12u) << "the palette, the part lines, the text";
}

TEST(Pictures, AdjacentPartsGetDifferentColours) {
  const Ctx c;
  const hpart::Comm comm(c.comm);
  // 2D points in 4 x 4 boxes, no header: the picture is the drawing, pixel (x, y) of the square.
  const long long n = 40000;
  const auto [b, e] = hpart::testing::uneven_block(n, c.rank, c.size);
  const auto pts = hpart::testing::make_points(hpart::testing::Shape::uniform, 2, b, e, false);
  const auto parts = box_parts(pts.coords, 2, 4);
  const std::string path = scratch("adjacent", c);
  hpart::write_partition_png(comm, path, hpart::PointSet{pts.coords, 2, {}, 1, pts.ids}, parts, 16, 200);
  if (c.rank != 0) return;
  const Image im = decode(path);
  ASSERT_EQ(im.width, 200);
  // The colour most seen in each box's middle (dots may leave a white pixel).
  auto colour_of = [&](int bx, int by) {
    std::vector<std::uint32_t> seen;
    const int cx = static_cast<int>((bx + 0.5) * 50), cy = 199 - static_cast<int>((by + 0.5) * 50);
    for (int y = cy - 5; y <= cy + 5; ++y)
      for (int x = cx - 5; x <= cx + 5; ++x)
        if (im.at(x, y) != 0xffffff) seen.push_back(im.at(x, y));
    std::sort(seen.begin(), seen.end());
    std::uint32_t best = 0;
    std::size_t run = 0;
    for (std::size_t i = 0; i < seen.size();) {
      std::size_t j = i;
      while (j < seen.size() && seen[j] == seen[i]) ++j;
      if (j - i > run) run = j - i, best = seen[i];
      i = j;
    }
    return best;
  };
  for (int by = 0; by < 4; ++by)
    for (int bx = 0; bx < 4; ++bx) {
      if (bx + 1 < 4) {
        EXPECT_NE(colour_of(bx, by), colour_of(bx + 1, by)) << "boxes (" << bx << "," << by << ") and right";
      }
      if (by + 1 < 4) {
        EXPECT_NE(colour_of(bx, by), colour_of(bx, by + 1)) << "boxes (" << bx << "," << by << ") and above";
      }
    }
}

TEST(Pictures, TitleAndLegendMakeAHeader) {
  const Ctx c;
  const hpart::Comm comm(c.comm);
  const auto [b, e] = hpart::testing::uneven_block(2000, c.rank, c.size);
  const auto pts = hpart::testing::make_points(hpart::testing::Shape::uniform, 2, b, e, false);
  const auto parts = box_parts(pts.coords, 2, 2);
  const hpart::PointSet view{pts.coords, 2, {}, 1, pts.ids};
  const std::string plain = scratch("plain", c), header = scratch("header", c);
  hpart::write_partition_png(comm, plain, view, parts, 4, 200);
  hpart::write_partition_png(comm, header, view, parts, 4, titled(200));
  if (c.rank != 0) return;
  const Image a = decode(plain), h = decode(header);
  EXPECT_EQ(a.width, 200);
  EXPECT_EQ(a.height, 200);
  EXPECT_GE(h.width, 480) << "a header is at least 480 pixels wide";
  EXPECT_GT(h.height, a.height + 60) << "title, two legend lines and a row of swatches above the drawing";
  // The header's text is dark on white, in the rows above the drawing.
  long long dark = 0;
  for (int y = 0; y < h.height - a.height; ++y)
    for (int x = 0; x < h.width; ++x) dark += h.at(x, y) < 0x404040 ? 1 : 0;
  EXPECT_GT(dark, 100);
}

TEST(Pictures, GridNodeLinesAreDrawnOnlyWithNodes) {
  const Ctx c;
  const hpart::Comm comm(c.comm);
  const auto lg = hpart::testing::slab_grid(2, {96, 64, 1}, c.rank, c.size, 0.0);
  hpart::GridOptions o;
  o.parts = 16;
  const auto p = hpart::partition_grid(comm, lg.grid, o);
  std::vector<int> node_of_part(16);
  for (int q = 0; q < 16; ++q) node_of_part[static_cast<std::size_t>(q)] = q / 4;
  hpart::PictureOptions with = titled(256), without = titled(256);
  with.node_of_part = node_of_part;
  const std::string a = scratch("grid_nodes", c), b = scratch("grid_parts", c);
  hpart::write_grid_partition_png(comm, a, lg.grid, p, with);
  hpart::write_grid_partition_png(comm, b, lg.grid, p, without);
  if (c.rank == 0) {
    const Image im = decode(a), plain = decode(b);
    const std::uint32_t node_line = 0x141414;
    EXPECT_GT(im.count(node_line), 256) << "lines two pixels wide between the 4 nodes";
    EXPECT_EQ(plain.count(node_line), 0);
  }
  // 3D: sections, one panel per layer, the same for any rank count of the partition.
  const auto lg3 = hpart::testing::slab_grid(3, {24, 20, 16}, c.rank, c.size, 0.0);
  o.parts = 8;
  const auto p3 = hpart::partition_grid(comm, lg3.grid, o);
  const std::string path3 = scratch("grid3d", c);
  hpart::write_grid_partition_png(comm, path3, lg3.grid, p3, titled(400));
  if (c.rank == 0) {
    EXPECT_GT(decode(path3).width, 0);
  }
}

TEST(Pictures, GraphsAreTheSameBytesAtAnyRankCount) {
  const Ctx c;
  const std::int64_t nx = 40, ny = 30;
  auto parts_of = [&](const hpart::GraphFile& g) {  // 3 x 2 blocks of the grid
    std::vector<hpart::part_t> parts;
    for (std::size_t v = 0; v + 1 < g.xadj.size(); ++v) {
      const double x = g.coords[2 * v], y = g.coords[2 * v + 1];
      parts.push_back(static_cast<hpart::part_t>(std::min(2.0, x * 3 / nx)) + 3 * static_cast<hpart::part_t>(std::min(1.0, y * 2 / ny)));
    }
    return parts;
  };
  expect_same_alone(c, "graph", [&](const hpart::Comm& comm, const std::string& path, bool alone) {
    const auto g = alone ? hpart::testing::grid_graph(nx, ny, 0, 1) : hpart::testing::grid_graph(nx, ny, c.rank, c.size);
    const auto parts = parts_of(g);
    hpart::write_graph_partition_png(comm, path, g.view(), hpart::PointSet{g.coords, 2, {}, 1, {}}, parts, 6, titled(400));
  });
  if (c.rank != 0) return;
  const Image im = decode(scratch("graph", c));
  ASSERT_GT(im.width, 0);
  const std::uint32_t cut_grey = 0x6e6e6e;
  // The cut: 2 vertical lines of 30 edges and one horizontal of 40, each edge ~10 pixels long.
  EXPECT_GT(im.count(cut_grey), 500);
}

// An n^3 grid graph with 6 neighbours and coordinates, vertices [lo, hi) of it.
hpart::GraphFile cube_graph(std::int64_t n, std::int64_t lo, std::int64_t hi, std::span<const hpart::gid_t> vtxdist) {
  hpart::GraphFile g;
  g.vtxdist.assign(vtxdist.begin(), vtxdist.end());
  g.dim = 3;
  g.xadj.push_back(0);
  for (std::int64_t v = lo; v < hi; ++v) {
    const std::int64_t c[3] = {v % n, v / n % n, v / (n * n)}, stride[3] = {1, n, n * n};
    for (int a = 0; a < 3; ++a) {
      if (c[a] > 0) g.adjncy.push_back(v - stride[a]);
      if (c[a] + 1 < n) g.adjncy.push_back(v + stride[a]);
      g.coords.push_back(static_cast<double>(c[a]));
    }
    g.xadj.push_back(static_cast<std::int64_t>(g.adjncy.size()));
  }
  return g;
}

TEST(Pictures, Graphs3dAreSectionsTheSameAtAnyRankCount) {
  const Ctx c;
  const std::int64_t n = 12, total = n * n * n;
  expect_same_alone(c, "graph3d", [&](const hpart::Comm& comm, const std::string& path, bool alone) {
    std::vector<hpart::gid_t> vtxdist{0};
    const int ranks = alone ? 1 : c.size;
    for (int r = 0; r < ranks; ++r) vtxdist.push_back(hpart::testing::uneven_block(total, r, ranks).second);
    const int me = alone ? 0 : c.rank;
    const auto g = cube_graph(n, vtxdist[static_cast<std::size_t>(me)], vtxdist[static_cast<std::size_t>(me) + 1], vtxdist);
    std::vector<hpart::part_t> parts;  // 8 octants
    for (std::size_t i = 0; i < g.coords.size(); i += 3)
      parts.push_back((g.coords[i] >= 6 ? 1 : 0) + (g.coords[i + 1] >= 6 ? 2 : 0) + (g.coords[i + 2] >= 6 ? 4 : 0));
    hpart::write_graph_partition_png(comm, path, g.view(), hpart::PointSet{g.coords, 3, {}, 1, {}}, parts, 8, titled(400));
  });
  if (c.rank != 0) return;
  const Image im = decode(scratch("graph3d", c));
  ASSERT_GT(im.width, 0);
  EXPECT_GT(im.count(0x6e6e6e), 100) << "cut edges inside each section (between x and y halves)";
}

TEST(Pictures, BadInputIsTheSameErrorEverywhere) {
  const Ctx c;
  const hpart::Comm comm(c.comm);
  auto expect_error = [&](const std::function<void()>& call, const std::string& needle) {
    std::string what;
    try {
      call();
    } catch (const hpart::Error& e) {
      what = e.what();
    }
    EXPECT_NE(what.find(needle), std::string::npos) << "rank " << c.rank << ": '" << what << "'";
    const std::uint64_t h = std::hash<std::string>{}(what);
    std::uint64_t lo = h, hi = h;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_UINT64_T, MPI_MIN, c.comm);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_UINT64_T, MPI_MAX, c.comm);
    EXPECT_EQ(lo, hi) << "rank " << c.rank << " has another message: " << what;
  };
  const bool last = c.rank == c.size - 1;
  const auto lg = hpart::testing::slab_grid(2, {16, 8, 1}, c.rank, c.size, 0.0);
  hpart::GridOptions o;
  o.parts = 4;
  const auto gp = hpart::partition_grid(comm, lg.grid, o);
  const std::string path = scratch("bad", c);
  const std::vector<int> three_nodes{0, 0, 1}, bad_node{0, 0, 1, -1};
  hpart::PictureOptions opts;
  opts.node_of_part = three_nodes;
  expect_error([&] { hpart::write_grid_partition_png(comm, path, lg.grid, gp, opts); },
               "write_grid_partition_png: node_of_part has 3 values for 4 parts");
  opts.node_of_part = bad_node;
  expect_error([&] { hpart::write_grid_partition_png(comm, path, lg.grid, gp, opts); }, "node_of_part[3] is -1");
  // The graph: parts of the wrong length, ids out of range, coordinates of the wrong count.
  const auto g = hpart::testing::grid_graph(12, 9, c.rank, c.size);
  std::vector<hpart::part_t> parts(g.xadj.size() - 1, 0);
  const hpart::PointSet xy{g.coords, 2, {}, 1, {}};
  std::vector<hpart::part_t> bad = parts;
  if (last && !bad.empty()) bad.back() = 7;
  expect_error([&] { hpart::write_graph_partition_png(comm, path, g.view(), xy, bad, 2); }, "is outside [0, 2)");
  const std::vector<double> fewer(g.coords.begin(), g.coords.end() - (last ? 2 : 0));
  expect_error([&] { hpart::write_graph_partition_png(comm, path, g.view(), hpart::PointSet{fewer, 2, {}, 1, {}}, parts, 2); },
               "write_graph_partition_png: coords has ");
  if (c.size < 2) return;  // the rest needs ranks that disagree
  hpart::PictureOptions differ;
  differ.title = c.rank == 1 ? "one" : "other";
  expect_error([&] { hpart::write_grid_partition_png(comm, path, lg.grid, gp, differ); }, "title differs between ranks");
  differ.title.clear();
  differ.legend = {c.rank == 1 ? "a" : "b"};
  expect_error([&] { hpart::write_graph_partition_png(comm, path, g.view(), xy, parts, 2, differ); },
               "legend differs between ranks");
}

}  // namespace
