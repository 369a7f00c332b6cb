// What partition_graph and repartition_graph promise about determinism (docs/design.md, "What is
// deterministic"), tested both ways.
//  - Promised, asserted bit for bit: at a given rank count and vertex distribution (vtxdist), the
//    same parts for 1 and 2 OpenMP threads and for repeated calls (every method, and
//    repartition_graph); the same parts for any rank count and any distribution with method
//    metis, and with method graph when the graph has at most max(2^15, 100 K) vertices (the
//    driver then gathers it and runs the shared-memory kernel on it, as one rank runs it on its
//    own graph).
//  - Not promised, and shown: above that bound method graph coarsens and refines each rank's
//    block, so 1 and 2 ranks give other parts (checked to differ); geometric+refine and
//    repartition_graph differ by a few vertices between rank counts at any size. What holds then
//    is asserted: every result within the tolerance, its cut within 1.1x of one rank's (on a
//    mesh numbered in locality order).
// Rank counts are compared inside one run: the world's first s ranks (s = 1 .. np) partition the
// same global graph, the parts are gathered by global vertex id, and every world rank compares.
#include <gtest/gtest.h>
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "hpart/hpart.hpp"
#include "test_points.hpp"
#include "test_world.hpp"

namespace {

using hpart::gid_t;
using hpart::GraphMethod;
using hpart::part_t;
using hpart::testing::mix;
using hpart::testing::World;

// The promised bound: graphs of at most this many vertices are gathered (gather_limit in
// src/graph/distributed_multilevel.cpp). Tested at the bound and just above it.
std::int64_t gathered_up_to(int K) { return std::max<std::int64_t>(std::int64_t{1} << 15, 100LL * K); }

// How the N vertices are spread over R ranks: evenly (the readers' [N r / R, N (r+1) / R)), or
// skewed (shares 1:3 at R = 2; proportional to r from R = 3 on, so rank 0 holds none).
enum class Layout { even, skewed };

std::vector<gid_t> vtxdist_of(gid_t N, int R, Layout layout) {
  std::vector<gid_t> share(static_cast<std::size_t>(R), 1);
  if (layout == Layout::skewed)
    for (int r = 0; r < R; ++r) share[static_cast<std::size_t>(r)] = R >= 3 ? r : 2 * r + 1;
  gid_t total = 0;
  for (gid_t s : share) total += s;
  std::vector<gid_t> vtxdist{0};
  gid_t sum = 0;
  for (gid_t s : share) vtxdist.push_back(N * (sum += s) / total);
  return vtxdist;
}

// The global test graph: an nx x ny grid plus a diagonal in about 3 of 4 cells (either
// direction, hashed), so degrees range from 2 to 8 and the matchings meet few ties; vertex
// weights 1..4, edge weights 1..3 (hashed from both ends, so alike at both), coordinates on the
// grid, jittered. This rank's block of the distribution `vtxdist`.
struct Mesh {
  std::int64_t nx, ny;
  [[nodiscard]] gid_t vertices() const { return nx * ny; }
};

hpart::GraphFile mesh_block(const Mesh& m, const std::vector<gid_t>& vtxdist, int rank) {
  const std::int64_t nx = m.nx, ny = m.ny, N = m.vertices();
  // The diagonal of cell (x, y) (corners (x, y)..(x + 1, y + 1)): 0 none, 1 rising (x, y)-(x + 1,
  // y + 1), 2 falling (x + 1, y)-(x, y + 1).
  auto diagonal = [&](std::int64_t x, std::int64_t y) {
    const auto h = mix(static_cast<std::uint64_t>(y * nx + x) * 3 + 1) % 4;
    return h == 0 ? 0 : h == 3 ? 2 : 1;
  };
  hpart::GraphFile f;
  f.vtxdist = vtxdist;
  f.dim = 2;
  f.xadj.push_back(0);
  for (gid_t v = vtxdist[static_cast<std::size_t>(rank)]; v < vtxdist[static_cast<std::size_t>(rank) + 1]; ++v) {
    const std::int64_t x = v % nx, y = v / nx;
    std::vector<gid_t> row;
    if (x > 0) row.push_back(v - 1);
    if (x + 1 < nx) row.push_back(v + 1);
    if (y > 0) row.push_back(v - nx);
    if (y + 1 < ny) row.push_back(v + nx);
    if (x + 1 < nx && y + 1 < ny && diagonal(x, y) == 1) row.push_back(v + nx + 1);
    if (x > 0 && y > 0 && diagonal(x - 1, y - 1) == 1) row.push_back(v - nx - 1);
    if (x > 0 && y + 1 < ny && diagonal(x - 1, y) == 2) row.push_back(v + nx - 1);
    if (x + 1 < nx && y > 0 && diagonal(x, y - 1) == 2) row.push_back(v - nx + 1);
    std::sort(row.begin(), row.end());
    for (gid_t u : row) {
      f.adjncy.push_back(u);
      const auto edge = static_cast<std::uint64_t>(std::min(u, v) * N + std::max(u, v));
      f.adjwgt.push_back(1 + static_cast<std::int64_t>(mix(edge) % 3));
    }
    f.xadj.push_back(static_cast<std::int64_t>(f.adjncy.size()));
    f.vwgt.push_back(1 + static_cast<std::int64_t>(mix(static_cast<std::uint64_t>(v) * 5 + 2) % 4));
    f.coords.push_back(static_cast<double>(x) + 0.4 * hpart::testing::unit(3, static_cast<std::uint64_t>(v), 0));
    f.coords.push_back(static_cast<double>(y) + 0.4 * hpart::testing::unit(3, static_cast<std::uint64_t>(v), 1));
  }
  f.global_vertices = N;
  return f;
}

// One result, every vertex's part by global id, on every world rank.
struct Outcome {
  std::vector<part_t> parts;
  long long edge_cut = 0;
  double imbalance = 0.0;  // the worst constraint's
  bool within_tolerance = false;
};

// The world's first `size` ranks as one communicator (MPI_COMM_NULL on the others).
class FirstRanks {
 public:
  explicit FirstRanks(int size) {
    const World w;
    MPI_Comm_split(w.comm, w.rank < size ? 0 : MPI_UNDEFINED, w.rank, &comm_);
  }
  ~FirstRanks() {
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }
  FirstRanks(const FirstRanks&) = delete;
  FirstRanks& operator=(const FirstRanks&) = delete;
  [[nodiscard]] MPI_Comm get() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

// What a case computes on its group's block of the graph.
using Call = std::function<hpart::GraphPartition(const hpart::Comm&, const hpart::GraphFile&)>;

// `call` with `threads` OpenMP threads. A throw is a fatal failure, which ends the whole job at
// once (mpi_gtest_main): the ranks outside the group would otherwise wait in run_on's broadcast.
void call_with_threads(const Call& call, const hpart::Comm& comm, const hpart::GraphFile& f, int threads,
                       hpart::GraphPartition& out) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(threads);
  EXPECT_EQ(omp_get_max_threads(), threads) << "the thread count did not take: the comparison would be void";
  try {
    out = call(comm, f);
  } catch (const std::exception& e) {
    omp_set_num_threads(saved);
    FAIL() << "rank " << comm.rank() << " of " << comm.size() << ": " << e.what();
  }
  omp_set_num_threads(saved);
}

// Runs `call` on the world's first `ranks` ranks, each with `threads` OpenMP threads, on the
// mesh distributed by `layout`; collective over the world (the others wait).
Outcome run_on(int ranks, Layout layout, int threads, const Mesh& mesh, const Call& call) {
  const World world;
  const FirstRanks group(ranks);
  const gid_t N = mesh.vertices();
  Outcome out;
  out.parts.resize(static_cast<std::size_t>(N));
  double facts[3] = {0, 0, 0};
  if (group.get() != MPI_COMM_NULL) {
    const hpart::Comm comm(group.get());
    const std::vector<gid_t> vtxdist = vtxdist_of(N, ranks, layout);
    const hpart::GraphFile f = mesh_block(mesh, vtxdist, comm.rank());
    hpart::GraphPartition p;
    call_with_threads(call, comm, f, threads, p);
    std::vector<int> counts, offsets;
    for (int r = 0; r < ranks; ++r) {
      const auto lo = vtxdist[static_cast<std::size_t>(r)], hi = vtxdist[static_cast<std::size_t>(r) + 1];
      counts.push_back(static_cast<int>(hi - lo));
      offsets.push_back(static_cast<int>(lo));
    }
    // The group's rank 0 is the world's rank 0: the root of the broadcast below.
    MPI_Gatherv(p.parts.data(), static_cast<int>(p.parts.size()), MPI_INT, out.parts.data(), counts.data(),
                offsets.data(), MPI_INT, 0, group.get());
    facts[0] = static_cast<double>(p.cut.edge_cut);
    facts[1] = *std::max_element(p.metrics.imbalance.begin(), p.metrics.imbalance.end());
    facts[2] = p.metrics.within_tolerance ? 1 : 0;
  }
  MPI_Bcast(out.parts.data(), static_cast<int>(N), MPI_INT, 0, world.comm);
  MPI_Bcast(facts, 3, MPI_DOUBLE, 0, world.comm);
  out.edge_cut = std::llround(facts[0]);
  out.imbalance = facts[1];
  out.within_tolerance = facts[2] != 0;
  return out;
}

// How many vertices have another part in `b` than in `a`.
std::size_t differing(const Outcome& a, const Outcome& b) {
  std::size_t n = 0;
  for (std::size_t v = 0; v < a.parts.size(); ++v) n += a.parts[v] != b.parts[v] ? 1 : 0;
  return n;
}

void expect_same_parts(const Outcome& a, const Outcome& b, const std::string& what) {
  EXPECT_EQ(differing(a, b), 0u) << what << ": " << differing(a, b) << " of " << a.parts.size()
                                 << " vertices in another part (cuts " << a.edge_cut << " and " << b.edge_cut << ")";
  EXPECT_EQ(a.edge_cut, b.edge_cut) << what;
}

std::string where(int ranks, Layout layout) {
  return std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks") +
         (layout == Layout::even ? ", even blocks" : ", skewed blocks");
}

Call partition_with(GraphMethod method, int K) {
  return [method, K](const hpart::Comm& comm, const hpart::GraphFile& f) {
    hpart::GraphOptions o;
    o.parts = K;
    o.method = method;
    return hpart::partition_graph(comm, f.view(), o);
  };
}

// A fresh partition with method graph, then the weights of a disc near the lower left corner
// grown 6x, then repartition_graph from the fresh parts.
Call repartition_after_growth(int K) {
  return [K](const hpart::Comm& comm, const hpart::GraphFile& f) -> hpart::GraphPartition {
    hpart::GraphOptions o;
    o.parts = K;
    const hpart::GraphPartition fresh = hpart::partition_graph(comm, f.view(), o);
    hpart::GraphFile grown = f;
    double extent = 0;
    for (double c : f.coords) extent = std::max(extent, c);
    extent = comm.max(extent);
    for (std::size_t v = 0; v < grown.vwgt.size(); ++v) {
      const double dx = grown.coords[2 * v] - 0.3 * extent, dy = grown.coords[2 * v + 1] - 0.3 * extent;
      if (dx * dx + dy * dy < 0.04 * extent * extent) grown.vwgt[v] *= 6;
    }
    hpart::GraphRepartOptions r;
    r.parts = K;
    return hpart::repartition_graph(comm, grown.view(), fresh.parts, r);
  };
}

// Below the bound (exactly at it: 256 x 128 = 2^15 vertices, K 16) and just above it (256 x 129).
constexpr Mesh kAtBound{256, 128}, kAboveBound{256, 129};
constexpr int kParts = 16;

struct Case {
  const char* name;
  Mesh mesh;
  Call call;
};

std::vector<Case> every_method() {
  return {{"graph, at the bound", kAtBound, partition_with(GraphMethod::graph, kParts)},
          {"graph, above the bound", kAboveBound, partition_with(GraphMethod::graph, kParts)},
          {"metis, above the bound", kAboveBound, partition_with(GraphMethod::metis, kParts)},
          {"geometric+refine, above the bound", kAboveBound, partition_with(GraphMethod::geometric_refine, kParts)},
          {"repartition_graph, above the bound", kAboveBound, repartition_after_growth(kParts)}};
}

TEST(GraphDeterminism, BoundsOfTheTestGraphs) {
  EXPECT_EQ(kAtBound.vertices(), gathered_up_to(kParts));
  EXPECT_GT(kAboveBound.vertices(), gathered_up_to(kParts));
}

// Promised: at this rank count and distribution, 1 thread, 2 threads and a repeated call agree.
TEST(GraphDeterminism, SameForAnyThreadCountAndRepeatedCalls) {
  const World w;
  for (const Layout layout : {Layout::even, Layout::skewed})
    for (const Case& c : every_method()) {
      SCOPED_TRACE(std::string(c.name) + ", " + where(w.size, layout));
      const Outcome one = run_on(w.size, layout, 1, c.mesh, c.call);
      expect_same_parts(one, run_on(w.size, layout, 2, c.mesh, c.call), "1 vs 2 threads");
      expect_same_parts(one, run_on(w.size, layout, 1, c.mesh, c.call), "a repeated call");
      EXPECT_TRUE(one.within_tolerance) << one.imbalance;
    }
}

// Promised: method graph at or below max(2^15, 100 K) vertices and method metis at any size give
// one rank's parts on any number of ranks and any distribution. The second graph case is above
// 2^15 but at most 100 K (K = 341): the bound grows with K.
TEST(GraphDeterminism, SameForAnyRankCountAndDistributionWhereGathered) {
  const World w;
  if (w.size < 2) GTEST_SKIP() << "compares rank counts: needs np >= 2";
  const Mesh wide{341, 100};  // 34,100 vertices = 100 x 341
  ASSERT_GT(wide.vertices(), gathered_up_to(kParts));
  ASSERT_EQ(wide.vertices(), gathered_up_to(341));
  for (const Case& c : {Case{"graph, 2^15 vertices, K 16", kAtBound, partition_with(GraphMethod::graph, kParts)},
                        Case{"graph, 34,100 vertices, K 341", wide, partition_with(GraphMethod::graph, 341)},
                        Case{"metis, above the bound", kAboveBound, partition_with(GraphMethod::metis, kParts)}}) {
    SCOPED_TRACE(c.name);
    const Outcome one = run_on(1, Layout::even, 1, c.mesh, c.call);
    for (int ranks = 2; ranks <= w.size; ++ranks)
      for (const Layout layout : {Layout::even, Layout::skewed})
        expect_same_parts(one, run_on(ranks, layout, 1, c.mesh, c.call), "1 rank vs " + where(ranks, layout));
  }
}

// Not promised, and not true: method graph above the bound on 1 and on 2 ranks (or another
// distribution) gives other parts; so do geometric+refine (its label propagation gives each rank
// 1/R of each part's room) and repartition_graph (diffusion and refinement move vertices per
// rank), a few vertices each at any size, here at the bound where every rank count starts from
// the same fresh parts. What holds then: every result within the tolerance, and, on this mesh
// whose ids follow locality, a cut within 1.1x of one rank's (measured at np 2-4: 0.97-1.00x,
// 1.00x, 1.002-1.009x). With ids in random order, blocks coarsen poorly and method graph may cut
// more (1.56x one rank's on a shuffled random geometric graph at np 4: docs/design.md).
TEST(GraphDeterminism, OtherwiseRankCountsDifferWithinTheCutFactor) {
  const World w;
  if (w.size < 2) GTEST_SKIP() << "compares rank counts: needs np >= 2";
  constexpr double kCutFactor = 1.1;
  struct Bounded {
    Case c;
    bool must_differ;  // at 2 ranks, even blocks: the documented difference, checked
  };
  for (const Bounded& b :
       {Bounded{{"graph, above the bound", kAboveBound, partition_with(GraphMethod::graph, kParts)}, true},
        Bounded{{"geometric+refine, at the bound", kAtBound, partition_with(GraphMethod::geometric_refine, kParts)}, false},
        Bounded{{"repartition_graph, at the bound", kAtBound, repartition_after_growth(kParts)}, false}}) {
    SCOPED_TRACE(b.c.name);
    const Outcome one = run_on(1, Layout::even, 1, b.c.mesh, b.c.call);
    ASSERT_TRUE(one.within_tolerance) << one.imbalance;
    for (int ranks = 2; ranks <= w.size; ++ranks)
      for (const Layout layout : {Layout::even, Layout::skewed}) {
        SCOPED_TRACE("1 rank vs " + where(ranks, layout));
        const Outcome other = run_on(ranks, layout, 1, b.c.mesh, b.c.call);
        EXPECT_TRUE(other.within_tolerance) << other.imbalance;
        EXPECT_LE(static_cast<double>(other.edge_cut), kCutFactor * static_cast<double>(one.edge_cut));
        EXPECT_LE(static_cast<double>(one.edge_cut), kCutFactor * static_cast<double>(other.edge_cut));
        // Method graph's difference is the documented one: if it starts to agree, promise it in
        // docs/design.md ("What is deterministic") and test it as an equality above.
        if (b.must_differ && ranks == 2 && layout == Layout::even) {
          EXPECT_GT(differing(one, other), 0u) << "1 and 2 ranks now agree above the gather bound";
        }
      }
  }
}

}  // namespace

