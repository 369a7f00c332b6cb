// Hierarchical grid partitioning with graph node cuts. Planes are the wrong shape between nodes
// when the cost is concentrated: a hotspot that holds most of the work is best shared out by
// carving it, so the nodes that split it meet over its small cross-section instead of a whole
// face of the domain. That is what a graph partitioner finds. The grid is coarsened into blocks
// of b^dim cells (b a power of two, at most kMaxBlocks blocks, so a constant-size problem), the
// block costs summed over all ranks, and METIS cuts the block graph (edge weight: the cell faces
// between two blocks) into the nodes' shares on rank 0; the block -> node map is broadcast. The
// rank level then splits each node's cells along the Hilbert curve exactly. Memory: the block
// costs and map, at most 2^15 values per rank whatever the grid size.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <string>

#include "graph/initial/metis_adapter.hpp"
#include "grid/grid_input.hpp"
#include "hierarchy/grid_levels.hpp"
#include "hierarchy/grid_locators.hpp"

namespace hpart::hier {
namespace {

constexpr std::int64_t kMaxBlocks = std::int64_t{1} << 15;
// METIS tries this many partitions and keeps the smallest cut. On hotspot3d 256^3 (3 nodes) the
// inter-node halo was 212k cells with 10 tries, 183k with 30, no better with 60.
constexpr idx_t kMetisCuts = 30;
// Node-level tolerance: METIS's balance is to a block and needs some slack to find good cuts.
constexpr double kMinNodeImbalance = 0.003;

// The grid's blocks: b^dim cells each, b the least power of two that keeps them within
// kMaxBlocks (the locator, hierarchy/grid_locators.hpp, gives each block its node).
using Blocks = BlockLocator;
Blocks blocks_for_grid(const Grid& g) {
  Blocks k;
  k.dim = g.dim;
  for (;;) {
    for (int d = 0; d < 3; ++d)
      k.n[static_cast<std::size_t>(d)] = d < g.dim ? (g.extent[static_cast<std::size_t>(d)] + k.b - 1) / k.b : 1;
    if (k.count() <= kMaxBlocks) return k;
    k.b *= 2;
  }
}
// Cells of block dimension d at block coordinate i (the last block may be cut short).
std::int64_t block_width(const Blocks& k, const Grid& g, int d, std::int64_t i) {
  return std::min(k.b, g.extent[static_cast<std::size_t>(d)] - i * k.b);
}

// METIS on rank 0: the block graph (face neighbours) cut into the nodes' shares.
std::vector<int> cut_blocks(const Grid& g, const Blocks& k, const std::vector<double>& cost,
                            const std::vector<int>& per_node, double imbalance, std::string& problem) {
  const auto nv = static_cast<idx_t>(k.count());
  const double wmax = std::max(*std::max_element(cost.begin(), cost.end()), 1e-300);
  const double wsum = std::max(std::accumulate(cost.begin(), cost.end(), 0.0), 1e-300);
  // Integer vertex weights: up to 2^20 levels for the heaviest block, the sum below 2^30.
  const double scale = std::min(double(1 << 20) / wmax, double(1 << 30) / wsum);
  graphk::MetisProblem m;
  std::vector<idx_t>& vwgt = m.vwgt, &xadj = m.xadj, &adjncy = m.adjncy, &adjwgt = m.adjwgt;
  vwgt.resize(static_cast<std::size_t>(nv));
  xadj.assign(static_cast<std::size_t>(nv) + 1, 0);
  std::vector<std::int64_t> areas;  // 64-bit first: a face of a 2^21^3 grid's block has 2^32 cells
  for (idx_t v = 0; v < nv; ++v) vwgt[static_cast<std::size_t>(v)] = static_cast<idx_t>(std::llround(cost[static_cast<std::size_t>(v)] * scale));
  for (std::int64_t z = 0; z < k.n[2]; ++z)
    for (std::int64_t y = 0; y < k.n[1]; ++y)
      for (std::int64_t x = 0; x < k.n[0]; ++x) {
        const std::int64_t c[3] = {x, y, z};
        for (int d = 0; d < k.dim; ++d)
          for (int s : {-1, 1}) {
            std::int64_t o[3] = {x, y, z};
            o[d] += s;
            if (o[d] < 0 || o[d] >= k.n[static_cast<std::size_t>(d)]) continue;
            // Cell faces between the two blocks: the cross-section of the face.
            std::int64_t area = 1;
            for (int e = 0; e < k.dim; ++e)
              if (e != d) area *= block_width(k, g, e, c[e]);
            adjncy.push_back(static_cast<idx_t>(o[0] + k.n[0] * (o[1] + k.n[1] * o[2])));
            areas.push_back(area);
          }
        xadj[static_cast<std::size_t>(x + k.n[0] * (y + k.n[1] * z)) + 1] = static_cast<idx_t>(adjncy.size());
      }
  // Face areas reach 2^32 on a 2^21^3 grid, and METIS sums edge weights in 32-bit idx_t: scale
  // them so that their total stays below 2^29 (each at least 1: an edge must keep a weight).
  double area_sum = 0.0;
  for (const std::int64_t a : areas) area_sum += static_cast<double>(a);
  const double shrink = area_sum > graphk::kMetisWeightLimit ? graphk::kMetisWeightLimit / area_sum : 1.0;
  for (const std::int64_t a : areas)
    adjwgt.push_back(std::max<idx_t>(1, static_cast<idx_t>(static_cast<double>(a) * shrink)));
  m.parts = static_cast<idx_t>(per_node.size());
  // No more blocks than nodes (a grid of a few cells on many nodes): METIS may then put every
  // block in one part; a block per node is the best any cut can do.
  if (m.parts >= nv) {
    std::vector<int> node(static_cast<std::size_t>(nv));
    std::iota(node.begin(), node.end(), 0);
    return node;
  }
  const double total = std::accumulate(per_node.begin(), per_node.end(), 0.0);
  for (int p : per_node) m.tpwgts.push_back(static_cast<real_t>(p / total));
  m.ubvec.assign(1, static_cast<real_t>(1.0 + std::max(imbalance, kMinNodeImbalance)));
  m.seed = 1;  // deterministic
  // Not METIS_OPTION_CONTIG: forcing connected node regions cost 3% more inter-node halo on
  // hotspot3d 256^3 (30 tries each); recursive bisection (METIS_PartGraphRecursive) cost far
  // more (0.97x flat against 0.80x with 10 tries).
  m.cuts = kMetisCuts;
  m.kway = true;
  const graphk::MetisResult r = graphk::run_metis(m);
  if (r.status != METIS_OK)
    problem = "METIS_PartGraphKway failed on the node-level block graph (code " + std::to_string(r.status) + ")";
  return std::vector<int>(r.part.begin(), r.part.end());
}

}  // namespace

HierGridPartition graph_partition(const Comm& comm, const Grid& grid, const Topology& topology,
                                  const std::vector<int>& per_node, double imbalance) {
  GridOptions check;
  check.parts = std::accumulate(per_node.begin(), per_node.end(), 0);
  const grid::GridInput in = grid::prepare_grid(comm, grid, check);
  auto blocks = std::make_shared<Blocks>(blocks_for_grid(grid));
  const std::size_t nb = static_cast<std::size_t>(blocks->count());
  // Exact fixed-point sums (as every grid method uses), so the block costs, hence METIS's input
  // and the partition, are the same for any number of ranks.
  std::vector<std::int64_t> fixed(nb, 0);
  grid::for_each_row(in.local, in.local.box, [&](std::size_t index, std::int64_t x0, std::int64_t y, std::int64_t z,
                                                 std::int64_t count) {
    for (std::int64_t j = 0; j < count; ++j)
      fixed[static_cast<std::size_t>(blocks->index(x0 + j, y, z))] += in.weight_of(index + static_cast<std::size_t>(j));
  });
  MPI_Allreduce(MPI_IN_PLACE, fixed.data(), static_cast<int>(nb), MPI_INT64_T, MPI_SUM, comm.get());
  const std::vector<double> cost(fixed.begin(), fixed.end());
  blocks->node.assign(nb, 0);
  std::string problem;
  if (topology.nodes > 1 && comm.rank() == 0) blocks->node = cut_blocks(grid, *blocks, cost, per_node, imbalance, problem);
  comm.agree(problem.empty() ? ErrorCode::ok : ErrorCode::internal, problem);
  MPI_Bcast(blocks->node.data(), static_cast<int>(nb), MPI_INT, 0, comm.get());
  std::vector<part_t> node_of_cell(in.local.size(), 0);
  grid::for_each_row(in.local, in.local.box, [&](std::size_t index, std::int64_t x0, std::int64_t y, std::int64_t z,
                                                 std::int64_t count) {
    for (std::int64_t j = 0; j < count; ++j)
      node_of_cell[index + static_cast<std::size_t>(j)] = blocks->node[static_cast<std::size_t>(blocks->index(x0 + j, y, z))];
  });
  return split_nodes_by_curve(comm, in, grid, topology, per_node, node_of_cell, imbalance, blocks);
}

}  // namespace hpart::hier
