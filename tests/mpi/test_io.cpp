// Parallel text I/O at any rank count: every line read exactly once and in file order, round
// trips exact, and every malformed file a clear error on every rank naming the line.
#include <gtest/gtest.h>
#include <mpi.h>
#include <png.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "hpart/hpart.hpp"
#include "test_grids.hpp"
#include "test_points.hpp"
#include "test_world.hpp"

#ifndef HPART_TEST_DIR
#error "HPART_TEST_DIR must name a scratch directory"
#endif

namespace {

using hpart::testing::LocalPoints;
using hpart::testing::make_points;
using hpart::testing::Shape;

using Ctx = hpart::testing::World;

// A scratch path unique per test, rank count and communicator colour (ctest runs np 1..4 at once).
std::string scratch(const std::string& name, const Ctx& c, int colour = 0) {
  int world = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  return std::string(HPART_TEST_DIR) + "/io_" + name + "_np" + std::to_string(world) + "_c" + std::to_string(colour) +
         "_s" + std::to_string(c.size);
}

// Rank 0 writes `text` to `path`; everyone waits for it.
void write_file(const Ctx& c, const std::string& path, const std::string& text) {
  if (c.rank == 0) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << text;
  }
  MPI_Barrier(c.comm);
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Expects read_points_text to throw an io Error on every rank whose message contains `what`.
void expect_read_error(const Ctx& c, const std::string& path, const std::string& what, int dim = 0) {
  bool thrown = false;
  try {
    (void)hpart::read_points_text(hpart::Comm(c.comm), path, dim);
  } catch (const hpart::Error& e) {
    thrown = true;
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << "rank " << c.rank << ": " << e.what();
  }
  EXPECT_TRUE(thrown) << "rank " << c.rank << ": no error for " << path;
}

// Every rank's points are the next block of the file; the union is the file, once, in order.
void expect_file_order(const Ctx& c, const hpart::PointFile& f, long long n) {
  EXPECT_EQ(f.global_count, n);
  long long mine = static_cast<long long>(f.size()), before = 0, total = 0;
  MPI_Exscan(&mine, &before, 1, MPI_LONG_LONG, MPI_SUM, c.comm);
  if (c.rank == 0) before = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, c.comm);
  EXPECT_EQ(total, n);
  for (std::size_t i = 0; i < f.size(); ++i) ASSERT_EQ(f.ids[i], before + static_cast<long long>(i));
}

TEST(TextIo, RoundTripIsExactAndInFileOrder) {
  const Ctx c;
  const long long n = 5003;
  const auto [b, e] = hpart::testing::uneven_block(n, c.rank, c.size);  // rank 0 empty at np >= 3
  const LocalPoints mine = make_points(Shape::clusters, 3, b, e, true);
  const std::string path = scratch("roundtrip", c);
  const hpart::Comm comm(c.comm);
  hpart::write_points_text(comm, path, hpart::PointSet{mine.coords, 3, mine.weights, 1, mine.ids});
  const hpart::PointFile f = hpart::read_points_text(comm, path);
  EXPECT_EQ(f.dim, 3);
  EXPECT_TRUE(f.weighted);
  expect_file_order(c, f, n);
  // Shortest round-trip formatting: every value comes back bit for bit.
  const LocalPoints expect = make_points(Shape::clusters, 3, f.ids.empty() ? 0 : f.ids.front(),
                                         f.ids.empty() ? 0 : f.ids.back() + 1, true);
  EXPECT_EQ(f.coords, expect.coords);
  EXPECT_EQ(f.weights, expect.weights);
}

TEST(TextIo, ColumnsDecideTheDimensionUnlessGiven) {
  const Ctx c;
  const std::string path = scratch("columns", c);
  write_file(c, path, "0 0 1\n1 0 2\n0 1 3\n1 1 4\n");
  const hpart::Comm comm(c.comm);
  const auto as3d = hpart::read_points_text(comm, path);
  EXPECT_EQ(as3d.dim, 3);
  EXPECT_FALSE(as3d.weighted);
  const auto as2d = hpart::read_points_text(comm, path, 2);
  EXPECT_EQ(as2d.dim, 2);
  EXPECT_TRUE(as2d.weighted);
  expect_file_order(c, as2d, 4);
  write_file(c, path, "0 0\n1 1\n");
  expect_read_error(c, path, ":1: has 2 values; expected 'x y z' or 'x y z w' (--dim 3)", 3);
}

TEST(TextIo, LinesLongerThanAByteRangeAndFilesWithoutFinalNewline) {
  const Ctx c;
  const std::string path = scratch("long", c);
  // One long line followed by short ones: with 4 ranks, the first line spans several ranges.
  std::string text = "1.000000000000000000000000000000000000000000000000000000000000000000000000000 2 3\n";
  text += "# comment\n\n4 5 6\n7 8 9";  // no final newline
  write_file(c, path, text);
  const auto f = hpart::read_points_text(hpart::Comm(c.comm), path);
  expect_file_order(c, f, 3);
  for (std::size_t i = 0; i < f.size(); ++i) EXPECT_EQ(f.coords[3 * i], 1.0 + 3.0 * static_cast<double>(f.ids[i]));
}

TEST(TextIo, MalformedLineIsNamedOnEveryRank) {
  const Ctx c;
  // The bad line sits at a different rank's range for each position.
  for (const long long bad : {1LL, 250LL, 999LL, 1000LL}) {
    std::string text;
    for (long long i = 1; i <= 1000; ++i)
      text += i == bad ? "0.5 oops 0.5\n" : std::to_string(i) + " 0.25 0.75\n";
    const std::string path = scratch("malformed" + std::to_string(bad), c);
    write_file(c, path, text);
    expect_read_error(c, path, std::string(":").append(std::to_string(bad)).append(": value 2 'oops' is not a number"));
  }
}

TEST(TextIo, ColumnMismatchNamesBothLines) {
  const Ctx c;
  std::string text = "# points\n";
  for (int i = 0; i < 600; ++i) text += i == 437 ? "1 2\n" : "1 2 3\n";
  const std::string path = scratch("mismatch", c);
  write_file(c, path, text);
  expect_read_error(c, path, ":439: has 2 values, but line 2 has 3");
}

TEST(TextIo, BadValuesAreErrorsWithTheirLine) {
  const Ctx c;
  const std::string path = scratch("values", c);
  write_file(c, path, "0 0 1\n0 1 nan\n");
  expect_read_error(c, path, ":2: value 3 is not finite");
  write_file(c, path, "0 0 1\n0 1 1\n# c\n1 1 -2\n");
  expect_read_error(c, path, ":4: negative weight -2", 2);
  write_file(c, path, "0 0 1 2 3\n");
  expect_read_error(c, path, ":1: has 5 values");
}

TEST(TextIo, EmptyAndMissingFilesAreErrors) {
  const Ctx c;
  const std::string path = scratch("empty", c);
  write_file(c, path, "");
  expect_read_error(c, path, "no points");
  write_file(c, path, "# only a comment\n\n");
  expect_read_error(c, path, "no points");
  expect_read_error(c, path + ".does-not-exist", "cannot open");
  bool thrown = false;
  try {
    (void)hpart::read_points_text(hpart::Comm(c.comm), path, 4);
  } catch (const hpart::Error& e) {
    thrown = e.code() == hpart::ErrorCode::invalid_argument;
  }
  EXPECT_TRUE(thrown);
}

TEST(TextIo, PartFileHasOneLinePerPointInFileOrder) {
  const Ctx c;
  const long long n = 3001;
  const auto [b, e] = hpart::testing::uneven_block(n, c.rank, c.size);
  std::vector<hpart::part_t> parts;
  for (long long g = b; g < e; ++g) parts.push_back(static_cast<hpart::part_t>(g % 97));
  const std::string path = scratch("parts", c);
  hpart::write_parts_text(hpart::Comm(c.comm), path, parts);
  if (c.rank == 0) {
    std::istringstream in(read_file(path));
    long long line = 0, value = 0;
    while (in >> value) {
      ASSERT_EQ(value, line % 97) << "line " << line + 1;
      ++line;
    }
    EXPECT_EQ(line, n);
  }
  MPI_Barrier(c.comm);
}

TEST(TextIo, WorksOnSubCommunicators) {
  const Ctx world;
  MPI_Comm half;
  const int colour = world.rank % 2;
  MPI_Comm_split(world.comm, colour, world.rank, &half);
  const Ctx c(half);
  const long long n = colour == 0 ? 1200 : 700;
  const auto [b, e] = hpart::testing::uneven_block(n, c.rank, c.size);
  const LocalPoints mine = make_points(Shape::uniform, 2, b, e, false);
  const std::string path = scratch("subcomm", c, colour);
  const hpart::Comm comm(half);
  hpart::write_points_text(comm, path, hpart::PointSet{mine.coords, 2, {}, 1, mine.ids});
  const auto f = hpart::read_points_text(comm, path);
  EXPECT_EQ(f.dim, 2);
  expect_file_order(c, f, n);
  MPI_Comm_free(&half);
}

// Reads back a PNG's size and counts its non-white pixels.
bool read_png(const std::string& path, int& width, int& height, long long& coloured) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) return false;
  image.format = PNG_FORMAT_RGB;
  std::vector<png_byte> rgb(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, rgb.data(), 0, nullptr)) return false;
  width = static_cast<int>(image.width);
  height = static_cast<int>(image.height);
  coloured = 0;
  for (std::size_t k = 0; k + 2 < rgb.size(); k += 3)
    coloured += (rgb[k] != 255 || rgb[k + 1] != 255 || rgb[k + 2] != 255) ? 1 : 0;
  return true;
}

TEST(PartitionPng, DrawsEveryRanksPointsTheSameForAnyRankCount) {
  const Ctx c;
  const long long n = 20000;
  const auto [first, last] = hpart::testing::uneven_block(n, c.rank, c.size);
  const LocalPoints mine = make_points(Shape::uniform, 3, first, last, false);
  const hpart::Comm comm(c.comm);
  hpart::Options opts;
  opts.parts = 7;
  const hpart::PointSet view{mine.coords, 3, {}, 1, mine.ids};
  const auto p = hpart::partition(comm, view, opts);
  const std::string path = scratch("picture", c) + ".png";
  hpart::write_partition_png(comm, path, view, p.parts, p.num_parts, 200);
  if (c.rank == 0) {
    int w = 0, h = 0;
    long long coloured = 0;
    ASSERT_TRUE(read_png(path, w, h, coloured));
    EXPECT_EQ(std::max(w, h), 200);
    EXPECT_GT(coloured, w * h / 3);  // 20000 points, one pixel each, on a 200^2 image
  }
  // Bad arguments on one rank (the last always has points): an error on every rank, never a hang.
  const std::span<const hpart::part_t> all(p.parts);
  bool thrown = false;
  try {
    hpart::write_partition_png(comm, path, view, c.rank == c.size - 1 ? all.first(all.size() - 1) : all, p.num_parts);
  } catch (const hpart::Error& e) {
    thrown = e.code() == hpart::ErrorCode::invalid_argument;
  }
  EXPECT_TRUE(thrown);
  thrown = false;
  try {
    hpart::write_partition_png(comm, "/nonexistent-dir/x.png", view, p.parts, p.num_parts);
  } catch (const hpart::Error& e) {
    thrown = e.code() == hpart::ErrorCode::io;
  }
  EXPECT_TRUE(thrown);
}

// A grid partition picture: the size follows the grid, every part shows (at least as many
// distinct colours as parts), edges are darkened, and a bad size is an error on every rank.
TEST(PartitionPng, DrawsGridPartitionsFromTheLocator) {
  const Ctx c;
  const hpart::Comm comm(c.comm);
  for (const hpart::GridMethod m : {hpart::GridMethod::blocks, hpart::GridMethod::sfc}) {
    const auto lg = hpart::testing::slab_grid(2, {64, 48, 1}, c.rank, c.size, 10.0);
    hpart::GridOptions o;
    o.parts = 6;
    o.method = m;
    const auto p = hpart::partition_grid(comm, lg.grid, o);
    const std::string path = scratch(std::string("grid_") + hpart::to_string(m), c) + ".png";
    hpart::write_grid_partition_png(comm, path, lg.grid, p, 200);
    if (c.rank == 0) {
      png_image image{};
      image.version = PNG_IMAGE_VERSION;
      ASSERT_TRUE(png_image_begin_read_from_file(&image, path.c_str()));
      image.format = PNG_FORMAT_RGB;
      std::vector<png_byte> rgb(PNG_IMAGE_SIZE(image));
      ASSERT_TRUE(png_image_finish_read(&image, nullptr, rgb.data(), 0, nullptr));
      EXPECT_EQ(image.width, 200u);  // 64 cells at 3.125 pixels each
      EXPECT_EQ(image.height, 150u);
      std::vector<std::uint32_t> colours;
      for (std::size_t k = 0; k + 2 < rgb.size(); k += 3)
        colours.push_back((std::uint32_t{rgb[k]} << 16) | (std::uint32_t{rgb[k + 1]} << 8) | rgb[k + 2]);
      std::sort(colours.begin(), colours.end());
      colours.erase(std::unique(colours.begin(), colours.end()), colours.end());
      EXPECT_GE(colours.size(), 6u + 5u) << "6 part colours, and the darkened edges of all but the last part";
    }
  }
  const auto lg3 = hpart::testing::slab_grid(3, {20, 16, 12}, c.rank, c.size, 0.0);
  hpart::GridOptions o;
  o.parts = 4;
  const auto p3 = hpart::partition_grid(comm, lg3.grid, o);
  hpart::write_grid_partition_png(comm, scratch("grid3d", c) + ".png", lg3.grid, p3);  // the middle slice
  bool thrown = false;
  try {
    hpart::write_grid_partition_png(comm, scratch("grid_bad", c) + ".png", lg3.grid, p3, 8);
  } catch (const hpart::Error& e) {
    thrown = e.code() == hpart::ErrorCode::invalid_argument;
  }
  EXPECT_TRUE(thrown);
}

}  // namespace
