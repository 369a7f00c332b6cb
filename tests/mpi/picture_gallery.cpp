// The pictures of docs/pictures.md, drawn with the library's picture writers (built with the
// tests, not run by ctest):
//   mpirun -np 4 picture_gallery OUTDIR CLUSTERS2D.txt UNIFORM3D.txt CLUSTERS3D.txt [MAX_SIDE]
// the point files from `hpart generate --shape clusters2d|uniform3d|clusters3d --n 200000`. Writes
// points2d, cube64, clusters3d, grid_blocks, grid_hier (topology 2x2: 4 ranks) and graph (an
// annulus mesh with coordinates), each with a title and a legend.
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "hpart/graph.hpp"
#include "hpart/hierarchy.hpp"
#include "hpart/io.hpp"
#include "hpart/points.hpp"

namespace {

std::string fmt(const char* format, double a, double b = 0, double c = 0) {
  char text[160];
  std::snprintf(text, sizeof text, format, a, b, c);
  return text;
}

void points(const hpart::Comm& comm, const std::string& in, const std::string& out, int parts, const std::string& what,
            int side) {
  const hpart::PointFile f = hpart::read_points_text(comm, in);
  hpart::PointOptions o;
  o.parts = parts;
  const auto p = hpart::partition_points(comm, f.view(), o);
  hpart::PictureOptions pic;
  pic.max_side = side;
  pic.title = what + ": " + std::to_string(f.global_count) + " points, " + std::to_string(parts) + " parts";
  pic.legend = {fmt("Hilbert curve ranges   imbalance %.4f   empty parts %.0f", p.metrics.imbalance[0],
                    static_cast<double>(p.metrics.empty_parts))};
  if (f.dim == 3) pic.legend.push_back("sections through 4 slabs of z; colours repeat only between parts that do not touch");
  hpart::write_partition_png(comm, out, f.view(), p.parts, p.num_parts, pic);
}

// An annulus meshed in triangles: nr rings of nt vertices, edges along rings, across them and
// one diagonal per quad; vertex i * nt + j sits at radius 1 + i / (nr - 1), angle 2 pi j / nt.
hpart::GraphFile annulus(const hpart::Comm& comm, int nr, int nt) {
  hpart::GraphFile g;
  const long long n = static_cast<long long>(nr) * nt;
  for (int r = 0; r <= comm.size(); ++r) g.vtxdist.push_back(n * r / comm.size());
  g.xadj.push_back(0);
  g.dim = 2;
  const long long lo = g.vtxdist[static_cast<std::size_t>(comm.rank())], hi = g.vtxdist[static_cast<std::size_t>(comm.rank()) + 1];
  auto id = [&](int i, int j) { return static_cast<hpart::gid_t>(i) * nt + (j + nt) % nt; };
  for (long long v = lo; v < hi; ++v) {
    const int i = static_cast<int>(v / nt), j = static_cast<int>(v % nt);
    g.adjncy.push_back(id(i, j - 1));
    g.adjncy.push_back(id(i, j + 1));
    if (i > 0) g.adjncy.push_back(id(i - 1, j)), g.adjncy.push_back(id(i - 1, j - 1));
    if (i + 1 < nr) g.adjncy.push_back(id(i + 1, j)), g.adjncy.push_back(id(i + 1, j + 1));
    g.xadj.push_back(static_cast<std::int64_t>(g.adjncy.size()));
    const double radius = 1.0 + static_cast<double>(i) / (nr - 1), angle = 2.0 * M_PI * j / nt;
    g.coords.push_back(radius * std::cos(angle));
    g.coords.push_back(radius * std::sin(angle));
  }
  g.global_vertices = n;
  return g;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rc = 0;
  try {
    if (argc < 5) throw std::runtime_error("usage: picture_gallery OUTDIR CLUSTERS2D UNIFORM3D CLUSTERS3D [MAX_SIDE]");
    const std::string dir = argv[1];
    const int side = argc > 5 ? std::stoi(argv[5]) : 800;
    const hpart::Comm comm(MPI_COMM_WORLD);
    points(comm, argv[2], dir + "/pictures_points2d.png", 16, "clusters2d", side);
    points(comm, argv[3], dir + "/pictures_cube64.png", 64, "uniform cube", side);
    points(comm, argv[4], dir + "/pictures_clusters3d.png", 32, "clusters3d", side);

    // A 256 x 256 grid with a cost hotspot, this rank's rows.
    const std::int64_t nx = 256, ny = 256;
    hpart::Grid grid;
    grid.extent = {nx, ny, 1};
    const std::int64_t y0 = ny * comm.rank() / comm.size(), y1 = ny * (comm.rank() + 1) / comm.size();
    grid.local = hpart::Box::from_extent(2, {nx, y1 - y0, 1, 1});
    grid.local.lo[1] = y0;
    grid.local.hi[1] = y1 - 1;
    std::vector<double> cost;
    for (std::int64_t y = y0; y < y1; ++y)
      for (std::int64_t x = 0; x < nx; ++x)
        cost.push_back(1.0 + 20.0 * std::exp(-(std::pow(static_cast<double>(x) - 80.0, 2) + std::pow(static_cast<double>(y) - 170.0, 2)) / 800.0));
    grid.cost = cost;
    hpart::GridOptions go;
    go.parts = 16;
    const auto blocks = hpart::partition_grid(comm, grid, go);
    hpart::PictureOptions pic;
    pic.max_side = side;
    pic.title = "grid 256 x 256 with a cost hotspot: blocks, 16 parts";
    pic.legend = {fmt("recursive bisection   imbalance %.4f", blocks.metrics.imbalance[0])};
    hpart::write_grid_partition_png(comm, dir + "/pictures_grid_blocks.png", grid, blocks, pic);
    if (comm.size() == 4) {
      const hpart::Topology topo = hpart::detect_topology(comm, "2x2");
      hpart::HierGridOptions ho;
      ho.parts = 16;
      const auto hier = hpart::partition_grid_hierarchical(comm, grid, topo, ho);
      pic.title = "the same grid, hierarchical: 2 nodes x 2 ranks, 16 parts";
      pic.legend = {fmt("node cut: graph (METIS), ranks: Hilbert   imbalance %.4f", hier.metrics.imbalance[0]),
                    "thick black: between nodes   thin: between parts of a node"};
      pic.node_of_part = hier.node_of_part;
      hpart::write_grid_partition_png(comm, dir + "/pictures_grid_hier.png", grid, hier, pic);
      pic.node_of_part = {};
    }

    const int rings = 24, around = 150;
    const hpart::GraphFile g = annulus(comm, rings, around);
    hpart::GraphOptions opts;
    opts.parts = 12;
    const auto gp = hpart::partition_graph(comm, g.view(), opts);
    pic.title = "annulus mesh: " + std::to_string(rings * around) + " vertices, " +
                std::to_string(rings * around + 2 * (rings - 1) * around) + " edges, 12 parts";
    pic.legend = {fmt("multilevel graph partition   imbalance %.4f   edge cut %.0f", gp.metrics.imbalance[0],
                      static_cast<double>(gp.cut.edge_cut)),
                  "edges in a part: its colour   cut edges: grey"};
    hpart::write_graph_partition_png(comm, dir + "/pictures_graph.png", g.view(), hpart::PointSet{g.coords, 2, {}, 1, {}},
                                     gp.parts, gp.num_parts, pic);
  } catch (const std::exception& e) {
    std::cerr << "picture_gallery: " << e.what() << "\n";
    rc = 1;
  }
  MPI_Finalize();
  return rc;
}
