/* Compiled (not run) by ctest parmetis.header.*: hpart's parmetis.h gives idx_t and real_t the
 * widths it was configured with (EXPECT_IDX / EXPECT_REAL bits), takes them from metis.h when
 * that is included and agrees, and the ParMETIS 4 prototypes accept a ParMETIS caller's types. */
#include <parmetis.h>

typedef char idx_width_ok[sizeof(idx_t) * 8 == EXPECT_IDX ? 1 : -1];
typedef char real_width_ok[sizeof(real_t) * 8 == EXPECT_REAL ? 1 : -1];
typedef char status_ok[METIS_OK == 1 && METIS_ERROR == -4 ? 1 : -1];

int call(MPI_Comm comm) {
  idx_t vtxdist[2] = {0, 0}, xadj[1] = {0}, wgtflag = 0, numflag = 0, ncon = 1, nparts = 1, edgecut = 0;
  idx_t options[4] = {0, 0, 0, PARMETIS_PSR_COUPLED}, part[1] = {0}, ndims = 2;
  real_t tpwgts[1] = {1}, ubvec[1] = {1.05f}, itr = 1000, xyz[2] = {0, 0};
  return ParMETIS_V3_PartKway(vtxdist, xadj, NULL, NULL, NULL, &wgtflag, &numflag, &ncon, &nparts, tpwgts, ubvec,
                              options, &edgecut, part, &comm) +
         ParMETIS_V3_PartGeomKway(vtxdist, xadj, NULL, NULL, NULL, &wgtflag, &numflag, &ndims, xyz, &ncon, &nparts,
                                  tpwgts, ubvec, options, &edgecut, part, &comm) +
         ParMETIS_V3_PartGeom(vtxdist, &ndims, xyz, part, &comm) +
         ParMETIS_V3_RefineKway(vtxdist, xadj, NULL, NULL, NULL, &wgtflag, &numflag, &ncon, &nparts, tpwgts, ubvec,
                                options, &edgecut, part, &comm) +
         ParMETIS_V3_AdaptiveRepart(vtxdist, xadj, NULL, NULL, NULL, NULL, &wgtflag, &numflag, &ncon, &nparts, tpwgts,
                                    ubvec, &itr, options, &edgecut, part, &comm);
}
