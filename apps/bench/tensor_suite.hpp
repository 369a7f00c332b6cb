#pragma once
// The "tensor" suite: domain-parallel tensors (hpart_tensor). One function per case, found by
// name in tensor_suite.cpp's case table; each writes its records (hpart and its baseline).
#include <cstdint>
#include <string>
#include <vector>

#include "bench_record.hpp"
#include "hpart/comm.hpp"

namespace hpart_bench {

struct TensorSuiteConfig {
  int reps = 1;
  std::vector<std::string> cases;  // empty: every case
  std::vector<std::string> libraries;  // empty: every library of each case (halo2d: hpart, mpi)
  std::int64_t side = 0;           // cells per side (0: each case's default, below)
  int channels = 16;
};

// The cases' default sides: small, so that `--suite tensor` finishes in seconds on 2 cores
// (the numbers in docs/benchmarks.md and docs/tensors.md were measured with --side2d 4096 for
// halo2d and 2048 for conv2d: a 1 GiB field and ~4 s per conv call there).
inline constexpr std::int64_t kDefaultHalo2dSide = 1024;
inline constexpr std::int64_t kDefaultConv2dSide = 256;

const char* tensor_case_names();  // "halo2d, ..."
bool is_tensor_case(const std::string& name);
bool runs_library(const TensorSuiteConfig& cfg, const std::string& library);

// The cases (each collective over `comm`).
void run_halo2d_case(const hpart::Comm& comm, const TensorSuiteConfig& cfg, RecordSink& sink);
void run_conv2d_case(const hpart::Comm& comm, const TensorSuiteConfig& cfg, RecordSink& sink);

// Initialises Kokkos for the suite (unless it is) and runs the cases asked for.
void run_tensor_suite(const hpart::Comm& comm, const TensorSuiteConfig& cfg, RecordSink& sink);

// `hpart-bench --suite tensor`: validates the options (same verdict on every rank), opens the
// --json sink, runs the suite, prints the table. side 0: the cases' defaults. Returns the exit code.
int run_tensor_command(int rank, int reps, const std::vector<std::string>& cases,
                       const std::vector<std::string>& libraries, long long side, const std::string& json);

}  // namespace hpart_bench
