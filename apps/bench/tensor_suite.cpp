#include "tensor_suite.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>

#include "hpart/tensor/kokkos_session.hpp"

namespace hpart_bench {
namespace {

struct TensorCase {
  const char* name;
  void (*run)(const hpart::Comm&, const TensorSuiteConfig&, RecordSink&);
};

// A new case: a run_<name>_case function (declared in tensor_suite.hpp) and a line here.
constexpr TensorCase kCases[] = {
    {"halo2d", run_halo2d_case},
    {"conv2d", run_conv2d_case},
};

}  // namespace

const char* tensor_case_names() { return "halo2d, conv2d"; }

bool is_tensor_case(const std::string& name) {
  return std::any_of(std::begin(kCases), std::end(kCases), [&](const TensorCase& c) { return name == c.name; });
}

bool runs_library(const TensorSuiteConfig& cfg, const std::string& library) {
  return cfg.libraries.empty() || std::find(cfg.libraries.begin(), cfg.libraries.end(), library) != cfg.libraries.end();
}

void run_tensor_suite(const hpart::Comm& comm, const TensorSuiteConfig& cfg, RecordSink& sink) {
  const hpart::tensor::KokkosSession kokkos;
  for (const TensorCase& c : kCases)
    if (cfg.cases.empty() || std::find(cfg.cases.begin(), cfg.cases.end(), c.name) != cfg.cases.end())
      c.run(comm, cfg, sink);
}

int run_tensor_command(int rank, int reps, const std::vector<std::string>& cases,
                       const std::vector<std::string>& libraries, long long side, const std::string& json) {
  TensorSuiteConfig cfg;
  cfg.reps = reps;
  cfg.cases = cases;
  cfg.libraries = libraries;
  cfg.side = side;
  std::string problem;
  if (reps < 1) problem = "--reps must be >= 1 (got " + std::to_string(reps) + ")";
  if (side != 0 && side < 8) problem = "--side2d must be >= 8 for suite tensor (got " + std::to_string(side) + ")";
  for (const std::string& c : cases)
    if (!is_tensor_case(c)) problem = "unknown case '" + c + "' for suite tensor (available: " + tensor_case_names() + ")";
  for (const std::string& l : libraries)
    if (l != "hpart" && l != "mpi") problem = "unknown library '" + l + "' for suite tensor (available: hpart, mpi)";
  if (!problem.empty()) {
    if (rank == 0) std::fprintf(stderr, "hpart-bench: %s\n", problem.c_str());
    return 2;
  }
  const hpart::Comm comm(MPI_COMM_WORLD);
  RecordSink sink(rank, json);
  comm.agree(sink.open_error().empty() ? hpart::ErrorCode::ok : hpart::ErrorCode::io, sink.open_error());
  run_tensor_suite(comm, cfg, sink);
  if (rank == 0) std::printf("\n");
  sink.print_table(stdout);
  if (rank == 0 && !json.empty()) std::printf("records written to %s\n", json.c_str());
  return 0;
}

}  // namespace hpart_bench
