/* Bad input at libhpart_parmetis's boundary, as a ParMETIS program could pass it: NULL pointers,
 * negative or decreasing lengths, MPI_COMM_NULL, vtxdist or scalars that differ across ranks,
 * numflag 1 with 0-based data, ncon > 1 where hpart cannot balance it, itr <= 0, tpwgts and ubvec
 * out of range, an asymmetric graph. Each case: the same non-OK status on every rank, one line on
 * rank 0's stderr naming the argument, nothing on the other ranks' stderr, and no hang (the
 * ctest TIMEOUT). Run at np 2 and 3 (and 1, where the cross-rank cases are skipped). */
#include <unistd.h>

#include "pm_util.h"

typedef struct {
  pm_graph g;
  idx_t *vtxdist, *xadj, *adjncy, *vwgt, *vsize, *part;
  idx_t wgtflag, numflag, ncon, nparts, edgecut, ndims, options[4];
  real_t tpwgts[8], ubvec[2], itr, *xyz;
  MPI_Comm comm;
  int comm_case; /* 0: &comm, 1: a pointer to MPI_COMM_NULL, 2: NULL */
  int entry; /* 0 PartKway, 1 AdaptiveRepart, 2 RefineKway, 3 PartGeom */
} pm_call;

static pm_call fresh(pm_graph *g) {
  pm_call c;
  memset(&c, 0, sizeof c);
  c.g = *g;
  int R;
  MPI_Comm_size(MPI_COMM_WORLD, &R);
  c.vtxdist = (idx_t *)malloc(sizeof(idx_t) * (size_t)(R + 1));
  memcpy(c.vtxdist, g->vtxdist, sizeof(idx_t) * (size_t)(R + 1));
  c.xadj = (idx_t *)malloc(sizeof(idx_t) * (size_t)(g->n + 1));
  memcpy(c.xadj, g->xadj, sizeof(idx_t) * (size_t)(g->n + 1));
  c.adjncy = (idx_t *)malloc(sizeof(idx_t) * (size_t)(g->xadj[g->n] + 1));
  memcpy(c.adjncy, g->adjncy, sizeof(idx_t) * (size_t)g->xadj[g->n]);
  c.vwgt = (idx_t *)malloc(sizeof(idx_t) * (size_t)(2 * g->n + 1));
  c.vsize = (idx_t *)malloc(sizeof(idx_t) * (size_t)(g->n + 1));
  c.part = (idx_t *)malloc(sizeof(idx_t) * (size_t)(g->n + 1));
  for (idx_t i = 0; i < g->n; ++i) c.vwgt[2 * i] = c.vwgt[2 * i + 1] = c.vsize[i] = 1, c.part[i] = 0;
  c.wgtflag = 0, c.numflag = 0, c.ncon = 1, c.nparts = 4, c.ndims = 2;
  for (int q = 0; q < 8; ++q) c.tpwgts[q] = 0.25f;
  c.ubvec[0] = c.ubvec[1] = 1.05f;
  c.itr = 1000.0f;
  c.xyz = g->xyz;
  c.comm = MPI_COMM_WORLD;
  return c;
}

static MPI_Comm null_comm;

static int call(pm_call *c) {
  null_comm = MPI_COMM_NULL;
  MPI_Comm *commp = c->comm_case == 0 ? &c->comm : c->comm_case == 1 ? &null_comm : NULL;
  switch (c->entry) {
    case 1:
      return ParMETIS_V3_AdaptiveRepart(c->vtxdist, c->xadj, c->adjncy, c->vwgt, c->vsize, NULL, &c->wgtflag,
                                        &c->numflag, &c->ncon, &c->nparts, c->tpwgts, c->ubvec, &c->itr, c->options,
                                        &c->edgecut, c->part, commp);
    case 2:
      return ParMETIS_V3_RefineKway(c->vtxdist, c->xadj, c->adjncy, c->vwgt, NULL, &c->wgtflag, &c->numflag, &c->ncon,
                                    &c->nparts, c->tpwgts, c->ubvec, c->options, &c->edgecut, c->part, commp);
    case 3:
      return ParMETIS_V3_PartGeom(c->vtxdist, &c->ndims, c->xyz, c->part, commp);
    default:
      return ParMETIS_V3_PartKway(c->vtxdist, c->xadj, c->adjncy, c->vwgt, NULL, &c->wgtflag, &c->numflag, &c->ncon,
                                  &c->nparts, c->tpwgts, c->ubvec, c->options, &c->edgecut, c->part, commp);
  }
}

/* Runs the call with stderr captured; checks the status and the message. */
static void expect(const char *name, pm_call *c, const char *needle) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  fflush(stderr);
  const int saved = dup(2);
  FILE *tmp = tmpfile();
  dup2(fileno(tmp), 2);
  const int status = call(c);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  char text[2048] = {0};
  rewind(tmp);
  const size_t len = fread(text, 1, sizeof text - 1, tmp);
  fclose(tmp);
  int lo = status, hi = status;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  PM_CHECK(status != METIS_OK, "%s: status METIS_OK", name);
  PM_CHECK(lo == hi, "%s: status differs across ranks (%d .. %d)", name, lo, hi);
  if (r == 0) {
    PM_CHECK(strstr(text, needle) != NULL, "%s: stderr does not name '%s': %s", name, needle, text);
    PM_CHECK(len > 0 && strchr(text, '\n') == text + len - 1, "%s: not one line on stderr: %s", name, text);
    printf("%-28s status %d: %s", name, status, text);
  } else {
    PM_CHECK(len == 0, "%s: rank %d printed: %s", name, r, text);
  }
  free(c->vtxdist), free(c->xadj), free(c->adjncy), free(c->vwgt), free(c->vsize), free(c->part);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  setvbuf(stdout, NULL, _IONBF, 0);
  int R, r;
  MPI_Comm_size(MPI_COMM_WORLD, &R);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  const int last = r == R - 1;
  pm_graph g = pm_grid(12, 10, MPI_COMM_WORLD);
  pm_call c;

  c = fresh(&g), free(c.vtxdist), c.vtxdist = NULL, expect("vtxdist NULL", &c, "vtxdist");
  c = fresh(&g), c.entry = 0;
  idx_t *keep = c.xadj;
  if (last) c.xadj = NULL;
  expect("xadj NULL on the last rank", &c, "xadj"), free(last ? keep : NULL);
  c = fresh(&g), c.nparts = -3, expect("nparts negative", &c, "nparts");
  c = fresh(&g), c.ncon = 0, expect("ncon 0", &c, "ncon");
  c = fresh(&g), c.wgtflag = 5, expect("wgtflag 5", &c, "wgtflag");
  c = fresh(&g), c.wgtflag = 2, free(c.vwgt), c.vwgt = NULL, expect("vwgt NULL, wgtflag 2", &c, "vwgt");
  c = fresh(&g), c.numflag = 1, expect("numflag 1, 0-based data", &c, "numflag 1");
  c = fresh(&g), c.xadj[g.n] = c.xadj[0] - 1, expect("xadj negative length", &c, "xadj");
  c = fresh(&g), c.adjncy[0] = g.N + 5, expect("adjncy out of range", &c, "adjncy");
  c = fresh(&g), c.adjncy[0] = (c.adjncy[0] + 2) % g.N, expect("asymmetric graph", &c, "asymmetric");
  c = fresh(&g), c.wgtflag = 2, c.vwgt[0] = -1, expect("negative vertex weight", &c, "weight");
  c = fresh(&g), c.tpwgts[0] = 0.75f, expect("tpwgts sum", &c, "tpwgts");
  c = fresh(&g), c.ubvec[0] = 0.9f, expect("ubvec < 1", &c, "ubvec");
  c = fresh(&g), c.comm_case = 1, expect("MPI_COMM_NULL", &c, "MPI_COMM_NULL");
  c = fresh(&g), c.comm_case = 2, expect("comm NULL", &c, "comm is NULL");
  c = fresh(&g), free(c.part), c.part = NULL, expect("part NULL", &c, "part");
  c = fresh(&g), c.entry = 1, c.ncon = 2, c.wgtflag = 2, expect("AdaptiveRepart ncon 2", &c, "ncon");
  c = fresh(&g), c.entry = 1, c.itr = 0.0f, expect("AdaptiveRepart itr 0", &c, "itr");
  c = fresh(&g), c.entry = 1, c.itr = -1.0f, expect("AdaptiveRepart itr < 0", &c, "itr");
  c = fresh(&g), c.entry = 1, c.itr = NAN, expect("AdaptiveRepart itr NaN", &c, "itr");
  c = fresh(&g), c.entry = 1, c.wgtflag = 2, c.vsize[0] = -3, expect("AdaptiveRepart vsize < 0", &c, "vsize");
  c = fresh(&g), c.entry = 2, c.options[0] = 1, c.options[3] = 9, expect("RefineKway options[3] 9", &c, "options[3]");
  c = fresh(&g), c.entry = 2, c.options[0] = 1, c.options[3] = 2, c.part[0] = 4,
  expect("RefineKway part out of range", &c, "part[0]");
  c = fresh(&g), c.entry = 3, c.ndims = 4, expect("PartGeom ndims 4", &c, "ndims");
  c = fresh(&g), c.entry = 3, c.xyz = NULL, expect("PartGeom xyz NULL", &c, "xyz");
  if (R > 1) {
    c = fresh(&g), c.vtxdist[1] += last ? 1 : 0, expect("vtxdist differs", &c, "vtxdist differs");
    c = fresh(&g), c.numflag = last ? 1 : 0, expect("numflag differs", &c, "numflag differs");
    c = fresh(&g), c.nparts = last ? 5 : 4, expect("nparts differs", &c, "nparts differs");
    c = fresh(&g), c.ubvec[0] = last ? 1.1f : 1.05f, expect("ubvec differs", &c, "ubvec differs");
    /* The effort's environment variable, set differently on one rank: the efforts differ. */
    setenv("HPART_PARMETIS_PRESET", last ? "strong" : "fast", 1);
    c = fresh(&g), expect("HPART_PARMETIS_PRESET differs", &c, "effort.");
    unsetenv("HPART_PARMETIS_PRESET");
  }
  /* An unknown preset name is every rank's error; a known one partitions. */
  setenv("HPART_PARMETIS_PRESET", "quick", 1);
  c = fresh(&g), expect("HPART_PARMETIS_PRESET unknown", &c, "HPART_PARMETIS_PRESET");
  setenv("HPART_PARMETIS_PRESET", "strong", 1);
  c = fresh(&g);
  PM_CHECK(call(&c) == METIS_OK, "PartKway with HPART_PARMETIS_PRESET=strong failed");
  free(c.vtxdist), free(c.xadj), free(c.adjncy), free(c.vwgt), free(c.vsize), free(c.part);
  unsetenv("HPART_PARMETIS_PRESET");
  /* And a good call still works after all that. */
  c = fresh(&g);
  PM_CHECK(call(&c) == METIS_OK, "a good call after the bad ones failed");
  const int rc = pm_result(MPI_COMM_WORLD);
  MPI_Finalize();
  return rc;
}
