// Graph partitioning at any rank count: every vertex in exactly one part, balance within the
// tolerance for every constraint, no empty parts, a cut close to METIS's, metrics that agree with
// a serial count, hierarchies that keep traffic inside nodes, and bad options rejected on every
// rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <string>

#include "hpart/hpart.hpp"
#include "test_world.hpp"
#include "test_graphs.hpp"

namespace {

using hpart::GraphMethod;

using hpart::testing::World;

double worst(const hpart::Partition& p) { return *std::max_element(p.metrics.imbalance.begin(), p.metrics.imbalance.end()); }

TEST(GraphPartition, EveryMethodBalancesAndCutsLikeMetis) {
  const World w;
  const hpart::Comm comm(w.comm);
  const hpart::GraphFile f = hpart::testing::grid_graph(60, 50, w.rank, w.size);
  for (int K : {2, 7, 16}) {
    hpart::GraphOptions opts;
    opts.parts = K;
    opts.method = GraphMethod::metis;
    const auto metis = hpart::partition_graph(comm, f.view(), opts);
    for (GraphMethod m : {GraphMethod::graph, GraphMethod::geometric_refine}) {
      opts.method = m;
      const auto p = hpart::partition_graph(comm, f.view(), opts);
      ASSERT_EQ(p.parts.size(), f.xadj.size() - 1);
      EXPECT_EQ(p.metrics.objects, 3000);
      for (hpart::part_t q : p.parts) {
        ASSERT_GE(q, 0);
        ASSERT_LT(q, K);
      }
      EXPECT_EQ(p.metrics.empty_parts, 0);
      EXPECT_LE(worst(p), 0.03 + 1e-9) << hpart::to_string(m) << " K " << K;
      // geometric+refine is a curve partition smoothed by label propagation only: looser.
      const double bound = m == GraphMethod::graph ? 1.25 : 1.5;
      EXPECT_LE(static_cast<double>(p.cut.edge_cut), bound * static_cast<double>(metis.cut.edge_cut) + 2)
          << hpart::to_string(m) << " K " << K;
    }
  }
}

TEST(GraphPartition, MetricsAgreeWithASerialCount) {
  const World w;
  const hpart::Comm comm(w.comm);
  const hpart::GraphFile f = hpart::testing::grid_graph(20, 15, w.rank, w.size);
  // Parts by column band: vertex x in [0, 20) -> x / 5 (4 parts): cut = 3 boundaries x 15 rows.
  std::vector<hpart::part_t> parts;
  for (hpart::gid_t v = f.vtxdist[static_cast<std::size_t>(w.rank)]; v < f.vtxdist[static_cast<std::size_t>(w.rank) + 1]; ++v)
    parts.push_back(static_cast<hpart::part_t>((v % 20) / 5));
  const hpart::GraphMetrics m = hpart::graph_metrics(comm, f.view(), parts, 4);
  EXPECT_EQ(m.edge_cut, 45);
  EXPECT_EQ(m.boundary_vertices, 6 * 15);  // two columns per inner boundary
  EXPECT_EQ(m.comm_volume, 6 * 15);        // each boundary vertex sees one other part
}

TEST(GraphPartition, MultiConstraintBalancesEveryWeight) {
  const World w;
  const hpart::Comm comm(w.comm);
  const hpart::GraphFile f = hpart::testing::grid_graph(50, 40, w.rank, w.size, 2);
  for (GraphMethod m : {GraphMethod::graph, GraphMethod::metis}) {
    hpart::GraphOptions opts;
    opts.parts = 6;
    opts.method = m;
    opts.imbalance = 0.05;
    const auto p = hpart::partition_graph(comm, f.view(), opts);
    ASSERT_EQ(p.metrics.imbalance.size(), 2u);
    EXPECT_LE(worst(p), 0.05 + 1e-9) << hpart::to_string(m);
  }
}

// Above the gather bound (2^15 vertices) the distributed levels run: every rank coarsens and
// refines its block with the kernel, ghosts fixed. Valid, balanced for every constraint, no
// empty parts, and a cut near METIS's, at any rank count (rank 0 holds no rows at np >= 3).
TEST(GraphPartition, LargeGraphTakesTheDistributedLevels) {
  const World w;
  const hpart::Comm comm(w.comm);
  for (int ncon : {0, 2}) {
    const hpart::GraphFile f = hpart::testing::grid_graph(230, 190, w.rank, w.size, ncon);  // 43,700 vertices
    for (int K : {7, 32}) {
      hpart::GraphOptions opts;
      opts.parts = K;
      opts.imbalance = ncon ? 0.05 : 0.03;
      opts.method = GraphMethod::metis;
      const auto metis = hpart::partition_graph(comm, f.view(), opts);
      opts.method = GraphMethod::graph;
      const auto p = hpart::partition_graph(comm, f.view(), opts);
      ASSERT_EQ(p.parts.size(), f.xadj.size() - 1);
      for (hpart::part_t q : p.parts) {
        ASSERT_GE(q, 0);
        ASSERT_LT(q, K);
      }
      EXPECT_EQ(p.metrics.objects, 230 * 190);
      EXPECT_EQ(p.metrics.empty_parts, 0);
      EXPECT_LE(worst(p), opts.imbalance + 1e-9) << "ncon " << ncon << " K " << K;
      EXPECT_LE(static_cast<double>(p.cut.edge_cut), 1.15 * static_cast<double>(metis.cut.edge_cut))
          << "ncon " << ncon << " K " << K;
    }
  }
}

// 32-bit neighbour ids (Graph::adjncy32, GraphFile::narrow_ids) are the same graph: every
// method gives the same parts and cut as with 64-bit ids, on the single-rank and the distributed
// paths (43,700 vertices: distributed levels at np > 1), and the calls that widen a copy
// (graph_metrics, repartition_graph, migrate_graph) give the same results too.
TEST(GraphPartition, ThirtyTwoBitIdsAreTheSameGraph) {
  const World w;
  const hpart::Comm comm(w.comm);
  hpart::GraphFile wide = hpart::testing::grid_graph(230, 190, w.rank, w.size, 1);
  wide.adjwgt.resize(wide.adjncy.size());  // edge weights 1..3 (symmetric: from both ends' ids)
  for (std::size_t v = 0; v + 1 < wide.xadj.size(); ++v)
    for (auto e = wide.xadj[v]; e < wide.xadj[v + 1]; ++e)
      wide.adjwgt[static_cast<std::size_t>(e)] =
          1 + (wide.vtxdist[static_cast<std::size_t>(w.rank)] + static_cast<hpart::gid_t>(v) + wide.adjncy[static_cast<std::size_t>(e)]) % 3;
  hpart::GraphFile narrow = wide;
  ASSERT_TRUE(narrow.narrow_ids());
  EXPECT_TRUE(narrow.adjncy.empty());
  ASSERT_EQ(narrow.adjncy32.size(), wide.adjncy.size());
  const hpart::testing::All32 all32(wide);
  EXPECT_TRUE(all32.g.xadj.is32());
  if (all32.g.local_vertices() > 0) {
    EXPECT_TRUE(all32.g.vwgt.is32() && all32.g.adjwgt.is32());
  }
  for (GraphMethod m : {GraphMethod::graph, GraphMethod::metis, GraphMethod::geometric_refine}) {
    hpart::GraphOptions opts;
    opts.parts = 13;
    opts.method = m;
    const auto a = hpart::partition_graph(comm, wide.view(), opts);
    for (const hpart::Graph& g : {narrow.view(), all32.g}) {
      const auto b = hpart::partition_graph(comm, g, opts);
      EXPECT_EQ(a.parts, b.parts) << hpart::to_string(m);
      EXPECT_EQ(a.part_weights, b.part_weights) << hpart::to_string(m);
      EXPECT_EQ(a.cut.edge_cut, b.cut.edge_cut) << hpart::to_string(m);
      EXPECT_EQ(a.cut.comm_volume, b.cut.comm_volume) << hpart::to_string(m);
      EXPECT_GT(b.cut.edge_cut, 0);
    }
  }
  // A hierarchy (one node per rank) reads the same arrays.
  {
    const hpart::Topology t = hpart::detect_topology(comm, std::to_string(w.size) + "x1");
    hpart::HierGraphOptions ho;
    ho.parts = 6;
    const auto a = hpart::partition_graph_hierarchical(comm, wide.view(), t, ho);
    const auto b = hpart::partition_graph_hierarchical(comm, all32.g, t, ho);
    EXPECT_EQ(a.parts, b.parts);
    EXPECT_EQ(a.part_weights, b.part_weights);
  }
  hpart::GraphOptions opts;
  opts.parts = 6;
  const auto p = hpart::partition_graph(comm, wide.view(), opts);
  const hpart::GraphMetrics mw = hpart::graph_metrics(comm, wide.view(), p.parts, 6);
  for (const hpart::Graph& g : {narrow.view(), all32.g}) {
    const hpart::GraphMetrics mn = hpart::graph_metrics(comm, g, p.parts, 6);
    EXPECT_EQ(mw.edge_cut, mn.edge_cut);
    EXPECT_EQ(mw.comm_volume, mn.comm_volume);
    EXPECT_EQ(mw.boundary_vertices, mn.boundary_vertices);
  }
  // A skewed load: the first 500 vertices twice as heavy, repartitioned from p.
  hpart::GraphFile heavy_wide = wide, heavy_narrow = narrow;
  for (std::size_t v = 0; v < heavy_wide.vwgt.size(); ++v)
    if (heavy_wide.vtxdist[static_cast<std::size_t>(w.rank)] + static_cast<hpart::gid_t>(v) < 500)
      heavy_wide.vwgt[v] *= 2, heavy_narrow.vwgt[v] *= 2;
  hpart::GraphRepartOptions ro;
  ro.parts = 6;
  const auto ra = hpart::repartition_graph(comm, heavy_wide.view(), p.parts, ro);
  const hpart::testing::All32 heavy32(heavy_wide);
  for (const hpart::Graph& g : {heavy_narrow.view(), heavy32.g}) {
    const auto rb = hpart::repartition_graph(comm, g, p.parts, ro);
    EXPECT_EQ(ra.parts, rb.parts);
    EXPECT_EQ(ra.cut.edge_cut, rb.cut.edge_cut);
    EXPECT_EQ(ra.migrated.weight, rb.migrated.weight);
  }
  // Moved to the parts' owners (part q on rank q mod R): the same vertices, ids and neighbours.
  std::vector<int> owner(6);
  for (int q = 0; q < 6; ++q) owner[static_cast<std::size_t>(q)] = q % w.size;
  const auto ma = hpart::migrate_graph(comm, wide.view(), p.parts, owner);
  for (const hpart::Graph& g : {narrow.view(), all32.g}) {
    const auto mb = hpart::migrate_graph(comm, g, p.parts, owner);
    EXPECT_EQ(ma.old_ids, mb.old_ids);
    EXPECT_EQ(ma.graph.xadj, mb.graph.xadj);
    EXPECT_EQ(ma.graph.adjncy, mb.graph.adjncy);
    EXPECT_EQ(ma.graph.vwgt, mb.graph.vwgt);
    EXPECT_EQ(ma.graph.adjwgt, mb.graph.adjwgt);
  }
  // A bad 32-bit weight or offset is the same error as at 64 bits, on every rank.
  hpart::testing::All32 bad(wide);
  if (w.rank == w.size - 1 && !bad.adjwgt.empty()) bad.adjwgt.back() = -1;
  EXPECT_THROW(hpart::validate_graph(comm, bad.g), hpart::Error);
}

// Edge weights that sum past 2^31 keep 64-bit coarse weights on the distributed levels (and the
// kernel's; 32-bit sums would wrap): with every weight 2^30 the partition cuts about as many
// edges as that of the unit-weight graph (whose levels use 32-bit weights).
TEST(GraphPartition, EdgeWeightsPast32BitsGiveTheUnitPartition) {
  const World w;
  const hpart::Comm comm(w.comm);
  hpart::GraphFile unit = hpart::testing::grid_graph(230, 190, w.rank, w.size, 0);
  hpart::GraphFile heavy = unit;
  heavy.adjwgt.assign(heavy.adjncy.size(), std::int64_t{1} << 30);
  hpart::GraphOptions opts;
  opts.parts = 12;
  const auto a = hpart::partition_graph(comm, unit.view(), opts);
  const auto b = hpart::partition_graph(comm, heavy.view(), opts);
  const double heavy_edges = static_cast<double>(b.cut.edge_cut) / static_cast<double>(std::int64_t{1} << 30);
  EXPECT_EQ(b.cut.edge_cut % (std::int64_t{1} << 30), 0);
  EXPECT_LE(heavy_edges, 1.1 * static_cast<double>(a.cut.edge_cut));
  EXPECT_GE(heavy_edges, 0.9 * static_cast<double>(a.cut.edge_cut));
  EXPECT_LE(worst(b), opts.imbalance + 1e-9);
  EXPECT_EQ(b.metrics.empty_parts, 0);
}

// Vertex ids that scatter every edge across ranks (grid vertex v gets id (v mod R) * N/R + v / R,
// with nx coprime to 2, 3 and 4): no rank has a local edge, so the blocks shrink only by the
// kernel's 2-hop matching (local vertices that share a ghost neighbour). Valid, balanced, without
// empty parts, and within 1.5x the one-rank cut; at np 1 it is an ordinary grid.
TEST(GraphPartition, EdgesThatAllCrossRanksStillPartition) {
  const World w;
  const hpart::Comm comm(w.comm);
  const std::int64_t nx = 401, ny = 400, N = nx * ny, R = w.size;
  auto id_of = [&](std::int64_t v) { return (v % R) * (N / R) + std::min(v % R, N % R) + v / R; };
  hpart::GraphFile f;
  for (std::int64_t r = 0; r <= R; ++r) f.vtxdist.push_back(r * (N / R) + std::min(r, N % R));
  std::vector<std::int64_t> natural;  // the grid vertex of each local id
  for (std::int64_t v = w.rank; v < N; v += R) natural.push_back(v);
  f.xadj.push_back(0);
  for (std::int64_t v : natural) {
    const std::int64_t x = v % nx, y = v / nx;
    if (x > 0) f.adjncy.push_back(id_of(v - 1));
    if (x + 1 < nx) f.adjncy.push_back(id_of(v + 1));
    if (y > 0) f.adjncy.push_back(id_of(v - nx));
    if (y + 1 < ny) f.adjncy.push_back(id_of(v + nx));
    f.xadj.push_back(static_cast<std::int64_t>(f.adjncy.size()));
  }
  ASSERT_EQ(static_cast<hpart::gid_t>(natural.size()), f.vtxdist[static_cast<std::size_t>(w.rank) + 1] - f.vtxdist[static_cast<std::size_t>(w.rank)]);
  hpart::GraphOptions opts;
  opts.parts = 8;
  const auto p = hpart::partition_graph(comm, f.view(), opts);
  EXPECT_EQ(p.metrics.objects, N);
  EXPECT_EQ(p.metrics.empty_parts, 0);
  EXPECT_LE(worst(p), 0.03 + 1e-9);
  for (hpart::part_t q : p.parts) {
    ASSERT_GE(q, 0);
    ASSERT_LT(q, 8);
  }
  // The same grid in natural order on one rank: the reference cut.
  if (w.rank == 0) {
    const hpart::GraphFile one = hpart::testing::grid_graph(nx, ny, 0, 1);
    const auto ref = hpart::partition_graph(hpart::Comm(MPI_COMM_SELF), one.view(), opts);
    EXPECT_LE(static_cast<double>(p.cut.edge_cut), 1.5 * static_cast<double>(ref.cut.edge_cut));
  }
}

TEST(GraphPartition, MorePartsThanVerticesLeavesEmptyParts) {
  const World w;
  const hpart::Comm comm(w.comm);
  const hpart::GraphFile f = hpart::testing::grid_graph(3, 1, w.rank, w.size);  // 3 vertices, ranks without any
  hpart::GraphOptions opts;
  opts.parts = 5;
  const auto p = hpart::partition_graph(comm, f.view(), opts);
  EXPECT_EQ(p.metrics.objects, 3);
  EXPECT_EQ(p.metrics.empty_parts, 2);
}

TEST(GraphPartition, WorksOnSubCommunicators) {
  const hpart::testing::HalfWorld h;
  const int colour = h.colour, hr = h.rank, hs = h.size;
  const MPI_Comm half = h.comm;
  const hpart::GraphFile f = hpart::testing::grid_graph(30 + 10 * colour, 20, hr, hs);
  hpart::GraphOptions opts;
  opts.parts = 4 + colour;
  const auto p = hpart::partition_graph(hpart::Comm(half), f.view(), opts);
  EXPECT_EQ(p.metrics.objects, (30 + 10 * colour) * 20);
  EXPECT_LE(worst(p), 0.03 + 1e-9);
}

// Hierarchical: parts grouped by node and less traffic between nodes than METIS parts mapped to
// nodes in id order.
TEST(GraphHierarchy, KeepsTrafficInsideNodes) {
  const World w;
  if (w.size % 2 != 0 || w.size < 2) GTEST_SKIP() << "needs an even rank count";
  const hpart::Comm comm(w.comm);
  const hpart::Topology t = hpart::detect_topology(comm, std::to_string(w.size / 2) + "x2");
  if (t.nodes < 2) GTEST_SKIP() << "one node";
  const hpart::GraphFile f = hpart::testing::grid_graph(80, 60, w.rank, w.size);
  hpart::HierGraphOptions h;
  h.parts = 4 * w.size;
  const hpart::HierPartition hp = hpart::partition_graph_hierarchical(comm, f.view(), t, h);
  EXPECT_LE(worst(hp), 0.03 + 1e-9);
  EXPECT_EQ(hp.metrics.empty_parts, 0);
  hpart::GraphOptions flat;
  flat.parts = h.parts;
  flat.method = GraphMethod::metis;
  const auto fp = hpart::partition_graph(comm, f.view(), flat);
  std::vector<int> flat_node;
  for (int q = 0; q < flat.parts; ++q) flat_node.push_back(q * t.nodes / flat.parts);
  // Inter-node volume: per vertex, the other nodes among its neighbours' parts (a serial count on
  // the whole graph, rebuilt on every rank: it is small).
  const auto internode = [&](const std::vector<hpart::part_t>& local, const std::vector<int>& node_of_part) {
    std::vector<int> all(static_cast<std::size_t>(f.global_vertices));
    std::vector<int> counts(static_cast<std::size_t>(w.size)), displs(static_cast<std::size_t>(w.size));
    for (int r = 0; r < w.size; ++r) {
      displs[static_cast<std::size_t>(r)] = static_cast<int>(f.vtxdist[static_cast<std::size_t>(r)]);
      counts[static_cast<std::size_t>(r)] = static_cast<int>(f.vtxdist[static_cast<std::size_t>(r) + 1] - f.vtxdist[static_cast<std::size_t>(r)]);
    }
    std::vector<int> mine(local.begin(), local.end());
    MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), MPI_INT, all.data(), counts.data(), displs.data(), MPI_INT, w.comm);
    long long volume = 0;
    const hpart::GraphFile whole = hpart::testing::grid_graph(80, 60, 0, 1);
    for (std::size_t v = 0; v + 1 < whole.xadj.size(); ++v) {
      std::vector<int> seen;
      const int mine_node = node_of_part[static_cast<std::size_t>(all[v])];
      for (auto e = whole.xadj[v]; e < whole.xadj[v + 1]; ++e) {
        const int nd = node_of_part[static_cast<std::size_t>(all[static_cast<std::size_t>(whole.adjncy[static_cast<std::size_t>(e)])])];
        if (nd != mine_node && std::find(seen.begin(), seen.end(), nd) == seen.end()) seen.push_back(nd);
      }
      volume += static_cast<long long>(seen.size());
    }
    return volume;
  };
  EXPECT_LE(internode(hp.parts, hp.node_of_part), internode(fp.parts, flat_node));
}

// geometric+refine inside each node: the per-node subgraphs carry the vertices' coordinates (they
// once lost them, and the rank level threw "needs vertex coordinates"). Every vertex in a part in
// range, the tolerance met, every part on a node and owned by a rank of that node.
TEST(GraphHierarchy, GeometricRefineRankLevel) {
  const World w;
  const hpart::Comm comm(w.comm);
  const hpart::Topology t =
      hpart::detect_topology(comm, w.size % 2 == 0 ? std::to_string(w.size / 2) + "x2" : std::to_string(w.size) + "x1");
  const hpart::GraphFile f = hpart::testing::grid_graph(60, 45, w.rank, w.size);
  ASSERT_EQ(f.dim, 2);
  hpart::HierGraphOptions h;
  h.parts = 2 * w.size + 1;
  h.rank_method = GraphMethod::geometric_refine;
  for (const GraphMethod node : {GraphMethod::graph, GraphMethod::geometric_refine}) {
    h.node_method = node;
    const hpart::HierPartition hp = hpart::partition_graph_hierarchical(comm, f.view(), t, h);
    ASSERT_EQ(hp.parts.size(), f.xadj.size() - 1);
    for (const hpart::part_t q : hp.parts) {
      ASSERT_GE(q, 0);
      ASSERT_LT(q, h.parts);
    }
    EXPECT_EQ(hp.num_parts, h.parts);
    EXPECT_EQ(hp.metrics.objects, f.global_vertices);
    EXPECT_LE(worst(hp), h.imbalance + 1e-9) << hpart::to_string(node);
    EXPECT_TRUE(hp.metrics.within_tolerance);
    ASSERT_EQ(hp.node_of_part.size(), static_cast<std::size_t>(h.parts));
    ASSERT_EQ(hp.owner_of_part.size(), static_cast<std::size_t>(h.parts));
    for (std::size_t q = 0; q < hp.node_of_part.size(); ++q) {
      ASSERT_GE(hp.node_of_part[q], 0);
      ASSERT_LT(hp.node_of_part[q], t.nodes);
      if (q > 0) {
        EXPECT_LE(hp.node_of_part[q - 1], hp.node_of_part[q]);  // numbered node by node
      }
      ASSERT_GE(hp.owner_of_part[q], 0);
      ASSERT_LT(hp.owner_of_part[q], w.size);
      EXPECT_EQ(t.node_of_rank[static_cast<std::size_t>(hp.owner_of_part[q])], hp.node_of_part[q]);
    }
  }
}

TEST(GraphBadInput, OptionsAndStructure) {
  const World w;
  const hpart::Comm comm(w.comm);
  const hpart::GraphFile f = hpart::testing::grid_graph(10, 8, w.rank, w.size);
  const auto expect_error = [&](const hpart::Graph& g, const hpart::GraphOptions& o, const std::string& what) {
    hpart::testing::expect_error_everywhere([&] { (void)hpart::partition_graph(comm, g, o); }, what);
  };
  hpart::GraphOptions o;
  o.parts = 0;
  expect_error(f.view(), o, "parts");
  o.parts = 3;
  o.imbalance = -1;
  expect_error(f.view(), o, "imbalance");
  o.imbalance = 0.03;
  hpart::Graph no_coords = f.view();
  no_coords.coords = {};
  no_coords.dim = 0;
  o.method = GraphMethod::geometric_refine;
  expect_error(no_coords, o, "coordinates");
  o.method = GraphMethod::graph;
  // Neighbour ids in both widths at once, and 32-bit ids where they cannot hold every id.
  hpart::GraphFile both = f;
  both.adjncy32.assign(f.adjncy.begin(), f.adjncy.end());
  expect_error(both.view(), o, "adjncy and adjncy32 both hold values");
  hpart::GraphFile short32 = f;
  short32.narrow_ids();
  if (!short32.adjncy32.empty()) short32.adjncy32.pop_back();
  const bool any_edges = comm.sum(static_cast<long long>(f.adjncy.size())) > 0;
  if (any_edges) {
    // Only the ranks that hold edges can shorten theirs; the others' lengths are right, and
    // the error is still everyone's.
    expect_error(short32.view(), o, "adjncy32 has");
  }
  // An asymmetric edge on the last rank (its first vertex drops one neighbour).
  hpart::GraphFile bad = f;
  if (w.rank == w.size - 1 && bad.xadj.size() > 1) {
    bad.adjncy.erase(bad.adjncy.begin());
    for (std::size_t v = 1; v < bad.xadj.size(); ++v) --bad.xadj[v];
  }
  expect_error(bad.view(), o, "asymmetric");
  EXPECT_THROW((void)hpart::graph_method_from_string("parmetis"), hpart::Error);
}

}  // namespace
