/* ParMETIS_V3_PartKway and ParMETIS_V3_PartGeomKway as a ParMETIS program calls them: a 40 x 30
 * grid and (when present) 4elt.graph from the shared data, k 4 and 16, wgtflag 0..3, numflag 0
 * and 1, ncon 1 and 2, uniform and non-uniform tpwgts. Each result: every vertex has a part in
 * range (1-based with numflag 1), edgecut equals the cut computed here from the gathered parts,
 * and every part weight is within ubvec of its target (plus one vertex's weight where weights
 * are not unit: the granularity no partitioner can beat). */
#include "pm_util.h"

static idx_t *shifted(const idx_t *a, idx_t len, idx_t by) {
  idx_t *s = (idx_t *)malloc(sizeof(idx_t) * (size_t)(len + 1));
  for (idx_t i = 0; i < len; ++i) s[i] = a[i] + by;
  return s;
}

static void run(pm_graph *g, idx_t wgtflag, idx_t numflag, idx_t ncon, idx_t nparts, int skewed, int geom,
                MPI_Comm comm) {
  int R;
  MPI_Comm_size(comm, &R);
  real_t *tpwgts = (real_t *)malloc(sizeof(real_t) * (size_t)(ncon * nparts));
  double sum = 0;
  for (idx_t q = 0; q < nparts; ++q) sum += skewed ? 1.0 + (double)(q % 3) : 1.0;
  for (idx_t q = 0; q < nparts; ++q)
    for (idx_t c = 0; c < ncon; ++c) tpwgts[q * ncon + c] = (real_t)((skewed ? 1.0 + (double)(q % 3) : 1.0) / sum);
  real_t ubvec[2] = {1.05f, 1.05f};
  idx_t options[3] = {0, 0, 0};
  idx_t edgecut = -1, ndims = 2;
  idx_t *part = (idx_t *)malloc(sizeof(idx_t) * (size_t)(g->n + 1));
  for (idx_t i = 0; i < g->n; ++i) part[i] = -7;
  /* ncon 2 takes the grid's two weights; ncon 1 its first (a copy: ncon weights per vertex). */
  idx_t *vw = NULL;
  if (wgtflag & 2) {
    vw = (idx_t *)malloc(sizeof(idx_t) * (size_t)(g->n * ncon + 1));
    for (idx_t i = 0; i < g->n; ++i)
      for (idx_t c = 0; c < ncon; ++c) vw[i * ncon + c] = g->vwgt[i * 2 + c];
  }
  int r;
  MPI_Comm_rank(comm, &r);
  const idx_t m = g->xadj[g->n];
  idx_t *vtxdist = shifted(g->vtxdist, R + 1, numflag), *xadj = shifted(g->xadj, g->n + 1, numflag);
  idx_t *adjncy = shifted(g->adjncy, m, numflag);
  idx_t *adjwgt = (wgtflag & 1) ? g->adjwgt : NULL;
  int status;
  if (geom)
    status = ParMETIS_V3_PartGeomKway(vtxdist, xadj, adjncy, vw, adjwgt, &wgtflag, &numflag, &ndims, g->xyz, &ncon,
                                      &nparts, tpwgts, ubvec, options, &edgecut, part, &comm);
  else
    status = ParMETIS_V3_PartKway(vtxdist, xadj, adjncy, vw, adjwgt, &wgtflag, &numflag, &ncon, &nparts, tpwgts,
                                  ubvec, options, &edgecut, part, &comm);
  const char *what = geom ? "PartGeomKway" : "PartKway";
  PM_CHECK(status == METIS_OK, "%s wgtflag %d numflag %d ncon %d k %d: status %d", what, (int)wgtflag, (int)numflag,
           (int)ncon, (int)nparts, status);
  if (status != METIS_OK) return;
  for (idx_t i = 0; i < g->n; ++i)
    if (part[i] < numflag || part[i] >= nparts + numflag) {
      PM_CHECK(0, "%s: part[%d] = %d out of [%d, %d]", what, (int)i, (int)part[i], (int)numflag,
               (int)(nparts - 1 + numflag));
      return;
    }
  const long long cut = pm_cut(g, part, (wgtflag & 1) != 0, comm);
  PM_CHECK(cut == (long long)edgecut, "%s wgtflag %d numflag %d ncon %d k %d: edgecut %lld, recomputed %lld", what,
           (int)wgtflag, (int)numflag, (int)ncon, (int)nparts, (long long)edgecut, cut);
  double slack = 0;
  const double bal = pm_balance(g, part, numflag, vw, (wgtflag & 2) ? ncon : 1, nparts, tpwgts, &slack, comm);
  const double bound = ubvec[0] + ((wgtflag & 2) ? slack : 0.0) + 1e-9;
  PM_CHECK(bal <= bound, "%s wgtflag %d numflag %d ncon %d k %d skewed %d: balance %.4f above %.4f", what,
           (int)wgtflag, (int)numflag, (int)ncon, (int)nparts, skewed, bal, bound);
  if (r == 0)
    printf("%s wgtflag %d numflag %d ncon %d k %2d skewed %d: edgecut %lld balance %.3f\n", what, (int)wgtflag,
           (int)numflag, (int)ncon, (int)nparts, skewed, (long long)edgecut, bal);
  free(vtxdist), free(xadj), free(adjncy), free(part), free(tpwgts), free(vw);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm comm = MPI_COMM_WORLD;
  pm_graph grid = pm_grid(40, 30, comm);
  const idx_t ks[2] = {4, 16};
  for (int ki = 0; ki < 2; ++ki)
    for (idx_t wgtflag = 0; wgtflag <= 3; ++wgtflag)
      for (idx_t numflag = 0; numflag <= 1; ++numflag) run(&grid, wgtflag, numflag, 1, ks[ki], 0, 0, comm);
  run(&grid, 2, 0, 2, 4, 0, 0, comm);  /* two constraints */
  run(&grid, 3, 1, 2, 16, 0, 0, comm);
  run(&grid, 0, 0, 1, 16, 1, 0, comm); /* non-uniform tpwgts */
  run(&grid, 3, 0, 1, 4, 1, 0, comm);
  run(&grid, 0, 0, 1, 16, 0, 1, comm); /* PartGeomKway */
  run(&grid, 3, 1, 1, 4, 1, 1, comm);
  pm_graph file;
  const char *path = argc > 1 ? argv[1] : "";
  if (pm_read_metis(path, &file, comm)) {
    run(&file, 0, 0, 1, 16, 0, 0, comm);
    run(&file, 0, 1, 1, 4, 1, 0, comm);
  } else {
    int r;
    MPI_Comm_rank(comm, &r);
    if (r == 0) printf("%s absent: file cases skipped\n", path);
  }
  const int rc = pm_result(comm);
  MPI_Finalize();
  return rc;
}
