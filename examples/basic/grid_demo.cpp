// The README's grid demo: a 2D grid whose cost has a hotspot, held in slabs by the ranks,
// partitioned by every grid method and hierarchically (emulated 2 nodes), one table row each.
//   mpirun -np 4 grid_demo [--n 1024] [--parts 16]
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "hpart/hpart.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  std::int64_t side = 1024;
  int parts = 16;
  std::string png_dir;  // --png DIR: DIR/grid_<method>.png for every method
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--n")) side = std::atoll(argv[i + 1]);
    if (!std::strcmp(argv[i], "--parts")) parts = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--png")) png_dir = argv[i + 1];
  }
  int status = 0;
  try {
    const hpart::Comm comm(MPI_COMM_WORLD);
    hpart::Grid g;
    g.dim = 2;
    g.extent = {side, side, 1};
    // This rank's slab of rows, and its cells' costs: 1, or 50 inside a disk (5% of the domain).
    g.local = g.domain();
    g.local.lo[1] = side * comm.rank() / comm.size();
    g.local.hi[1] = side * (comm.rank() + 1) / comm.size() - 1;
    std::vector<double> cost;
    for (std::int64_t y = g.local.lo[1]; y <= g.local.hi[1]; ++y)
      for (std::int64_t x = 0; x < side; ++x) {
        const double u = (static_cast<double>(x) + 0.5) / static_cast<double>(side) - 0.35;
        const double v = (static_cast<double>(y) + 0.5) / static_cast<double>(side) - 0.6;
        cost.push_back(u * u + v * v < 0.05 / M_PI ? 50.0 : 1.0);
      }
    g.cost = cost;

    if (comm.rank() == 0) {
      std::printf("\nhpart grid demo: %lld x %lld cells with a hotspot, %d parts, %d ranks\n",
                  static_cast<long long>(side), static_cast<long long>(side), parts, comm.size());
      std::printf("%-24s %10s %9s %12s %12s\n", "method", "imbalance", "time_s", "halo_cells", "internode");
    }
    const int nodes = comm.size() % 2 == 0 && comm.size() > 1 ? 2 : 1;
    const hpart::Topology topo =
        hpart::detect_topology(comm, std::to_string(nodes) + "x" + std::to_string(comm.size() / nodes));
    auto row = [&](const std::string& name, const hpart::GridPartition& p, const std::vector<int>& node_of_part) {
      if (!png_dir.empty())
        hpart::write_grid_partition_png(comm, png_dir + "/grid_" + name.substr(0, name.find(' ')) + ".png", g, p, 512);
      const hpart::GridNeighbours n = hpart::grid_neighbours(comm, g, p);
      const hpart::LevelVolumes v = hpart::level_volumes(n, node_of_part);
      if (comm.rank() == 0)
        std::printf("%-24s %10.5f %9.4f %12lld %12lld\n", name.c_str(), p.metrics.imbalance[0],
                    p.metrics.seconds, static_cast<long long>(n.halo_volume),
                    static_cast<long long>(v.internode));
    };
    std::vector<int> flat_nodes;
    const hpart::PartOwners owners{parts, comm.size()};
    for (int q = 0; q < parts; ++q) flat_nodes.push_back(topo.node_of_rank[static_cast<std::size_t>(owners.owner(q))]);
    for (hpart::GridMethod m : {hpart::GridMethod::sfc, hpart::GridMethod::blocks, hpart::GridMethod::tensor,
                                hpart::GridMethod::uniform}) {
      hpart::GridOptions o;
      o.parts = parts;
      o.method = m;
      row(hpart::to_string(m), hpart::partition_grid(comm, g, o), flat_nodes);
    }
    hpart::HierGridOptions h;
    h.parts = parts;
    const hpart::HierGridPartition hp = hpart::partition_grid_hierarchical(comm, g, topo, h);
    row("hier (" + topo.source + ")", hp, hp.node_of_part);
    if (comm.rank() == 0 && !png_dir.empty())
      std::printf("pictures: %s/grid_{sfc,blocks,tensor,uniform,hier}.png\n", png_dir.c_str());
    if (comm.rank() == 0)
      std::printf("imbalance = max part cost / mean - 1; halo_cells = cells received by all parts for a width-1\n"
                  "halo; internode = the share between parts on different (emulated) nodes\n");

    // The same field as an AMR level: 64^2 patches, refined to 16^2 where they meet the hotspot,
    // each costing the sum of its cells. Each rank passes the patches that start in its rows.
    std::vector<hpart::Box> boxes;
    std::vector<double> patch_cost;
    const auto cell_cost = [&](std::int64_t x, std::int64_t y) {
      const double u = (static_cast<double>(x) + 0.5) / static_cast<double>(side) - 0.35;
      const double v = (static_cast<double>(y) + 0.5) / static_cast<double>(side) - 0.6;
      return u * u + v * v < 0.05 / M_PI ? 50.0 : 1.0;
    };
    const auto add_patch = [&](std::int64_t x0, std::int64_t y0, std::int64_t s, bool split) {
      const std::int64_t step = split ? s / 4 : s;
      for (std::int64_t y = y0; y < std::min(y0 + s, side); y += step)
        for (std::int64_t x = x0; x < std::min(x0 + s, side); x += step) {
          hpart::Box b{2, {x, y, 0, 0}, {std::min(x + step, side) - 1, std::min(y + step, side) - 1, 0, 0}};
          double c = 0;
          for (std::int64_t j = b.lo[1]; j <= b.hi[1]; ++j)
            for (std::int64_t i = b.lo[0]; i <= b.hi[0]; ++i) c += cell_cost(i, j);
          boxes.push_back(b);
          patch_cost.push_back(c);
        }
    };
    const std::int64_t S = std::max<std::int64_t>(4, side / 16);
    for (std::int64_t y = 0; y < side; y += S)
      for (std::int64_t x = 0; x < side; x += S) {
        if (y < g.local.lo[1] || y > g.local.hi[1]) continue;
        double lo = 1e300, hi = 0;
        for (std::int64_t j = y; j < std::min(y + S, side); j += std::max<std::int64_t>(1, S / 8))
          for (std::int64_t i = x; i < std::min(x + S, side); i += std::max<std::int64_t>(1, S / 8))
            lo = std::min(lo, cell_cost(i, j)), hi = std::max(hi, cell_cost(i, j));
        add_patch(x, y, S, hi > lo);  // refine where the cost changes: the hotspot's edge
      }
    hpart::PatchList level;
    level.dim = 2;
    level.extent = {side, side, 1};
    level.boxes = boxes;
    level.cost = patch_cost;
    if (comm.rank() == 0)
      std::printf("\nthe same field as an AMR level of patches (%s^2, refined to a quarter at the hotspot's edge)\n"
                  "%-24s %10s %9s %12s\n", std::to_string(S).c_str(), "patch method", "imbalance", "time_s", "ghost_cells");
    for (hpart::PatchMethod m : {hpart::PatchMethod::knapsack, hpart::PatchMethod::sfc, hpart::PatchMethod::sfc_swap}) {
      hpart::PatchOptions o;
      o.parts = parts;
      o.method = m;
      const hpart::PatchPartition pp = hpart::partition_patches(comm, level, o);
      const hpart::GridNeighbours n = hpart::patch_neighbours(comm, level, pp);
      if (comm.rank() == 0)
        std::printf("%-24s %10.5f %9.4f %12lld\n", hpart::to_string(m), pp.metrics.imbalance[0],
                    pp.metrics.seconds, static_cast<long long>(n.halo_volume));
    }
    if (comm.rank() == 0)
      std::printf("ghost_cells = cells every patch receives from patches of other parts (width 1)\n");
  } catch (const hpart::Error& e) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) std::fprintf(stderr, "grid_demo: error: %s\n", e.what());
    status = 2;
  }
  MPI_Finalize();
  return status;
}
