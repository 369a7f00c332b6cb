/* A C program against the installed hpart, built with mpicc and pkg-config only: the C99 version
 * header hpart/hpart_version.h and its functions agree with the macros it was compiled with. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include <hpart/hpart_version.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int bad = strcmp(hpart_version(), HPART_VERSION_STRING) != 0 || hpart_version_major() != HPART_VERSION_MAJOR ||
            hpart_has_feature("METIS") != HPART_HAVE_METIS || hpart_has_feature("nosuch") != 0;
  if (rank == 0) printf("hpart %s (C): metis %d hdf5 %d png %d hwloc %d: %s\n", hpart_version(), hpart_has_feature("metis"),
                        hpart_has_feature("hdf5"), hpart_has_feature("png"), hpart_has_feature("hwloc"), bad ? "BAD" : "ok");
  MPI_Finalize();
  return bad;
}
