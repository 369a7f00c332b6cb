#pragma once
// The hpart CLI's subcommands. Each runs on every rank with the same parsed options and returns
// the process exit code; hpart::Error propagates to main, which prints it on rank 0.
#include <cstdint>
#include <string>

#include "hpart/comm.hpp"

namespace hpart_cli {

struct PartitionArgs {
  std::string points;     // text point file
  int parts = 0;
  std::string method = "hilbert";
  double imbalance = 0.001;
  int dim = 0;            // 0: from the file's columns
  std::string out;        // part file, one id per point
  std::string png;        // picture of the partition
  int png_size = 1024;
  bool quiet = false;
};
int run_partition(const hpart::Comm& comm, const PartitionArgs& args);

struct GenerateArgs {
  std::string shape = "uniform2d";
  long long n = 100000;
  std::uint64_t seed = 1;
  std::string out;
  bool quiet = false;
};
int run_generate(const hpart::Comm& comm, const GenerateArgs& args);

}  // namespace hpart_cli
