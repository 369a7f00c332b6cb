// A shared library's MPI call, as libhpart.so makes them: the counters must see it too (the
// test program exports its MPI_* wrappers, so the dynamic linker binds this call to them).
#include <mpi.h>

extern "C" void scaling_shared_library_allreduce(MPI_Comm comm) {
  int in[7] = {}, out[7] = {};
  MPI_Allreduce(in, out, 7, MPI_INT, MPI_SUM, comm);
}
