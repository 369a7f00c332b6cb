#pragma once
// The problem sizes of the scaling suite for one rank count. Strong scaling keeps the global size
// fixed; weak scaling keeps the size per rank fixed (a quarter of the strong size per rank, so the
// two meet at 4 ranks) and gives each rank 4 parts. Presets scale every case's volume alike:
// ci 1/64, small 1/8, default 1, large 8.
#include <string>

namespace hpart_scaling {

struct Sizes {
  std::string mode;    // "strong" or "weak"
  std::string preset;  // "ci", "small", "default", "large"
  int ranks = 1;
  int parts = 64;               // strong: 64; weak: 4 per rank
  long long points = 0;         // points.hilbert: uniform points in the unit cube
  long long grid_side = 0;      // grid.*, hier.grid: side of the 2-D hotspot grid
  long long graph_side = 0;     // graph.kway: side of the 3-D 7-point grid graph
  long long drift_side = 0;     // repart_points: side of the cube of cells, as points
  long long repart_graph_side = 0;  // repart_graph: side of its 3-D grid graph
  long long halo_side = 0;      // halo.exchange: side of the 2-D field
  long long conv_side = 0;      // conv.conv2d: side of the 2-D field
  int channels = 8;             // halo and conv
};

// Throws hpart::Error (invalid_argument) for an unknown mode or preset.
Sizes sizes_for(const std::string& mode, const std::string& preset, int ranks);

}  // namespace hpart_scaling
