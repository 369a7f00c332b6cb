#pragma once
// hpart-particles' command line. Every rank parses the same argv, so all reach the same verdict
// without talking; rank 0 alone prints the message.
#include <optional>
#include <string>

namespace hpart_particles {

struct ParticlesOptions {
  std::string mode = "feedback";  // static | always | feedback
  long long n = 0;                // 0: 60000 (2000 with --check)
  int cells = 0;                  // 0: 128 (32 with --check)
  int steps = 0;                  // 0: 400 (40 with --check)
  int work = 1;
  double kappa = 0.0015;     // the flow's pull towards the blob centre (particles_problem.hpp)
  double repulsion = 1e-5;
  double tolerance = 0.05;        // the Rebalancer's imbalance tolerance (feedback)
  int horizon = 50;               // ... and its prediction horizon, in steps
  bool scratch = false;           // feedback: every rebalance from scratch (relabelled), not incremental
  int print_every = 20;
  std::string clock = "cpu";      // of the measured compute times: cpu (this process's) or wall
  int verbose = 0;                // the Rebalancer's decision log on rank 0
  int threads = 0;                // OpenMP threads per rank of hpart's calls; 0 = thread_default.hpp's default
  std::string json;
  bool quiet = false;
  bool check = false;
};

// Parses and validates argv. Returns the exit code to leave with (0 for --help, 1 for a bad
// command line) after rank 0 printed the message, or nothing when the options are good.
std::optional<int> parse_particles_options(int argc, char** argv, int rank, ParticlesOptions& out);

}  // namespace hpart_particles
