#pragma once
// Generated distributed graphs for the benchmarks (each rank builds its own block; no
// communication, the same graph for any rank count), with vertex coordinates.
#include <cstdint>

#include "hpart/comm.hpp"
#include "hpart/graph.hpp"

namespace hpart_apps {

// The 7-point stencil graph of a side^3 grid: vertex x + side (y + side z), rank r holding the
// z-slabs [side r / R, side (r + 1) / R). Unit weights; coordinates at the cell centres.
hpart::GraphFile grid_graph_3d(const hpart::Comm& comm, std::int64_t side);

// A 2D random geometric graph: the unit square cut into cells^2 cells, `per_cell` points uniform
// in each cell (stratified, so vertex ids follow from the cell: cell-major, rows of cells),
// edges between points closer than one cell side (so ~pi per_cell neighbours each). Rank r holds
// the rows of cells [cells r / R, cells (r + 1) / R). cells = 512, per_cell = 4: 2^20 vertices.
hpart::GraphFile random_geometric_2d(const hpart::Comm& comm, std::int64_t cells, int per_cell, std::uint64_t seed = 1);

}  // namespace hpart_apps
