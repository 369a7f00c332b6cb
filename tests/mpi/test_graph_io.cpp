// Graph files at any rank count: every shared graph reads to the same global graph, blocks follow
// vtxdist, and every malformed file is the same hpart::Error on every rank, naming file and line.
// validate_graph is also run on hand-built distributed graphs whose defects cross ranks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "hpart/graph.hpp"
#include "test_world.hpp"

#ifndef HPART_TEST_DIR
#error "HPART_TEST_DIR must name a scratch directory"
#endif
#ifndef HPART_GRAPH_DATA_DIR
#error "HPART_GRAPH_DATA_DIR must name the shared graph directory (it may be absent)"
#endif

namespace {

// A communicator with this process's rank and the size, as the tests use them.
struct Ctx {
  MPI_Comm comm;
  int rank = 0, size = 1;
};
Ctx ctx(MPI_Comm comm = MPI_COMM_WORLD) {
  Ctx c{comm};
  MPI_Comm_rank(comm, &c.rank);
  MPI_Comm_size(comm, &c.size);
  return c;
}

std::string scratch(const std::string& name) {
  return hpart::testing::scratch_path(HPART_TEST_DIR, "graph_io", name);
}

// Rank 0 writes `text` to a scratch file; everyone waits for it.
std::string write_file(const Ctx& c, const std::string& name, const std::string& text) {
  const std::string path = scratch(name);
  if (c.rank == 0) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << text;
  }
  MPI_Barrier(c.comm);
  return path;
}

using Reader = hpart::GraphFile (*)(const hpart::Comm&, const std::string&);

// The hpart::Error `call` throws, if any.
std::optional<hpart::Error> error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const hpart::Error& e) {
    return e;
  }
  return std::nullopt;
}

// Expects `call` to throw an hpart::Error of `code` on every rank, with the same text everywhere,
// containing each of `parts`. No ASSERT before the reductions: a rank leaving early would hang.
void expect_error(const Ctx& c, const std::function<void()>& call, const std::vector<std::string>& parts,
                  hpart::ErrorCode code = hpart::ErrorCode::io) {
  const std::optional<hpart::Error> e = error_of(call);
  const std::string what = e ? e->what() : "";
  EXPECT_TRUE(e.has_value()) << "rank " << c.rank << ": no error";
  EXPECT_EQ(static_cast<int>(e ? e->code() : hpart::ErrorCode::ok), static_cast<int>(code)) << what;
  for (const std::string& p : parts) EXPECT_NE(what.find(p), std::string::npos) << "rank " << c.rank << ": " << what;
  std::uint64_t h = std::hash<std::string>{}(what), lo = h, hi = h;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_UINT64_T, MPI_MIN, c.comm);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_UINT64_T, MPI_MAX, c.comm);
  EXPECT_EQ(lo, hi) << "rank " << c.rank << " has a different message: " << what;
}

void expect_file_error(const Ctx& c, const std::string& name, const std::string& text,
                       const std::vector<std::string>& parts, Reader read = hpart::read_graph_metis) {
  const std::string path = write_file(c, name, text);
  std::vector<std::string> all = parts;
  all.insert(all.begin(), path);
  expect_error(c, [&] { (void)read(hpart::Comm(c.comm), path); }, all);
}

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Sum over vertices of a hash of (global id, sorted (neighbour, weight) list, vertex weights):
// the same for any distribution of the same global graph.
std::uint64_t checksum(const Ctx& c, const hpart::GraphFile& f) {
  std::uint64_t sum = 0;
  const hpart::gid_t base = f.vtxdist[static_cast<std::size_t>(c.rank)];
  const std::size_t n = f.xadj.empty() ? 0 : f.xadj.size() - 1;
  for (std::size_t v = 0; v < n; ++v) {
    std::vector<std::pair<hpart::gid_t, std::int64_t>> row;
    for (auto e = static_cast<std::size_t>(f.xadj[v]); e < static_cast<std::size_t>(f.xadj[v + 1]); ++e)
      row.emplace_back(f.adjncy[e], f.adjwgt.empty() ? 1 : f.adjwgt[e]);
    std::sort(row.begin(), row.end());
    std::uint64_t h = mix(static_cast<std::uint64_t>(base) + v);
    for (const auto& [u, w] : row) h = mix(h ^ static_cast<std::uint64_t>(u)) + static_cast<std::uint64_t>(w);
    for (int k = 0; k < (f.vwgt.empty() ? 0 : f.ncon); ++k)
      h = mix(h + static_cast<std::uint64_t>(f.vwgt[v * static_cast<std::size_t>(f.ncon) + static_cast<std::size_t>(k)]));
    sum += h;
  }
  MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_UINT64_T, MPI_SUM, c.comm);
  return sum;
}

// The reader's contract: block vtxdist, local sizes, CSR lengths, and a valid graph.
void expect_blocks(const Ctx& c, const hpart::GraphFile& f, hpart::gid_t n) {
  // EXPECT, not ASSERT: every rank must reach validate_graph, a collective.
  std::vector<hpart::gid_t> blocks;
  for (int r = 0; r <= c.size; ++r) blocks.push_back(n * r / c.size);
  EXPECT_EQ(f.vtxdist, blocks);
  const auto mine = static_cast<std::size_t>(blocks[static_cast<std::size_t>(c.rank) + 1] -
                                             blocks[static_cast<std::size_t>(c.rank)]);
  EXPECT_EQ(f.xadj.size(), mine + 1);
  EXPECT_EQ(f.adjncy.size(), static_cast<std::size_t>(f.xadj.back()));
  if (!f.adjwgt.empty()) {
    EXPECT_EQ(f.adjwgt.size(), f.adjncy.size());
  }
  if (!f.vwgt.empty()) {
    EXPECT_EQ(f.vwgt.size(), mine * static_cast<std::size_t>(f.ncon));
  }
  EXPECT_EQ(f.global_vertices, n);
  EXPECT_NO_THROW(hpart::validate_graph(hpart::Comm(c.comm), f.view()));
}

// "n m" of a METIS file, read serially (the first line that is not a comment).
std::pair<long long, long long> header_of(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line) && (line.empty() || line[0] == '%')) {
  }
  std::istringstream s(line);
  long long n = -1, m = -1;
  s >> n >> m;
  return {n, m};
}

// A path 1 - 2 - ... - k as METIS text, with a header that claims n vertices and k - 1 edges.
std::string path_graph(long long k, long long n) {
  std::string t = std::to_string(n) + " " + std::to_string(k - 1) + "\n";
  for (long long v = 1; v <= k; ++v) {
    if (v > 1) t += std::to_string(v - 1) + " ";
    if (v < k) t += std::to_string(v + 1);
    t += "\n";
  }
  return t;
}

}  // namespace

TEST(GraphFiles, SharedGraphsReadAlikeOnAnyRankCount) {
  const Ctx c = ctx();
  namespace fs = std::filesystem;
  if (!fs::is_directory(HPART_GRAPH_DATA_DIR)) GTEST_SKIP() << HPART_GRAPH_DATA_DIR << " is absent";
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(HPART_GRAPH_DATA_DIR))
    if (e.path().extension() == ".graph" || e.path().extension() == ".mgraph") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());
  // Each rank alone reads the file too: the distributed graph must be the same global graph.
  MPI_Comm alone;
  MPI_Comm_split(c.comm, c.rank, 0, &alone);
  const Ctx single = ctx(alone);
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    const auto [n, m] = header_of(path);
    const hpart::GraphFile f = hpart::read_graph_metis(hpart::Comm(c.comm), path);
    expect_blocks(c, f, n);
    EXPECT_EQ(f.global_edges, m);
    long long entries = static_cast<long long>(f.adjncy.size());
    MPI_Allreduce(MPI_IN_PLACE, &entries, 1, MPI_LONG_LONG, MPI_SUM, c.comm);
    EXPECT_EQ(entries, 2 * m);
    const hpart::GraphFile whole = hpart::read_graph_metis(hpart::Comm(alone), path);
    EXPECT_EQ(checksum(c, f), checksum(single, whole));
    if (path.ends_with("test.mgraph")) {
      EXPECT_EQ(f.ncon, 2);
      EXPECT_EQ(f.vwgt.size(), 2 * (f.xadj.size() - 1));
      EXPECT_TRUE(f.adjwgt.empty());
    }
  }
  MPI_Comm_free(&alone);
}

TEST(GraphFiles, WeightsCommentsAndEmptyLines) {
  const Ctx c = ctx();
  // fmt 011, ncon 1: vertex weight first, then (neighbour, edge weight); vertex 4 is isolated;
  // comments anywhere count for line numbers but are no vertices.
  const std::string path = write_file(c, "weighted", "% a triangle and a lonely vertex\n4 3 011\n5 2 7 3 1\n% mid\n0 1 7 3 2\n"
                                                     "2 1 1 2 2\n3\n");
  const hpart::GraphFile f = hpart::read_graph_metis(hpart::Comm(c.comm), path);
  expect_blocks(c, f, 4);
  EXPECT_EQ(f.global_edges, 3);
  EXPECT_EQ(f.ncon, 1);
  // Each rank's vertex weights are those of its block.
  const std::vector<std::int64_t> vw{5, 0, 2, 3};
  for (std::size_t v = 0; v + 1 < f.xadj.size(); ++v)
    EXPECT_EQ(f.vwgt[v], vw[static_cast<std::size_t>(f.vtxdist[static_cast<std::size_t>(c.rank)]) + v]);
}

TEST(GraphFiles, ARankWithoutVerticesIsFine) {
  const Ctx c = ctx();
  const std::string path = write_file(c, "two", "2 1\n2\n1\n");
  const hpart::GraphFile f = hpart::read_graph_metis(hpart::Comm(c.comm), path);
  expect_blocks(c, f, 2);  // at np 3 rank 0 owns nothing; at np 4 ranks 0 and 2
  const std::string empty = write_file(c, "empty", "% nothing\n0 0\n");
  const hpart::GraphFile e = hpart::read_graph_metis(hpart::Comm(c.comm), empty);
  expect_blocks(c, e, 0);
}

TEST(GraphFiles, LongFilesSplitOverRanksKeepGlobalLineNumbers) {
  const Ctx c = ctx();
  const std::string text = path_graph(3000, 3000);
  const std::string path = write_file(c, "long_path", text);
  const hpart::GraphFile f = hpart::read_graph_metis(hpart::Comm(c.comm), path);
  expect_blocks(c, f, 3000);
  EXPECT_EQ(f.global_edges, 2999);
  // An error near the end is on the last rank's byte range; its line is a line of the file.
  std::string bad = text;
  bad.replace(bad.rfind("2998 3000"), 9, "2998 x000");
  expect_file_error(c, "long_path_bad", bad, {":3000: neighbour 2: 'x000' is not a number"});
}

TEST(GraphFiles, ChacoFilesMayNumberTheirLines) {
  const Ctx c = ctx();
  const std::string path = write_file(c, "chaco", "3 2 100\n1 2\n2 1 3\n3 2\n");
  const hpart::GraphFile f = hpart::read_graph_chaco(hpart::Comm(c.comm), path);
  expect_blocks(c, f, 3);
  expect_file_error(c, "chaco_bad", "3 2 100\n1 2\n3 1 3\n3 2\n", {":3: starts with vertex number 3"},
                    hpart::read_graph_chaco);
  expect_file_error(c, "chaco_ncon", "3 2 010 2\n", {":1: header has 4 values; a Chaco header"}, hpart::read_graph_chaco);
}

TEST(GraphFiles, MalformedMetisFilesNameFileAndLine) {
  const Ctx c = ctx();
  expect_file_error(c, "asym", "3 1\n2\n1 3\n\n", {":3: asymmetric: vertex 2 lists 3 but 3 (line 4) does not list 2"});
  expect_file_error(c, "asym_weight", "2 1 1\n2 3\n1 4\n", {"asymmetric edge weight: vertex 1 lists 2 with weight 3",
                                                            "lists 1 with weight 4"});
  expect_file_error(c, "duplicate", "2 1\n2 2\n1\n", {":2: vertex 1 lists 2 more than once"});
  expect_file_error(c, "range", "3 2\n2\n1 4\n2\n", {":3: neighbour 4 is out of range [1, 3]"});
  expect_file_error(c, "negative", "2 1 10\n1 2\n-1 1\n", {":3: vertex weight -1 is negative"});
  expect_file_error(c, "zero_weight", "2 1 1\n2 0\n1 0\n", {":2: edge weight 0 (to neighbour 2) must be > 0"});
  expect_file_error(c, "self_loop", "2 1\n1\n1\n", {":2: vertex 1 lists itself"});
  expect_file_error(c, "edge_count", "3 3\n2\n1 3\n2\n",
                    {":1: the header says m = 3 edges, but the vertex lines list 2 (4 neighbours"});
  expect_file_error(c, "truncated", path_graph(97, 100), {"truncated file: the header (line 1) says 100 vertices, found 97"});
  expect_file_error(c, "too_many", "2 1\n2\n1\n1\n", {":4: more vertex lines than the header's n = 2"});
  expect_file_error(c, "nan", "% c\n3 2\n% c\n2\n1 x\n2\n", {":5: neighbour 2: 'x' is not a number"});
  expect_file_error(c, "header", "3 two\n", {":1: edge count m: 'two' is not a number"});
  expect_file_error(c, "fmt", "3 2 21\n", {":1: fmt '21' must be up to three 0/1 digits"});
  expect_file_error(c, "no_header", "% only a comment\n\n", {"no header line"});
  expect_file_error(c, "blank", "", {"no header line"});
  expect_error(c, [&] { (void)hpart::read_graph_metis(hpart::Comm(c.comm), scratch("does_not_exist")); },
               {"cannot open", "does_not_exist"});
}

TEST(MatrixMarket, SymmetricAndGeneralMatricesBecomeTheSameGraph) {
  const Ctx c = ctx();
  // The graph: 1-2, 1-3, 2-3, 3-4, 4-5 (and 6 isolated). Symmetric: one triangle plus diagonal.
  const std::string sym = write_file(c, "mm_sym", "%%MatrixMarket matrix coordinate real symmetric\n% comment\n"
                                                  "6 6 7\n1 1 4.0\n2 1 -1\n3 1 -1\n3 2 -1\n\n4 3 -1e0\n5 4 -1\n5 5 2\n");
  // General: both triangles, one entry repeated, a pattern field; no values.
  const std::string gen = write_file(c, "mm_gen", "%%MatrixMarket matrix coordinate pattern general\n6 6 9\n1 2\n2 1\n"
                                                  "1 3\n3 2\n2 3\n4 3\n4 5\n4 5\n6 6\n");
  const hpart::Comm comm(c.comm);
  const hpart::GraphFile a = hpart::read_graph_matrix_market(comm, sym);
  const hpart::GraphFile b = hpart::read_graph_matrix_market(comm, gen);
  expect_blocks(c, a, 6);
  expect_blocks(c, b, 6);
  EXPECT_EQ(a.global_edges, 5);
  EXPECT_EQ(b.global_edges, 5);
  EXPECT_EQ(a.adjncy, b.adjncy);
  EXPECT_EQ(a.xadj, b.xadj);
  EXPECT_TRUE(a.adjwgt.empty());
  // The same as the METIS file of that graph.
  const std::string metis = write_file(c, "mm_as_metis", "6 5\n2 3\n1 3\n1 2 4\n3 5\n4\n\n");
  EXPECT_EQ(checksum(c, a), checksum(c, hpart::read_graph_metis(comm, metis)));
}

TEST(MatrixMarket, MalformedFilesNameFileAndLine) {
  const Ctx c = ctx();
  const Reader mm = hpart::read_graph_matrix_market;
  const std::string banner = "%%MatrixMarket matrix coordinate real general\n";
  expect_file_error(c, "mm_array", "%%MatrixMarket matrix array real general\n3 3\n1\n2\n3\n4\n5\n6\n7\n8\n9\n",
                    {":1: dense 'array' MatrixMarket files are not supported"}, mm);
  expect_file_error(c, "mm_banner", "3 2\n2\n1 3\n2\n", {":1: not a MatrixMarket file"}, mm);
  expect_file_error(c, "mm_square", banner + "3 4 1\n1 2 1\n", {":2: the matrix is 3 x 4: a graph needs a square matrix"}, mm);
  expect_file_error(c, "mm_range", banner + "3 3 2\n1 2 1\n% c\n4 1 1\n", {":5: row index 4 is out of range [1, 3]"}, mm);
  expect_file_error(c, "mm_nan", banner + "3 3 2\n1 2 1\n2 1 one\n", {":4: value 'one' is not a number"}, mm);
  expect_file_error(c, "mm_truncated", banner + "3 3 3\n1 2 1\n2 1 1\n",
                    {"truncated file: the size line (line 2) says nnz = 3 entries, found 2"}, mm);
  expect_file_error(c, "mm_extra", banner + "3 3 1\n1 2 1\n2 1 1\n", {":4: more entry lines than the size line's nnz = 1"},
                    mm);
  expect_file_error(c, "mm_values", banner + "3 3 1\n1 2\n", {":3: has 0 values after i j"}, mm);
}

namespace {

// Runs `body` on the world and on each half of it (a sub-communicator; the tag names its files).
void on_world_and_halves(const std::function<void(const Ctx&, const std::string& tag)>& body) {
  body(ctx(), "_world");
  const hpart::testing::HalfWorld half;
  body(ctx(half.comm), "_half" + std::to_string(half.colour));
}

// HPART_MEMORY_LIMIT for the scope (every rank sets it, so the memory checks agree).
struct MemoryLimit {
  explicit MemoryLimit(const char* limit) { setenv("HPART_MEMORY_LIMIT", limit, 1); }
  ~MemoryLimit() { unsetenv("HPART_MEMORY_LIMIT"); }
  MemoryLimit(const MemoryLimit&) = delete;
  MemoryLimit& operator=(const MemoryLimit&) = delete;
};

const std::string kPatternBanner = "%%MatrixMarket matrix coordinate pattern general\n";

}  // namespace

TEST(GraphFileSizes, DeclaredSizesBeyondMemoryAreAnErrorEverywhere) {
  on_world_and_halves([](const Ctx& c, const std::string& tag) {
    const hpart::Comm comm(c.comm);
    // A valid MatrixMarket file: N = 3e9 rows, one entry. The offsets of each rank's block of
    // vertices (8 bytes each) do not fit 1 GiB at np 1-4: the memory message, never bad_alloc.
    const std::string huge = write_file(c, "mm_huge" + tag, kPatternBanner + "3000000000 3000000000 1\n1 2\n");
    {
      const MemoryLimit limit("1G");
      expect_error(c, [&] { (void)hpart::read_graph_matrix_market(comm, huge); },
                   {"reading '" + huge + "' (3000000000 vertices, ", " needs ", "use more ranks"},
                   hpart::ErrorCode::invalid_input);
    }
    // The same shape with 2,000,000 rows fits, and reads.
    const std::string sparse = write_file(c, "mm_sparse" + tag, kPatternBanner + "2000000 2000000 1\n1 2\n");
    const hpart::GraphFile f = hpart::read_graph_matrix_market(comm, sparse);
    expect_blocks(c, f, 2000000);
    EXPECT_EQ(f.global_edges, 1);
    // METIS and Chaco: an n beyond the lines present is a truncated file, not an allocation.
    for (const Reader read : {Reader{hpart::read_graph_metis}, Reader{hpart::read_graph_chaco}}) {
      const std::string path = write_file(c, "metis_huge" + tag, "3000000000 1\n2\n1\n");
      expect_error(c, [&] { (void)read(comm, path); },
                   {path + ": truncated file: the header (line 1) says 3000000000 vertices, found 2"});
      // 200,000 vertex lines that are there (isolated vertices): their blocks do not fit 1 MiB.
      const std::string many = write_file(c, "metis_many" + tag, "200000 0\n" + std::string(200000, '\n'));
      {
        const MemoryLimit limit("1M");
        expect_error(c, [&] { (void)read(comm, many); }, {"reading '" + many + "' (200000 vertices, ", " needs "},
                     hpart::ErrorCode::invalid_input);
      }
      expect_blocks(c, read(comm, many), 200000);
    }
  });
}

TEST(GraphFileEmptyRanks, FewerVerticesThanRanks) {
  on_world_and_halves([](const Ctx& c, const std::string& tag) {
    const hpart::Comm comm(c.comm);
    const std::string mm0 = write_file(c, "mm0" + tag, kPatternBanner + "0 0 0\n");
    expect_blocks(c, hpart::read_graph_matrix_market(comm, mm0), 0);
    const std::string mm1 = write_file(c, "mm1" + tag, kPatternBanner + "1 1 1\n1 1\n");  // the diagonal: no edge
    const hpart::GraphFile one = hpart::read_graph_matrix_market(comm, mm1);
    expect_blocks(c, one, 1);
    EXPECT_EQ(one.global_edges, 0);
    const std::string mm2 = write_file(c, "mm2" + tag, kPatternBanner + "2 2 1\n2 1\n");
    const hpart::GraphFile two = hpart::read_graph_matrix_market(comm, mm2);
    expect_blocks(c, two, 2);
    EXPECT_EQ(two.global_edges, 1);
    const std::string metis1 = write_file(c, "metis1" + tag, "1 0\n\n");
    expect_blocks(c, hpart::read_graph_metis(comm, metis1), 1);
    const std::string chaco2 = write_file(c, "chaco2" + tag, "2 1 100\n1 2\n2 1\n");
    expect_blocks(c, hpart::read_graph_chaco(comm, chaco2), 2);
  });
}

TEST(GraphFileArguments, PathsMustAgreeAcrossRanks) {
  on_world_and_halves([](const Ctx& c, const std::string& tag) {
    if (c.size < 2) return;  // nothing to disagree with
    const hpart::Comm comm(c.comm);
    const std::string path = write_file(c, "agree" + tag, "2 1\n2\n1\n");
    const std::string other = path + (c.rank == 1 ? ".other" : "");
    for (const Reader read : {Reader{hpart::read_graph_metis}, Reader{hpart::read_graph_chaco},
                              Reader{hpart::read_graph_matrix_market}})
      expect_error(c, [&] { (void)read(comm, other); }, {"file path differs between ranks"},
                   hpart::ErrorCode::invalid_argument);
  });
}

namespace {

// A ring of 4 vertices per rank in ParMETIS arrays, edge weight 1 + the lower end's id.
struct Ring {
  std::vector<hpart::gid_t> vtxdist, adjncy;
  std::vector<std::int64_t> xadj{0}, adjwgt, vwgt;
  explicit Ring(const Ctx& c) {
    const hpart::gid_t n = 4 * c.size;
    for (int r = 0; r <= c.size; ++r) vtxdist.push_back(4 * r);
    for (hpart::gid_t v = vtxdist[static_cast<std::size_t>(c.rank)]; v < vtxdist[static_cast<std::size_t>(c.rank) + 1]; ++v) {
      for (const hpart::gid_t u : {(v + n - 1) % n, (v + 1) % n}) {
        adjncy.push_back(u);
        adjwgt.push_back(1 + std::min(u, v));
      }
      xadj.push_back(static_cast<std::int64_t>(adjncy.size()));
      vwgt.push_back(1);
    }
  }
  [[nodiscard]] hpart::Graph view() const { return hpart::Graph{vtxdist, xadj, adjncy, vwgt, 1, adjwgt, {}, 0, {}}; }
};

}  // namespace

TEST(ValidateGraph, DefectsAcrossRanksAreTheSameErrorEverywhere) {
  const Ctx c = ctx();
  const hpart::Comm comm(c.comm);
  const bool first = c.rank == 0, last = c.rank == c.size - 1;
  const std::string n = std::to_string(4 * c.size), top = std::to_string(4 * c.size - 1);
  auto expect_invalid = [&](const Ring& g, const std::string& what, hpart::ErrorCode code = hpart::ErrorCode::invalid_input) {
    expect_error(c, [&] { hpart::validate_graph(comm, g.view()); }, {what}, code);
  };
  EXPECT_NO_THROW(hpart::validate_graph(comm, Ring(c).view()));

  Ring missing(c);  // vertex 0 (rank 0) lists 2 instead of the last vertex (the last rank)
  if (first) missing.adjncy[0] = 2;
  expect_invalid(missing, "asymmetric: vertex " + top + " lists 0 but 0 does not list " + top);
  Ring weight(c);  // the last vertex weighs the edge to 0 differently
  if (last) weight.adjwgt.back() = 7;
  expect_invalid(weight, "asymmetric edge weight: vertex 0 lists " + top + " with weight 1, but " + top +
                             " lists 0 with weight 7");
  Ring twice(c);  // the last vertex lists 0 twice
  if (last) twice.adjncy[twice.adjncy.size() - 2] = 0, twice.adjwgt[twice.adjwgt.size() - 2] = 1;
  expect_invalid(twice, "vertex " + top + " lists 0 more than once");
  // Both ends list the edge twice: symmetric as a multiset (the hashed screen alone passes it),
  // still a duplicate.
  auto add_entry = [](Ring& g, std::size_t v, hpart::gid_t u, std::int64_t w) {
    const auto at = static_cast<std::ptrdiff_t>(g.xadj[v + 1]);
    g.adjncy.insert(g.adjncy.begin() + at, u);
    g.adjwgt.insert(g.adjwgt.begin() + at, w);
    for (std::size_t i = v + 1; i < g.xadj.size(); ++i) ++g.xadj[i];
  };
  Ring doubled(c);
  if (first) add_entry(doubled, 0, 1, 1), add_entry(doubled, 1, 0, 1);
  expect_invalid(doubled, "vertex 0 lists 1 more than once");

  // Structure wrong on one rank only: still an error on every rank.
  Ring range(c);
  if (last) range.adjncy[0] = 4 * c.size;
  expect_invalid(range, "lists " + n + ", outside [0, " + n + ")");
  Ring loop(c);
  if (last) loop.adjncy[0] = loop.vtxdist[static_cast<std::size_t>(c.rank)];
  expect_invalid(loop, "lists itself");
  Ring vw(c);
  if (last) vw.vwgt[0] = -1;
  expect_invalid(vw, "vertex weights must be >= 0");
  Ring ew(c);
  if (last) ew.adjwgt[0] = 0;
  expect_invalid(ew, "edge weights must be > 0");
  Ring xadj(c);
  if (last) xadj.xadj.pop_back();
  expect_invalid(xadj, "xadj has", hpart::ErrorCode::size_mismatch);
  Ring adj(c);
  if (last) adj.adjwgt.pop_back();
  expect_invalid(adj, "adjwgt has", hpart::ErrorCode::size_mismatch);
  if (c.size > 1) {
    Ring differs(c);
    if (last) differs.vtxdist[1] += 1;
    expect_invalid(differs, "vtxdist differs between ranks", hpart::ErrorCode::invalid_argument);
  }
  Ring longer(c);
  longer.vtxdist.push_back(4 * c.size);
  expect_invalid(longer, "vtxdist has", hpart::ErrorCode::invalid_argument);
  const Ring ok(c);
  hpart::Graph no_con = ok.view();
  no_con.ncon = 0;
  expect_error(c, [&] { hpart::validate_graph(comm, no_con); }, {"ncon"}, hpart::ErrorCode::invalid_argument);
}

TEST(ValidateGraph, WorksOnSubCommunicatorsWithCoordinates) {
  const Ctx world = ctx();
  MPI_Comm half;
  MPI_Comm_split(world.comm, world.rank % 2, world.rank, &half);
  const Ctx c = ctx(half);
  const Ring g(c);
  EXPECT_NO_THROW(hpart::validate_graph(hpart::Comm(half), g.view()));
  std::vector<double> coords(4 * 2, 0.5);
  hpart::Graph with = g.view();
  with.coords = coords;
  with.dim = 2;
  EXPECT_NO_THROW(hpart::validate_graph(hpart::Comm(half), with));
  with.dim = 3;
  expect_error(c, [&] { hpart::validate_graph(hpart::Comm(half), with); }, {"coords has 8 values"},
               hpart::ErrorCode::size_mismatch);
  with.dim = 2;
  if (c.rank == 0) coords[3] = std::numeric_limits<double>::quiet_NaN();
  expect_error(c, [&] { hpart::validate_graph(hpart::Comm(half), with); }, {"coordinate 1 of vertex 1 is not finite"},
               hpart::ErrorCode::invalid_input);
  MPI_Comm_free(&half);
}

// METIS vertex sizes (fmt 1xx) are kept per vertex, in the blocks of the vertices, for
// repartition_graph's migration cost; Chaco's leading number is its vertex number, not a size.
TEST(GraphFiles, MetisVertexSizesAreKept) {
  const Ctx c = ctx();
  const std::string path = write_file(c, "vsize", "% sizes, weights, edge weights\n4 3 111\n10 5 2 7 3 1\n% mid\n0 0 1 7 3 2\n"
                                                  "30 2 1 1 2 2\n40 3\n");
  const hpart::GraphFile f = hpart::read_graph_metis(hpart::Comm(c.comm), path);
  expect_blocks(c, f, 4);
  const std::vector<std::int64_t> sizes{10, 0, 30, 40}, weights{5, 0, 2, 3};
  const auto first = static_cast<std::size_t>(f.vtxdist[static_cast<std::size_t>(c.rank)]);
  ASSERT_EQ(f.vsize.size(), f.xadj.size() - 1);
  for (std::size_t v = 0; v < f.vsize.size(); ++v) {
    EXPECT_EQ(f.vsize[v], sizes[first + v]);
    EXPECT_EQ(f.vwgt[v], weights[first + v]);
  }
  // Without sizes in fmt, none; nor for Chaco, whose leading value numbers the line.
  EXPECT_TRUE(hpart::read_graph_metis(hpart::Comm(c.comm), write_file(c, "nosize", "2 1 010\n1 2\n1 1\n")).vsize.empty());
  EXPECT_TRUE(hpart::read_graph_chaco(hpart::Comm(c.comm), write_file(c, "chaco_size", "3 2 100\n1 2\n2 1 3\n3 2\n")).vsize.empty());
  expect_file_error(c, "vsize_negative", "2 1 100\n1 2\n-1 1\n", {":3: vertex size -1 is negative"});
}
