#pragma once
// hpart-heat's command line. Every rank parses the same argv, so all reach the same verdict
// without talking; rank 0 alone prints the message.
#include <optional>
#include <string>

namespace hpart_heat {

struct HeatOptions {
  int dim = 2;
  long long n = 0;  // cells per dimension; 0 = 1024 in 2D, 128 in 3D
  int steps = 200;
  int rebalance_every = 20;  // 0 = partition once at step 0, never again
  std::string method = "blocks";
  bool planes = false;  // blocks: rebalance by moving the previous partition's cut planes
  int hot = 20;       // cost factor inside the hot disk/ball
  int work = 0;       // sub-steps per unit of cost; 0 = 160 in 2D, 80 in 3D
  double radius = 0;  // of the hot region, in domain sides; 0 = the default for dim
  int print_every = 10;
  int threads = 0;    // OpenMP threads per rank; 0 = the default of thread_default.hpp
  std::string clock = "wall";  // of the measured update times: wall, or cpu (process CPU time)
  std::string json;
  bool quiet = false;
  bool check = false;
};

// Cells of a --check run at most (rank 0 holds the whole grid and steps it serially).
inline constexpr long long kMaxCheckCells = 1LL << 22;

// Parses and validates argv. Returns the options, or the exit code to leave with (0 for --help,
// 1 for a bad command line) after rank 0 has printed the message.
std::optional<int> parse_heat_options(int argc, char** argv, int rank, HeatOptions& out);

}  // namespace hpart_heat
