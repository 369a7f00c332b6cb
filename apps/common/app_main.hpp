#pragma once
// The main() of the example apps: MPI up, options parsed on every rank alike, the run, and
// hpart::Errors (thrown on every rank alike, so all ranks leave together) turned into an exit
// code with rank 0 alone printing. Exit codes: 0 ok, 1 bad command line (from parse), 2 bad input,
// 3 internal error.
#include <mpi.h>

#include <cstdio>
#include <optional>

#include "hpart/comm.hpp"
#include "hpart/error.hpp"

namespace hpart_apps {

// parse(argc, argv, rank, options) -> std::optional<int> (an exit code to stop with);
// run(comm, options) -> int.
template <class Options, class Parse, class Run>
int mpi_app_main(int argc, char** argv, const char* name, Parse parse, Run run) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    const hpart::Comm comm(MPI_COMM_WORLD);
    Options opts;
    if (std::optional<int> code = parse(argc, argv, comm.rank(), opts)) {
      status = *code;
    } else {
      try {
        status = run(comm, opts);
      } catch (const hpart::Error& e) {
        if (comm.rank() == 0) std::fprintf(stderr, "%s: error: %s\n", name, e.what());
        status = e.code() == hpart::ErrorCode::internal ? 3 : 2;
      }
    }
  }
  MPI_Finalize();
  return status;
}

}  // namespace hpart_apps
