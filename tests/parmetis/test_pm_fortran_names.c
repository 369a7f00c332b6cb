/* The Fortran names of the entry points (ParMETIS 4's frename.c: PARMETIS_V3_PARTKWAY,
 * parmetis_v3_partkway, parmetis_v3_partkway_, parmetis_v3_partkway__, ...), called as a Fortran
 * compiler calls them: every argument by reference, the communicator as an MPI_Fint handle.
 * Each gives what the C name gives (status, edgecut, parts); MPI_COMM_NULL's handle fails. */
#include "pm_util.h"

#define PM_FARGS                                                                                              \
  (idx_t * vtxdist, idx_t * xadj, idx_t * adjncy, idx_t * vwgt, idx_t * adjwgt, idx_t * wgtflag, idx_t * numflag, \
   idx_t * ncon, idx_t * nparts, real_t * tpwgts, real_t * ubvec, idx_t * options, idx_t * edgecut, idx_t * part,  \
   MPI_Fint * comm)
int PARMETIS_V3_PARTKWAY PM_FARGS;
int parmetis_v3_partkway PM_FARGS;
int parmetis_v3_partkway_ PM_FARGS;
int parmetis_v3_partkway__ PM_FARGS;
int parmetis_v3_refinekway_ PM_FARGS;
int parmetis_v3_partgeom_(idx_t *vtxdist, idx_t *ndims, real_t *xyz, idx_t *part, MPI_Fint *comm);

typedef int(fortran_fn) PM_FARGS;

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm comm = MPI_COMM_WORLD;
  MPI_Fint fcomm = MPI_Comm_c2f(comm), fnull = MPI_Comm_c2f(MPI_COMM_NULL);
  pm_graph g = pm_grid(24, 20, comm);
  idx_t wgtflag = 1, numflag = 0, ncon = 1, nparts = 6, options[4] = {0, 0, 0, 0}, cut_c = -1;
  real_t tpwgts[6], ubvec[1] = {1.05f};
  for (int q = 0; q < 6; ++q) tpwgts[q] = (real_t)(1.0 / 6);
  idx_t *part_c = (idx_t *)malloc(sizeof(idx_t) * (size_t)(g.n + 1)), *part_f = (idx_t *)malloc(sizeof(idx_t) * (size_t)(g.n + 1));
  const int sc = ParMETIS_V3_PartKway(g.vtxdist, g.xadj, g.adjncy, NULL, g.adjwgt, &wgtflag, &numflag, &ncon, &nparts,
                                      tpwgts, ubvec, options, &cut_c, part_c, &comm);
  PM_CHECK(sc == METIS_OK, "C name: status %d", sc);
  fortran_fn *names[4] = {PARMETIS_V3_PARTKWAY, parmetis_v3_partkway, parmetis_v3_partkway_, parmetis_v3_partkway__};
  for (int i = 0; i < 4; ++i) {
    idx_t cut_f = -1;
    const int sf = names[i](g.vtxdist, g.xadj, g.adjncy, NULL, g.adjwgt, &wgtflag, &numflag, &ncon, &nparts, tpwgts,
                            ubvec, options, &cut_f, part_f, &fcomm);
    PM_CHECK(sf == sc && cut_f == cut_c, "Fortran name %d: status %d edgecut %lld, C: %d %lld", i, sf,
             (long long)cut_f, sc, (long long)cut_c);
    PM_CHECK(memcmp(part_f, part_c, sizeof(idx_t) * (size_t)g.n) == 0, "Fortran name %d: other parts than C's", i);
  }
  idx_t cut_r = -1;
  const int sr = parmetis_v3_refinekway_(g.vtxdist, g.xadj, g.adjncy, NULL, g.adjwgt, &wgtflag, &numflag, &ncon,
                                         &nparts, tpwgts, ubvec, options, &cut_r, part_f, &fcomm);
  PM_CHECK(sr == METIS_OK && cut_r <= cut_c, "parmetis_v3_refinekway_: status %d cut %lld", sr, (long long)cut_r);
  idx_t ndims = 2;
  PM_CHECK(parmetis_v3_partgeom_(g.vtxdist, &ndims, g.xyz, part_f, &fcomm) == METIS_OK, "parmetis_v3_partgeom_");
  fflush(stderr);
  const int sn = parmetis_v3_partkway_(g.vtxdist, g.xadj, g.adjncy, NULL, g.adjwgt, &wgtflag, &numflag, &ncon, &nparts,
                                       tpwgts, ubvec, options, &cut_r, part_f, &fnull);
  PM_CHECK(sn == METIS_ERROR, "MPI_COMM_NULL's Fortran handle: status %d", sn);
  free(part_c), free(part_f);
  const int rc = pm_result(comm);
  MPI_Finalize();
  return rc;
}
