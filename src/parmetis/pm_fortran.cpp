// The Fortran names of ParMETIS 4's entry points, as its frename.c defines them: upper case,
// lower case, and lower case with one or two trailing underscores, each taking the communicator
// as a Fortran handle (MPI_Fint) and converting it with MPI_Comm_f2c. A Fortran program that
// calls ParMETIS (`call ParMETIS_V3_PartKway(..., comm)` with an INTEGER communicator, through
// the compiler's usual name mangling) relinks against libhpart_parmetis unchanged.
#include <mpi.h>

#include "hpart/parmetis.h"

#define HPART_PM_FORTRAN(NAME, UPPER, LOWER, PARAMS, ARGS)      \
  int UPPER PARAMS {                                           \
    MPI_Comm comm = MPI_Comm_f2c(*icomm);                      \
    return NAME ARGS;                                          \
  }                                                            \
  int LOWER PARAMS {                                           \
    MPI_Comm comm = MPI_Comm_f2c(*icomm);                      \
    return NAME ARGS;                                          \
  }                                                            \
  int LOWER##_ PARAMS {                                        \
    MPI_Comm comm = MPI_Comm_f2c(*icomm);                      \
    return NAME ARGS;                                          \
  }                                                            \
  int LOWER##__ PARAMS {                                       \
    MPI_Comm comm = MPI_Comm_f2c(*icomm);                      \
    return NAME ARGS;                                          \
  }

extern "C" {

HPART_PM_FORTRAN(ParMETIS_V3_PartKway, PARMETIS_V3_PARTKWAY, parmetis_v3_partkway,
                 (idx_t * vtxdist, idx_t* xadj, idx_t* adjncy, idx_t* vwgt, idx_t* adjwgt, idx_t* wgtflag,
                  idx_t* numflag, idx_t* ncon, idx_t* nparts, real_t* tpwgts, real_t* ubvec, idx_t* options,
                  idx_t* edgecut, idx_t* part, MPI_Fint* icomm),
                 (vtxdist, xadj, adjncy, vwgt, adjwgt, wgtflag, numflag, ncon, nparts, tpwgts, ubvec, options,
                  edgecut, part, &comm))

HPART_PM_FORTRAN(ParMETIS_V3_PartGeomKway, PARMETIS_V3_PARTGEOMKWAY, parmetis_v3_partgeomkway,
                 (idx_t * vtxdist, idx_t* xadj, idx_t* adjncy, idx_t* vwgt, idx_t* adjwgt, idx_t* wgtflag,
                  idx_t* numflag, idx_t* ndims, real_t* xyz, idx_t* ncon, idx_t* nparts, real_t* tpwgts,
                  real_t* ubvec, idx_t* options, idx_t* edgecut, idx_t* part, MPI_Fint* icomm),
                 (vtxdist, xadj, adjncy, vwgt, adjwgt, wgtflag, numflag, ndims, xyz, ncon, nparts, tpwgts, ubvec,
                  options, edgecut, part, &comm))

HPART_PM_FORTRAN(ParMETIS_V3_PartGeom, PARMETIS_V3_PARTGEOM, parmetis_v3_partgeom,
                 (idx_t * vtxdist, idx_t* ndims, real_t* xyz, idx_t* part, MPI_Fint* icomm),
                 (vtxdist, ndims, xyz, part, &comm))

HPART_PM_FORTRAN(ParMETIS_V3_RefineKway, PARMETIS_V3_REFINEKWAY, parmetis_v3_refinekway,
                 (idx_t * vtxdist, idx_t* xadj, idx_t* adjncy, idx_t* vwgt, idx_t* adjwgt, idx_t* wgtflag,
                  idx_t* numflag, idx_t* ncon, idx_t* nparts, real_t* tpwgts, real_t* ubvec, idx_t* options,
                  idx_t* edgecut, idx_t* part, MPI_Fint* icomm),
                 (vtxdist, xadj, adjncy, vwgt, adjwgt, wgtflag, numflag, ncon, nparts, tpwgts, ubvec, options,
                  edgecut, part, &comm))

HPART_PM_FORTRAN(ParMETIS_V3_AdaptiveRepart, PARMETIS_V3_ADAPTIVEREPART, parmetis_v3_adaptiverepart,
                 (idx_t * vtxdist, idx_t* xadj, idx_t* adjncy, idx_t* vwgt, idx_t* vsize, idx_t* adjwgt,
                  idx_t* wgtflag, idx_t* numflag, idx_t* ncon, idx_t* nparts, real_t* tpwgts, real_t* ubvec,
                  real_t* ipc2redist, idx_t* options, idx_t* edgecut, idx_t* part, MPI_Fint* icomm),
                 (vtxdist, xadj, adjncy, vwgt, vsize, adjwgt, wgtflag, numflag, ncon, nparts, tpwgts, ubvec,
                  ipc2redist, options, edgecut, part, &comm))

}  // extern "C"
