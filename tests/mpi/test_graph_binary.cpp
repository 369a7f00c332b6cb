// hpart's binary graph files and the METIS writer at any rank count: METIS text -> binary ->
// METIS text gives the same blocks (weights, ncon 2, vertex sizes, isolated vertices, ranks
// without vertices, coordinates in binary); a file written at one rank count reads at another;
// read_graph picks the format by content; every damaged binary file is the same hpart::Error on
// every rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "hpart/graph.hpp"
#include "hpart/graph_io.hpp"
#include "test_graphs.hpp"
#include "test_world.hpp"

#ifndef HPART_TEST_DIR
#error "HPART_TEST_DIR must name a scratch directory"
#endif

namespace {

using hpart::testing::World;

std::string scratch(const std::string& name) {
  return hpart::testing::scratch_path(HPART_TEST_DIR, "graph_binary", name);
}

// Rank 0 of the world writes `bytes`; everyone waits for it.
std::string write_file(const std::string& name, const std::string& bytes) {
  const std::string path = scratch(name);
  if (World().rank == 0) std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void expect_same(const hpart::GraphFile& a, const hpart::GraphFile& b) {
  EXPECT_EQ(a.vtxdist, b.vtxdist);
  EXPECT_EQ(a.xadj, b.xadj);
  EXPECT_EQ(a.adjncy, b.adjncy);
  EXPECT_EQ(a.vwgt, b.vwgt);
  EXPECT_EQ(a.ncon, b.ncon);
  EXPECT_EQ(a.adjwgt, b.adjwgt);
  EXPECT_EQ(a.vsize, b.vsize);
  EXPECT_EQ(a.global_vertices, b.global_vertices);
  EXPECT_EQ(a.global_edges, b.global_edges);
}

// Graphs that cover what the formats carry: plain; both weights with ncon 2 and vertex sizes
// (fmt 111), an isolated vertex in the middle and one at the end; one edge (a rank without
// vertices from np 3 on); no vertex at all.
struct Case {
  const char* name;
  const char* text;
};
const Case kCases[] = {
    {"plain", "% a 5-cycle\n5 5\n2 5\n1 3\n2 4\n3 5\n4 1\n"},
    {"weighted", "6 4 111 2\n3 5 1 2 7 3 1\n1 0 4 1 7 5 2\n2 1 1 1 1\n4 2 2\n1 3 1 6 9 2 2\n1 1 2 5 9\n"},
    {"isolated", "7 2 001\n2 4\n1 4\n\n\n7 8\n\n5 8\n"},
    {"two", "2 1\n2\n1\n"},
    {"empty", "0 0\n"},
};

TEST(GraphBinary, MetisToBinaryToMetisGivesTheSameBlocks) {
  const World w;
  const hpart::Comm comm(MPI_COMM_WORLD);
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    const std::string text = write_file(std::string(c.name) + ".graph", c.text);
    const hpart::GraphFile original = hpart::read_graph_metis(comm, text);
    const std::string bin = scratch(std::string(c.name) + ".hgraph");
    hpart::write_graph_binary(comm, bin, original);
    const hpart::GraphFile from_binary = hpart::read_graph_binary(comm, bin);
    expect_same(original, from_binary);
    // The same graph lent at 32 bits (ids, offsets, weights) writes the same file, in both formats.
    const hpart::testing::All32 narrow(original);
    const std::string bin32 = scratch(std::string(c.name) + ".32.hgraph");
    hpart::write_graph_binary(comm, bin32, narrow.g, original.vsize);
    if (w.rank == 0) {
      EXPECT_EQ(read_bytes(bin32), read_bytes(bin));
    }
    const std::string text32 = scratch(std::string(c.name) + ".32.graph");
    hpart::write_graph_metis(comm, text32, narrow.g, original.vsize);
    expect_same(original, hpart::read_graph_metis(comm, text32));
    // read_graph tells the binary by its magic, whatever the name.
    const std::string renamed = scratch(std::string(c.name) + ".bin.graph");
    if (w.rank == 0) std::ofstream(renamed, std::ios::binary | std::ios::trunc) << read_bytes(bin);
    MPI_Barrier(MPI_COMM_WORLD);
    expect_same(original, hpart::read_graph(comm, renamed));
    // And back to text: the same graph again; for these files (written as METIS writes them)
    // the same bytes, apart from comments.
    const std::string back = scratch(std::string(c.name) + ".back.graph");
    hpart::write_graph_metis(comm, back, from_binary);
    expect_same(original, hpart::read_graph_metis(comm, back));
    expect_same(original, hpart::read_graph(comm, back));
  }
  const std::string back = read_bytes(scratch("weighted.back.graph"));
  EXPECT_EQ(back, kCases[1].text);
}

// Coordinates and a vtxdist that is not the reader's blocks (rank 0 holds everything): written
// as given, read back in blocks.
TEST(GraphBinary, CoordinatesAndAnyDistributionAreWritten) {
  const World w;
  const hpart::Comm comm(MPI_COMM_WORLD);
  // The path 0 - 1 - 2 - 3 on rank 0, coordinates (v, 2v).
  hpart::GraphFile f;
  f.vtxdist.assign(static_cast<std::size_t>(w.size) + 1, 4);
  f.vtxdist[0] = 0;
  if (w.rank == 0) {
    f.xadj = {0, 1, 3, 5, 6};
    f.adjncy = {1, 0, 2, 1, 3, 2};
    f.coords = {0, 0, 1, 2, 2, 4, 3, 6};
  } else {
    f.xadj = {0};
  }
  f.dim = 2;
  const std::string bin = scratch("coords.hgraph");
  hpart::write_graph_binary(comm, bin, f);
  const hpart::GraphFile g = hpart::read_graph_binary(comm, bin);
  EXPECT_EQ(g.global_vertices, 4);
  EXPECT_EQ(g.global_edges, 3);
  EXPECT_EQ(g.dim, 2);
  const auto r = static_cast<std::size_t>(w.rank);
  ASSERT_EQ(g.coords.size(), 2 * static_cast<std::size_t>(g.vtxdist[r + 1] - g.vtxdist[r]));
  for (std::size_t i = 0; i < g.coords.size() / 2; ++i) {
    const auto v = static_cast<double>(g.vtxdist[r] + static_cast<hpart::gid_t>(i));
    EXPECT_EQ(g.coords[2 * i], v);
    EXPECT_EQ(g.coords[2 * i + 1], 2 * v);
  }
}

// Written by 2 ranks, read by 3 (and by every rank count of the run): the same graph as the text.
TEST(GraphBinary, WrittenAtOneRankCountReadAtAnother) {
  const World w;
  const std::string text = write_file("cross.graph", kCases[1].text);
  const std::string bin = scratch("cross.hgraph");
  MPI_Comm two;
  MPI_Comm_split(MPI_COMM_WORLD, w.rank < 2 ? 0 : MPI_UNDEFINED, w.rank, &two);
  if (two != MPI_COMM_NULL) {
    const hpart::Comm comm(two);
    hpart::write_graph_binary(comm, bin, hpart::read_graph_metis(comm, text));
    MPI_Comm_free(&two);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const hpart::Comm world(MPI_COMM_WORLD);
  expect_same(hpart::read_graph_metis(world, text), hpart::read_graph_binary(world, bin));
  MPI_Comm three;
  MPI_Comm_split(MPI_COMM_WORLD, w.rank < 3 ? 0 : MPI_UNDEFINED, w.rank, &three);
  if (three != MPI_COMM_NULL) {
    const hpart::Comm comm(three);
    expect_same(hpart::read_graph_metis(comm, text), hpart::read_graph_binary(comm, bin));
    MPI_Comm_free(&three);
  }
}

// The binary of the weighted case, to damage.
std::string good_binary() {
  const hpart::Comm comm(MPI_COMM_WORLD);
  const std::string bin = scratch("good.hgraph");
  hpart::write_graph_binary(comm, bin, hpart::read_graph_metis(comm, write_file("good.graph", kCases[1].text)));
  return read_bytes(bin);
}

template <class T>
void poke(std::string& bytes, std::size_t offset, T value) {
  std::memcpy(bytes.data() + offset, &value, sizeof value);
}

TEST(GraphBinary, DamagedFilesAreTheSameErrorEverywhere) {
  const hpart::Comm comm(MPI_COMM_WORLD);
  const std::string good = good_binary();
  // 6 vertices, 4 edges (8 entries), 32-bit ids: xadj at 64, adjncy at 64 + 7 * 8 = 120; then
  // vwgt (ncon 2), adjwgt, vsize: 360 bytes. Offsets: 0 2 4 5 5 7 8.
  ASSERT_EQ(good.size(), 64 + 7 * 8 + 8 * 4 + 6 * 2 * 8 + 8 * 8 + 6 * 8);
  auto expect = [&](const std::string& name, const std::string& bytes, const std::string& what) {
    const std::string path = write_file(name, bytes);
    hpart::testing::expect_error_everywhere([&] { (void)hpart::read_graph_binary(comm, path); }, path + ": " + what);
    hpart::testing::expect_error_everywhere([&] { (void)hpart::read_graph(comm, path); }, path + ": " + what);
  };
  expect("truncated.hgraph", good.substr(0, good.size() - 8),
         "truncated file: the header says 6 vertices and 4 edges, which take 360 bytes, but the file has 352");
  expect("header_only.hgraph", good.substr(0, 30), "truncated file: 30 bytes, shorter than the 64-byte header");
  expect("longer.hgraph", good + "x", "the header says 6 vertices and 4 edges, which take 360 bytes, but the file has 361");
  std::string magic = good;
  magic[0] = 'X';
  expect("magic.hgraph", magic, "not an hpart binary graph (wrong magic");
  std::string version = good;
  poke<std::uint32_t>(version, 8, 7);
  expect("version.hgraph", version, "unsupported version 7 (this hpart reads version 1)");
  std::string order = good;
  poke<std::uint32_t>(order, 12, 0x04030201);
  expect("order.hgraph", order, "written on a machine of the other byte order");
  std::string xadj = good;
  poke<std::int64_t>(xadj, 64 + 3 * 8, 1);  // xadj[3] = 1 after xadj[2] = 4
  expect("xadj.hgraph", xadj, "xadj[3] = 1 is less than xadj[2] = 4 (offsets must not decrease)");
  std::string end = good;
  poke<std::int64_t>(end, 64 + 6 * 8, 6);
  expect("xadj_end.hgraph", end, "xadj[6] = 6 is less than xadj[5] = 7");
  std::string beyond = good;
  poke<std::int64_t>(beyond, 64 + 5 * 8, 9);
  expect("xadj_beyond.hgraph", beyond, "xadj[5] = 9 is outside [0, 2M = 8]");
  std::string id = good;
  poke<std::int32_t>(id, 120 + 4 * 4, 6);  // vertex 2's first neighbour
  expect("id.hgraph", id, "vertex 2 lists neighbour 6, outside [0, N = 6) (ids are 0-based)");
  std::string negative = good;
  poke<std::int32_t>(negative, 120, -1);
  expect("negative_id.hgraph", negative, "vertex 0 lists neighbour -1, outside [0, N = 6)");
  expect("missing.hgraph", std::string(), "not an hpart binary graph (wrong magic");
}

// The writers validate what they write: an asymmetric graph is refused on every rank, and no
// file is left half written by some ranks.
TEST(GraphBinary, WritersRefuseInvalidGraphs) {
  const World w;
  const hpart::Comm comm(MPI_COMM_WORLD);
  hpart::GraphFile f;
  f.vtxdist.assign(static_cast<std::size_t>(w.size) + 1, 2);
  f.vtxdist[0] = 0;
  f.xadj = w.rank == 0 ? std::vector<std::int64_t>{0, 1, 1} : std::vector<std::int64_t>{0};
  if (w.rank == 0) f.adjncy = {1};  // 0 lists 1, 1 lists nobody
  hpart::testing::expect_error_everywhere([&] { hpart::write_graph_binary(comm, scratch("bad.hgraph"), f); },
                                          "asymmetric");
  hpart::testing::expect_error_everywhere([&] { hpart::write_graph_metis(comm, scratch("bad.graph"), f); },
                                          "asymmetric");
}

}  // namespace
