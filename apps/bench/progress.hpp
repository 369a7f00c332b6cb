#pragma once
// Rank-0 progress lines of the suites: "[points] uniform3d: hpart hilbert ... 0.123 s".
#include <mpi.h>

#include <cstdio>
#include <string>

#include "hpart/comm.hpp"

namespace hpart_bench {

class Progress {
 public:
  Progress(const hpart::Comm& comm, const char* suite, const std::string& case_name, const std::string& what)
      : root_(comm.rank() == 0), start_(MPI_Wtime()) {
    if (root_) {
      std::printf("[%s] %s: %s ... ", suite, case_name.c_str(), what.c_str());
      std::fflush(stdout);
    }
  }
  void done(const std::string& extra = {}) {
    if (root_) {
      std::printf("%.3f s%s\n", MPI_Wtime() - start_, extra.c_str());
      std::fflush(stdout);
    }
  }

 private:
  bool root_;
  double start_;
};

}  // namespace hpart_bench
