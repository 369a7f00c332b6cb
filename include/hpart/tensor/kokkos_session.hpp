#pragma once
// Kokkos::initialize / finalize for apps and tests: initialises Kokkos unless it already is
// (a host program that set it up itself keeps ownership), and finalises only what it started.
// Construct after MPI_Init and destroy before MPI_Finalize; every view must be gone by then.
#include <Kokkos_Core.hpp>

namespace hpart::tensor {

class KokkosSession {
 public:
  KokkosSession(int& argc, char** argv) {
    if (!Kokkos::is_initialized()) {
      Kokkos::initialize(argc, argv);
      owner_ = true;
    }
  }
  KokkosSession() {
    if (!Kokkos::is_initialized()) {
      Kokkos::initialize();
      owner_ = true;
    }
  }
  ~KokkosSession() {
    if (owner_ && Kokkos::is_initialized()) Kokkos::finalize();
  }
  KokkosSession(const KokkosSession&) = delete;
  KokkosSession& operator=(const KokkosSession&) = delete;

 private:
  bool owner_ = false;
};

}  // namespace hpart::tensor
