// migrate_graph under MPI: a weighted grid graph partitioned into an odd number of parts moves
// to the parts' owners. The new graph is valid (validate_graph: symmetric, ids in range), every
// vertex sits on the rank owning its part, counts, weights and coordinates are conserved, each
// vertex's neighbours are exactly its old neighbours (checked through the old ids), and the cut
// and volume of the partition do not change. Every test also runs on the two halves of the world.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <vector>

#include "core/ghost_exchange.hpp"
#include "hpart/hpart.hpp"
#include "test_graphs.hpp"
#include "test_world.hpp"

namespace {

using hpart::testing::expect_error_everywhere;
using hpart::testing::HalfWorld;
using hpart::testing::World;

constexpr std::int64_t kNx = 40, kNy = 30;

// A grid graph with two vertex weights and symmetric edge weights 1 + (u + v) % 3.
hpart::GraphFile weighted_grid(int rank, int ranks) {
  hpart::GraphFile f = hpart::testing::grid_graph(kNx, kNy, rank, ranks, 2);
  const hpart::gid_t first = f.vtxdist[static_cast<std::size_t>(rank)];
  for (std::size_t v = 0; v + 1 < f.xadj.size(); ++v)
    for (auto e = f.xadj[v]; e < f.xadj[v + 1]; ++e)
      f.adjwgt.push_back(1 + (first + static_cast<hpart::gid_t>(v) + f.adjncy[static_cast<std::size_t>(e)]) % 3);
  return f;
}

std::vector<double> sums(MPI_Comm comm, const hpart::GraphFile& f) {
  std::vector<double> s(6, 0.0);  // vertices, edge entries, weight 0, weight 1, edge weight, x + y
  s[0] = static_cast<double>(f.xadj.size() - 1);
  s[1] = static_cast<double>(f.adjncy.size());
  for (std::size_t v = 0; v + 1 < f.xadj.size(); ++v)
    s[2] += static_cast<double>(f.vwgt[2 * v]), s[3] += static_cast<double>(f.vwgt[2 * v + 1]);
  for (std::int64_t w : f.adjwgt) s[4] += static_cast<double>(w);
  for (double c : f.coords) s[5] += c;
  MPI_Allreduce(MPI_IN_PLACE, s.data(), 6, MPI_DOUBLE, MPI_SUM, comm);
  return s;
}

std::vector<hpart::gid_t> grid_neighbours(hpart::gid_t v) {
  const std::int64_t x = v % kNx, y = v / kNx;
  std::vector<hpart::gid_t> out;
  if (x > 0) out.push_back(v - 1);
  if (x + 1 < kNx) out.push_back(v + 1);
  if (y > 0) out.push_back(v - kNx);
  if (y + 1 < kNy) out.push_back(v + kNx);
  std::sort(out.begin(), out.end());
  return out;
}

void check_moved(MPI_Comm handle, const hpart::GraphFile& f, const std::vector<hpart::part_t>& parts,
                 const hpart::MigratedGraph& m, std::span<const int> owner_of_part) {
  const World w(handle);
  const hpart::Comm comm(handle);
  const hpart::GraphFile& g = m.graph;
  ASSERT_NO_THROW(hpart::validate_graph(comm, g.view()));
  EXPECT_EQ(g.global_vertices, kNx * kNy);
  EXPECT_EQ(g.global_edges, f.global_edges);
  EXPECT_EQ(sums(handle, g), sums(handle, f));
  ASSERT_EQ(m.parts.size(), g.xadj.size() - 1);
  ASSERT_EQ(m.old_ids.size(), g.xadj.size() - 1);
  for (hpart::part_t p : m.parts) EXPECT_EQ(owner_of_part[static_cast<std::size_t>(p)], w.rank);
  // Each vertex's coordinates are its old id's grid position, its neighbours its old ones.
  const hpart::graph::GhostExchange ghosts(comm, g.view());
  const std::vector<hpart::gid_t> ghost_old = ghosts.fetch<hpart::gid_t>(m.old_ids);
  const std::size_t n = m.old_ids.size();
  for (std::size_t k = 0; k < n; ++k) {
    const hpart::gid_t old = m.old_ids[k];
    EXPECT_EQ(g.coords[2 * k], static_cast<double>(old % kNx));
    EXPECT_EQ(g.coords[2 * k + 1], static_cast<double>(old / kNx));
    std::vector<hpart::gid_t> nb;
    for (auto e = g.xadj[k]; e < g.xadj[k + 1]; ++e) {
      const auto u = static_cast<std::size_t>(ghosts.local_adjncy()[static_cast<std::size_t>(e)]);
      nb.push_back(u < n ? m.old_ids[u] : ghost_old[u - n]);
      EXPECT_EQ(g.adjwgt[static_cast<std::size_t>(e)], 1 + (old + nb.back()) % 3);
    }
    std::sort(nb.begin(), nb.end());
    EXPECT_EQ(nb, grid_neighbours(old)) << "old vertex " << old;
  }
  // The partition's cut and volume do not depend on where the vertices live.
  const int K = static_cast<int>(owner_of_part.size());
  const hpart::GraphMetrics before = hpart::graph_metrics(comm, f.view(), parts, K);
  const hpart::GraphMetrics after = hpart::graph_metrics(comm, g.view(), m.parts, K);
  EXPECT_EQ(after.edge_cut, before.edge_cut);
  EXPECT_EQ(after.comm_volume, before.comm_volume);
}

void partitioned_grid_moves(MPI_Comm handle) {
  const World w(handle);
  const hpart::Comm comm(handle);
  const hpart::GraphFile f = weighted_grid(w.rank, w.size);
  constexpr int K = 7;
  hpart::GraphOptions o;
  o.parts = K;
  const std::vector<hpart::part_t> parts = hpart::partition_graph(comm, f.view(), o).parts;
  const hpart::PartOwners owners{K, w.size};
  const hpart::MigratedGraph m = hpart::migrate_graph(comm, f.view(), parts, owners);
  std::vector<int> owner_of_part(K);
  for (int p = 0; p < K; ++p) owner_of_part[static_cast<std::size_t>(p)] = owners.owner(p);
  check_moved(handle, f, parts, m, owner_of_part);
  // The vertices that changed rank, counted by the caller.
  long long moved = 0;
  for (hpart::part_t p : parts) moved += owners.owner(p) != w.rank ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &moved, 1, MPI_LONG_LONG, MPI_SUM, handle);
  EXPECT_EQ(m.migrated.objects, moved);
}

TEST(GraphMigration, PartitionedGridMovesToTheOwners) { partitioned_grid_moves(MPI_COMM_WORLD); }
TEST(GraphMigration, PartitionedGridOnSubCommunicators) {
  const HalfWorld half;
  partitioned_grid_moves(half.comm);
}

// Every part owned by the last rank: the others end up empty, and the graph is still valid.
TEST(GraphMigration, EverythingToOneRank) {
  const World w;
  const hpart::Comm comm(w.comm);
  const hpart::GraphFile f = weighted_grid(w.rank, w.size);
  std::vector<hpart::part_t> parts(f.xadj.size() - 1);
  for (std::size_t v = 0; v < parts.size(); ++v) parts[v] = static_cast<hpart::part_t>(v % 3);
  const std::vector<int> owner_of_part(3, w.size - 1);
  const hpart::MigratedGraph m = hpart::migrate_graph(comm, f.view(), parts, owner_of_part);
  EXPECT_EQ(m.graph.xadj.size() - 1, w.rank == w.size - 1 ? static_cast<std::size_t>(kNx * kNy) : 0u);
  check_moved(w.comm, f, parts, m, owner_of_part);
}

void bad_input(MPI_Comm handle) {
  const World w(handle);
  const hpart::Comm comm(handle);
  const hpart::GraphFile f = weighted_grid(w.rank, w.size);
  std::vector<hpart::part_t> parts(f.xadj.size() - 1, 0);
  std::vector<hpart::part_t> longer = parts;
  if (w.rank == w.size - 1) longer.push_back(0);
  expect_error_everywhere([&] { hpart::migrate_graph(comm, f.view(), longer, hpart::PartOwners{2, w.size}); },
                          "parts for");
  std::vector<hpart::part_t> outside = parts;
  if (w.rank == w.size - 1) outside.at(0) = 2;
  expect_error_everywhere([&] { hpart::migrate_graph(comm, f.view(), outside, hpart::PartOwners{2, w.size}); },
                          "outside [0, 2)");
  const std::vector<int> no_rank{0, w.size};
  expect_error_everywhere([&] { hpart::migrate_graph(comm, f.view(), parts, no_rank); }, "is owned by rank");
  hpart::GraphFile asym = f;  // one edge listed at one end only
  if (w.rank == w.size - 1) asym.adjwgt.at(0) += 1;
  expect_error_everywhere([&] { hpart::migrate_graph(comm, asym.view(), parts, hpart::PartOwners{2, w.size}); },
                          "weight");
}

TEST(GraphMigration, BadInputFailsOnEveryRank) { bad_input(MPI_COMM_WORLD); }
TEST(GraphMigration, BadInputOnSubCommunicators) {
  const HalfWorld half;
  bad_input(half.comm);
}

}  // namespace
