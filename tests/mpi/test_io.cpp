// Parallel text I/O at any rank count: every line read exactly once and in file order, round
// trips exact, and every malformed file a clear error on every rank naming the line.
#include <gtest/gtest.h>
#include <mpi.h>
#include <png.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
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
  hpart::PointOptions opts;
  opts.parts = 7;
  const hpart::PointSet view{mine.coords, 3, {}, 1, mine.ids};
  const auto p = hpart::partition_points(comm, view, opts);
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

// --- empty ranks, extreme values, sizes, replicated arguments (issue 20) ---------------------------

// Runs `body` on the world and on each half of it (a sub-communicator; colour names the files).
void on_world_and_halves(const std::function<void(const Ctx&, int colour)>& body) {
  body(Ctx(), 0);
  const hpart::testing::HalfWorld half;
  body(Ctx(half.comm), 1 + half.colour);
}

// `call` throws an hpart::Error of `code` on every rank, with the same text everywhere,
// containing `needle`. No ASSERT before the reduction: a rank leaving early would hang.
void expect_same_error(const Ctx& c, const std::function<void()>& call, hpart::ErrorCode code,
                       const std::string& needle) {
  std::string what;
  hpart::ErrorCode got = hpart::ErrorCode::ok;
  try {
    call();
  } catch (const hpart::Error& e) {
    what = e.what();
    got = e.code();
  }
  EXPECT_FALSE(what.empty()) << "rank " << c.rank << ": no error (expected '" << needle << "')";
  EXPECT_EQ(static_cast<int>(got), static_cast<int>(code)) << what;
  EXPECT_NE(what.find(needle), std::string::npos) << "rank " << c.rank << ": " << what;
  const std::uint64_t h = std::hash<std::string>{}(what);
  std::uint64_t lo = h, hi = h;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_UINT64_T, MPI_MIN, c.comm);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_UINT64_T, MPI_MAX, c.comm);
  EXPECT_EQ(lo, hi) << "rank " << c.rank << " has a different message: " << what;
}

// HPART_MEMORY_LIMIT for the scope (every rank sets it, so the memory checks agree).
struct MemoryLimit {
  explicit MemoryLimit(const char* limit) { setenv("HPART_MEMORY_LIMIT", limit, 1); }
  ~MemoryLimit() { unsetenv("HPART_MEMORY_LIMIT"); }
  MemoryLimit(const MemoryLimit&) = delete;
  MemoryLimit& operator=(const MemoryLimit&) = delete;
};

TEST(TextIoEmptyRanks, FewerPointsThanRanksWriteAndReadBack) {
  on_world_and_halves([](const Ctx& c, int colour) {
    const hpart::Comm comm(c.comm);
    for (const long long n : {0LL, 1LL, 2LL}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", communicator of " + std::to_string(c.size));
      // The last n ranks hold one point each (the last one the rest when n > ranks).
      const long long holders = std::min<long long>(n, c.size), k = c.rank - (c.size - holders);
      std::vector<double> coords, weights;
      std::vector<hpart::part_t> parts;
      for (long long g = k; k >= 0 && g < (c.rank == c.size - 1 ? n : k + 1); ++g) {
        coords.insert(coords.end(), {0.5 * static_cast<double>(g), -static_cast<double>(g)});
        weights.push_back(static_cast<double>(g) + 1.0);
        parts.push_back(static_cast<hpart::part_t>(g % 3));
      }
      const std::string path = scratch("tail" + std::to_string(n), c, colour);
      hpart::write_points_text(comm, path, hpart::PointSet{coords, 2, weights, 1, {}});
      hpart::write_parts_text(comm, path + ".part", parts);
      if (c.rank == 0) {
        std::string expect;
        for (long long g = 0; g < n; ++g) expect += std::to_string(g % 3) + "\n";
        EXPECT_EQ(read_file(path + ".part"), expect);
      }
      if (n == 0) {
        expect_same_error(c, [&] { (void)hpart::read_points_text(comm, path); }, hpart::ErrorCode::io,
                          path + ": no points (the file is empty");
        continue;
      }
      const hpart::PointFile f = hpart::read_points_text(comm, path, 2);  // x y w
      EXPECT_EQ(f.dim, 2);
      ASSERT_TRUE(f.weighted);
      expect_file_order(c, f, n);
      for (std::size_t i = 0; i < f.size(); ++i) {
        EXPECT_EQ(f.coords[2 * i], 0.5 * static_cast<double>(f.ids[i]));
        EXPECT_EQ(f.weights[i], static_cast<double>(f.ids[i]) + 1.0);
      }
    }
  });
}

TEST(TextIoValues, TinyDenormalAndHugeWeightsReadAndPartition) {
  on_world_and_halves([](const Ctx& c, int colour) {
    const hpart::Comm comm(c.comm);
    const std::string path = scratch("extreme", c, colour);
    // 1e-400 underflows to 0, the nearest double (as strtod reads it); denormals stay exact.
    write_file(c, path, "0 0 1e-300\n1 0 4e-320\n0 1 1e308\n1 1 0\n2 2 1e-400\n3 3 1.7976931348623157e308\n"
                        "1e-310 -1e-400 2.5\n");
    const std::vector<double> weights{1e-300, 4e-320, 1e308, 0.0, 0.0, 1.7976931348623157e308, 2.5};
    const std::vector<double> xs{0, 1, 0, 1, 2, 3, 1e-310}, ys{0, 0, 1, 1, 2, 3, -0.0};
    auto expect_values = [&](const hpart::PointFile& f) {
      ASSERT_TRUE(f.weighted);
      expect_file_order(c, f, 7);
      for (std::size_t i = 0; i < f.size(); ++i) {
        const auto g = static_cast<std::size_t>(f.ids[i]);
        EXPECT_EQ(f.weights[i], weights[g]) << "point " << g;
        EXPECT_EQ(f.coords[2 * i], xs[g]) << "point " << g;
        EXPECT_EQ(f.coords[2 * i + 1], ys[g]) << "point " << g;
      }
    };
    const hpart::PointFile f = hpart::read_points_text(comm, path, 2);  // x y w
    expect_values(f);
    // They partition (weights of any finite size are summed in fixed point), and write back bit for bit.
    const hpart::Partition p = hpart::partition_points(comm, f.view(), hpart::PointOptions::preset(hpart::Preset::standard, 2));
    EXPECT_EQ(p.metrics.objects, 7);
    hpart::write_points_text(comm, path + ".out", f.view());
    expect_values(hpart::read_points_text(comm, path + ".out", 2));
    // Beyond the largest double: an error naming the line, on every rank.
    write_file(c, path, "0 0 1\n1 1 1e309\n");
    expect_same_error(c, [&] { (void)hpart::read_points_text(comm, path); }, hpart::ErrorCode::io,
                      path + ":2: value 3 '1e309' is out of range (beyond +-1.8e308)");
  });
}

TEST(TextIoSizes, FilesBeyondMemoryAreAnErrorEverywhere) {
  on_world_and_halves([](const Ctx& c, int colour) {
    const hpart::Comm comm(c.comm);
    // ~150 KB of "1 2" lines per rank: the bytes fit a 256 KiB budget, their points (ids) do not.
    std::string text;
    for (long long i = 0; i < 37500LL * c.size; ++i) text += "1 2\n";
    const std::string path = scratch("big", c, colour);
    write_file(c, path, text);
    {
      const MemoryLimit limit("256K");
      expect_same_error(c, [&] { (void)hpart::read_points_text(comm, path); }, hpart::ErrorCode::invalid_input,
                        "points of '" + path + "' on this rank needs ");
    }
    {
      const MemoryLimit limit("64K");  // not even the bytes
      expect_same_error(c, [&] { (void)hpart::read_points_text(comm, path); }, hpart::ErrorCode::invalid_input,
                        "reading '" + path + "' (");
    }
    EXPECT_EQ(hpart::read_points_text(comm, path).global_count, 37500LL * c.size);  // without a limit
    if (c.size < 2) return;
    // One 600 KB line (not a text file): each rank's range fits 400 KiB, the line rank 0 must
    // hold whole does not.
    const std::string binary = scratch("one_line", c, colour);
    write_file(c, binary, std::string(600000, 'x') + "\n");
    const MemoryLimit limit("400K");
    expect_same_error(c, [&] { (void)hpart::read_points_text(comm, binary); }, hpart::ErrorCode::invalid_input,
                      "reading '" + binary + "': the line that starts before byte ");
  });
}

TEST(TextIoArguments, ReplicatedArgumentsAndPartIdsAreCheckedEverywhere) {
  on_world_and_halves([](const Ctx& c, int colour) {
    const hpart::Comm comm(c.comm);
    const long long n = 40;
    const auto [b, e] = hpart::testing::uneven_block(n, c.rank, c.size);
    const LocalPoints mine = make_points(Shape::uniform, 2, b, e, true);
    const hpart::PointSet view{mine.coords, 2, mine.weights, 1, mine.ids};
    std::vector<hpart::part_t> parts;
    for (long long g = b; g < e; ++g) parts.push_back(static_cast<hpart::part_t>(g % 4));
    const std::string path = scratch("args", c, colour);
    const bool last = c.rank == c.size - 1;  // always holds points
    // Part ids outside [0, num_parts) on one rank only.
    std::vector<hpart::part_t> bad = parts;
    if (last) bad.back() = -1;
    expect_same_error(c, [&] { hpart::write_parts_text(comm, path, bad); }, hpart::ErrorCode::invalid_argument,
                      "write_parts_text: part id -1 of local object");
    expect_same_error(c, [&] { hpart::write_partition_png(comm, path + ".png", view, bad, 4); },
                      hpart::ErrorCode::invalid_argument, "write_partition_png: part -1 of local object");
    if (last) bad.back() = 4;
    expect_same_error(c, [&] { hpart::write_partition_png(comm, path + ".png", view, bad, 4); },
                      hpart::ErrorCode::invalid_argument, "is outside [0, 4)");
    expect_same_error(c, [&] { hpart::write_partition_png(comm, path + ".png", view, parts, 0); },
                      hpart::ErrorCode::invalid_argument, "write_partition_png: parts must be >= 1");
    write_file(c, path, "0 0\n1 1\n");
    if (c.size < 2) return;  // the rest needs ranks that can disagree
    const std::string other = path + (c.rank == 1 ? ".other" : "");
    expect_same_error(c, [&] { hpart::write_parts_text(comm, other, parts); }, hpart::ErrorCode::invalid_argument,
                      "file path differs between ranks");
    expect_same_error(c, [&] { hpart::write_points_text(comm, other, view); }, hpart::ErrorCode::invalid_argument,
                      "file path differs between ranks");
    expect_same_error(c, [&] { (void)hpart::read_points_text(comm, other); }, hpart::ErrorCode::invalid_argument,
                      "file path differs between ranks");
    expect_same_error(c, [&] { (void)hpart::read_points_text(comm, path, c.rank == 1 ? 3 : 2); },
                      hpart::ErrorCode::invalid_argument, "dim differs between ranks (from 2 to 3)");
    const hpart::PointSet unweighted{mine.coords, 2, {}, 1, mine.ids};
    expect_same_error(c, [&] { hpart::write_points_text(comm, path, last ? unweighted : view); },
                      hpart::ErrorCode::invalid_argument, "weights given on some ranks and not on others");
    expect_same_error(c, [&] { hpart::write_partition_png(comm, path + ".png", view, parts, c.rank == 1 ? 5 : 4); },
                      hpart::ErrorCode::invalid_argument, "num_parts differs between ranks (from 4 to 5)");
    expect_same_error(c, [&] { hpart::write_partition_png(comm, path + ".png", view, parts, 4, c.rank == 1 ? 64 : 32); },
                      hpart::ErrorCode::invalid_argument, "max_side differs between ranks (from 32 to 64)");
    expect_same_error(c, [&] { hpart::write_partition_png(comm, other + ".png", view, parts, 4); },
                      hpart::ErrorCode::invalid_argument, "file path differs between ranks");
    const auto lg = hpart::testing::slab_grid(2, {16, 8, 1}, c.rank, c.size, 2.0);
    hpart::GridOptions o;
    o.parts = 3;
    const auto gp = hpart::partition_grid(comm, lg.grid, o);
    expect_same_error(c, [&] { hpart::write_grid_partition_png(comm, path + ".png", lg.grid, gp, c.rank == 1 ? 64 : 32); },
                      hpart::ErrorCode::invalid_argument, "max_side differs between ranks (from 32 to 64)");
    expect_same_error(c, [&] { hpart::write_grid_partition_png(comm, other + ".png", lg.grid, gp); },
                      hpart::ErrorCode::invalid_argument, "file path differs between ranks");
  });
}

TEST(PartitionPng, PicturesBeyondMemoryAreAnErrorEverywhere) {
  on_world_and_halves([](const Ctx& c, int colour) {
    const hpart::Comm comm(c.comm);
    const auto [b, e] = hpart::testing::uneven_block(30, c.rank, c.size);
    const LocalPoints mine = make_points(Shape::uniform, 2, b, e, false);
    const hpart::PointSet view{mine.coords, 2, {}, 1, mine.ids};
    const std::vector<hpart::part_t> parts(view.size(), 0);
    const MemoryLimit limit("1M");
    expect_same_error(c, [&] { hpart::write_partition_png(comm, scratch("huge", c, colour) + ".png", view, parts, 1, 8192); },
                      hpart::ErrorCode::invalid_argument, "a picture of 8192 pixels a side needs ");
    const auto lg = hpart::testing::slab_grid(2, {16, 8, 1}, c.rank, c.size, 0.0);
    hpart::GridOptions o;
    o.parts = 2;
    const auto gp = hpart::partition_grid(comm, lg.grid, o);
    expect_same_error(c, [&] { hpart::write_grid_partition_png(comm, scratch("huge_grid", c, colour) + ".png", lg.grid, gp, 8192); },
                      hpart::ErrorCode::invalid_argument, "use a smaller max_side");
  });
}

TEST(PartitionPng, ExtremeCoordinatesAndEmptyRanksDraw) {
  on_world_and_halves([](const Ctx& c, int colour) {
    const hpart::Comm comm(c.comm);
    // Two points at -1e308 and +1e308 (x - x0 overflows), held by the last rank only; then none.
    const bool last = c.rank == c.size - 1;
    const std::vector<double> coords = last ? std::vector<double>{-1e308, -1e308, 1e308, 1e308} : std::vector<double>{};
    const std::vector<hpart::part_t> parts = last ? std::vector<hpart::part_t>{0, 1} : std::vector<hpart::part_t>{};
    const std::string path = scratch("extreme_png", c, colour) + ".png";
    hpart::write_partition_png(comm, path, hpart::PointSet{coords, 2, {}, 1, {}}, parts, 2, 64);
    int w = 0, h = 0;
    long long coloured = 0;
    if (c.rank == 0) {
      EXPECT_TRUE(read_png(path, w, h, coloured));
      EXPECT_EQ(w, 64);
      EXPECT_EQ(h, 64);
      EXPECT_GE(coloured, 2);  // both corners, not one pixel
    }
    hpart::write_partition_png(comm, path, hpart::PointSet{{}, 2, {}, 1, {}}, {}, 2, 64);
    if (c.rank == 0) {
      EXPECT_TRUE(read_png(path, w, h, coloured));
      EXPECT_EQ(coloured, 0);
    }
    MPI_Barrier(c.comm);
  });
}

// --- column headers and part files (issue 25) ------------------------------------------------------

TEST(TextIoHeaders, WrittenFilesNameTheirColumnsAndReadBackAsWritten) {
  const Ctx c;
  const hpart::Comm comm(c.comm);
  const long long n = 2001;
  const auto [b, e] = hpart::testing::uneven_block(n, c.rank, c.size);
  const LocalPoints mine = make_points(Shape::uniform, 2, b, e, true);
  const std::string path = scratch("xyw", c);
  hpart::write_points_text(comm, path, hpart::PointSet{mine.coords, 2, mine.weights, 1, mine.ids});
  if (c.rank == 0) {
    EXPECT_EQ(read_file(path).substr(0, 8), "# x y w\n");
  }
  // 3 columns, read as x y w without a dim: the header says so.
  const hpart::PointFile f = hpart::read_points_text(comm, path);
  EXPECT_EQ(f.dim, 2);
  EXPECT_TRUE(f.weighted);
  EXPECT_TRUE(f.columns_declared);
  EXPECT_EQ(f.columns, 3);
  expect_file_order(c, f, n);
  expect_same_error(c, [&] { (void)hpart::read_points_text(comm, path, 3); }, hpart::ErrorCode::invalid_argument,
                    ":1: the header declares 'x y w' (2D points), but dim 3 was asked");
  // Without a header, 3 columns are x y z by default, and the file says it guessed.
  write_file(c, path, "0 0 1\n1 0 2\n");
  const hpart::PointFile guessed = hpart::read_points_text(comm, path);
  EXPECT_EQ(guessed.dim, 3);
  EXPECT_FALSE(guessed.columns_declared);
  EXPECT_EQ(guessed.columns, 3);
}

TEST(TextIoHeaders, HeadersWithoutHashAfterBlankLinesOnAnyRank) {
  const Ctx c;
  const hpart::Comm comm(c.comm);
  const std::string path = scratch("late_header", c);
  // 3000 blank lines: at np >= 2 the header lies in a later rank's byte range.
  std::string text(3000, '\n');
  text += "x,y,z\n% a comment\n1 2 3\n4 5 6\n7 8 9\n";
  write_file(c, path, text);
  const hpart::PointFile f = hpart::read_points_text(comm, path);
  EXPECT_EQ(f.dim, 3);
  EXPECT_FALSE(f.weighted);
  EXPECT_TRUE(f.columns_declared);
  expect_file_order(c, f, 3);
  // A header line anywhere else is no header: a malformed point line, or a comment. (After a
  // long comment, "x y" is the first line of the last rank's byte range at np >= 2.)
  const std::string late = "1 2\n# " + std::string(10000, 'c') + "\n";
  write_file(c, path, late + "x y\n5 6\n");
  expect_same_error(c, [&] { (void)hpart::read_points_text(comm, path); }, hpart::ErrorCode::io,
                    ":3: value 1 'x' is not a number");
  write_file(c, path, late + "# x y w\n5 6\n");
  EXPECT_FALSE(hpart::read_points_text(comm, path).columns_declared);
  write_file(c, path, "# x y z w\n1 2 3 4\n5 6 7\n");
  expect_same_error(c, [&] { (void)hpart::read_points_text(comm, path); }, hpart::ErrorCode::io,
                    ":3: has 3 values, but line 2 has 4");
  write_file(c, path, "# x y\n1 2 3\n");
  expect_same_error(c, [&] { (void)hpart::read_points_text(comm, path); }, hpart::ErrorCode::io,
                    ":2: has 3 values, but the header (line 1) declares 2: 'x y'");
}

TEST(PartFiles, AnyBlocksOfTheFileOnAnyRankCount) {
  const Ctx c;
  const hpart::Comm comm(c.comm);
  const long long n = 3001;
  std::string text = "% parts\n";
  for (long long i = 0; i < n; ++i) text += std::to_string(i % 37) + (i % 500 == 0 ? "\n\n# c\n" : "\n");
  const std::string path = scratch("partfile", c);
  write_file(c, path, text);
  // The blocks of the object readers, then blocks in reverse rank order (each rank's wanted
  // block lies in other ranks' byte ranges).
  for (const bool reversed : {false, true}) {
    const auto [b, e] = hpart::testing::uneven_block(n, reversed ? c.size - 1 - c.rank : c.rank, c.size);
    const std::vector<hpart::part_t> got =
        hpart::read_parts_text(comm, path, b, static_cast<std::size_t>(e - b), n, 37, "points");
    ASSERT_EQ(static_cast<long long>(got.size()), e - b);
    for (long long i = b; i < e; ++i) ASSERT_EQ(got[static_cast<std::size_t>(i - b)], i % 37) << "entry " << i;
  }
}

TEST(PartFiles, BadLinesCountsAndIdsAreNamedOnEveryRank) {
  const Ctx c;
  const hpart::Comm comm(c.comm);
  const auto [b, e] = hpart::testing::uneven_block(1000, c.rank, c.size);
  const auto count = static_cast<std::size_t>(e - b);
  const std::string path = scratch("badparts", c);
  for (const long long bad : {1LL, 400LL, 1000LL}) {
    std::string text;
    for (long long i = 1; i <= 1000; ++i) text += i == bad ? "2 x\n" : "1\n";
    write_file(c, path, text);
    expect_same_error(c, [&] { (void)hpart::read_parts_text(comm, path, b, count, 1000); }, hpart::ErrorCode::io,
                      ":" + std::to_string(bad) + ": holds more than one value ('x' after '2')");
  }
  std::string text;
  for (int i = 0; i < 999; ++i) text += "1\n";
  write_file(c, path, text);
  expect_same_error(c, [&] { (void)hpart::read_parts_text(comm, path, b, count, 1000, 0, "vertices"); },
                    hpart::ErrorCode::io, "has 999 part ids but the input has 1000 vertices");
  write_file(c, path, text + "7\n");
  expect_same_error(c, [&] { (void)hpart::read_parts_text(comm, path, b, count, 1000, 7); }, hpart::ErrorCode::io,
                    ":1000: part id 7 is not below the number of parts, 7");
  expect_same_error(c, [&] { (void)hpart::read_parts_text(comm, path + ".none", b, count, 1000); },
                    hpart::ErrorCode::io, "cannot open");
}

}  // namespace
