/* ParMETIS_V3_RefineKway, ParMETIS_V3_AdaptiveRepart and ParMETIS_V3_PartGeom as a ParMETIS
 * program calls them, on a 40 x 30 grid. RefineKway: from a partition (PartKway's, PartKway's with
 * isolated defects, stripes of rows, and a scattered one) the cut is never worse (strictly better
 * with defects) and the balance within ubvec; coupled (nparts =
 * ranks, default options) it starts from the distribution and ignores part[]. AdaptiveRepart:
 * after the weights of a quarter of the grid rise fourfold, the new partition is within ubvec
 * of the new weights, edgecut is its cut, and what moved is less than half the weight.
 * PartGeom: one part per rank, every vertex a part, counts within 1% of equal. */
#include "pm_util.h"

static real_t tp[64];
static real_t ub[1] = {1.05f};

static idx_t *copy_parts(const idx_t *p, idx_t n) {
  idx_t *c = (idx_t *)malloc(sizeof(idx_t) * (size_t)(n + 1));
  memcpy(c, p, sizeof(idx_t) * (size_t)n);
  return c;
}

static void refine(pm_graph *g, idx_t *part, idx_t k, const char *what, int must_improve, MPI_Comm comm) {
  idx_t wgtflag = 0, numflag = 0, ncon = 1, edgecut = -1, options[4] = {1, 0, 7, PARMETIS_PSR_UNCOUPLED};
  const long long before = pm_cut(g, part, 0, comm);
  const int s = ParMETIS_V3_RefineKway(g->vtxdist, g->xadj, g->adjncy, NULL, NULL, &wgtflag, &numflag, &ncon, &k, tp,
                                       ub, options, &edgecut, part, &comm);
  PM_CHECK(s == METIS_OK, "RefineKway (%s): status %d", what, s);
  if (s != METIS_OK) return;
  const long long after = pm_cut(g, part, 0, comm);
  const double bal = pm_balance(g, part, 0, NULL, 1, k, tp, NULL, comm);
  PM_CHECK(after == edgecut, "RefineKway (%s): edgecut %lld, recomputed %lld", what, (long long)edgecut, after);
  PM_CHECK(after <= before, "RefineKway (%s): cut %lld worse than the input's %lld", what, after, before);
  PM_CHECK(bal <= ub[0] + 1e-9, "RefineKway (%s): balance %.4f above ubvec", what, bal);
  PM_CHECK(!must_improve || after < before, "RefineKway (%s): cut %lld not below the input's", what, after);
  int r;
  MPI_Comm_rank(comm, &r);
  if (r == 0) printf("RefineKway %-10s k %d: cut %lld -> %lld, balance %.3f\n", what, (int)k, before, after, bal);
}

/* vsize: the new weights (moving a heavy vertex costs more), or NULL (ParMETIS's unit cost). */
/* numflag 1: the same refinement in Fortran numbering (vtxdist, xadj, adjncy and part 1-based)
 * gives the same parts, plus one. */
static void refine_fortran(pm_graph *g, const idx_t *start, idx_t k, MPI_Comm comm) {
  int R;
  MPI_Comm_size(comm, &R);
  idx_t wgtflag = 0, zero = 0, one = 1, ncon = 1, cut0 = -1, cut1 = -1, options[4] = {1, 0, 7, PARMETIS_PSR_UNCOUPLED};
  idx_t *p0 = copy_parts(start, g->n), *p1 = copy_parts(start, g->n);
  const idx_t m = g->xadj[g->n];
  idx_t *vtxdist = (idx_t *)malloc(sizeof(idx_t) * (size_t)(R + 1)), *xadj = copy_parts(g->xadj, g->n + 1);
  idx_t *adjncy = copy_parts(g->adjncy, m);
  for (int q = 0; q <= R; ++q) vtxdist[q] = g->vtxdist[q] + 1;
  for (idx_t i = 0; i <= g->n; ++i) ++xadj[i];
  for (idx_t e = 0; e < m; ++e) ++adjncy[e];
  for (idx_t i = 0; i < g->n; ++i) p0[i] = (start[i] + (i % 13 == 0)) % k, p1[i] = p0[i] + 1;
  const int s0 = ParMETIS_V3_RefineKway(g->vtxdist, g->xadj, g->adjncy, NULL, NULL, &wgtflag, &zero, &ncon, &k, tp, ub,
                                        options, &cut0, p0, &comm);
  const int s1 = ParMETIS_V3_RefineKway(vtxdist, xadj, adjncy, NULL, NULL, &wgtflag, &one, &ncon, &k, tp, ub, options,
                                        &cut1, p1, &comm);
  PM_CHECK(s0 == METIS_OK && s1 == METIS_OK, "RefineKway numflag 0/1: status %d %d", s0, s1);
  PM_CHECK(cut0 == cut1, "RefineKway numflag 0/1: edgecut %lld vs %lld", (long long)cut0, (long long)cut1);
  for (idx_t i = 0; i < g->n; ++i)
    if (p1[i] != p0[i] + 1) {
      PM_CHECK(0, "RefineKway numflag 1: part[%d] = %d, numflag 0 gave %d", (int)i, (int)p1[i], (int)p0[i]);
      break;
    }
  free(p0), free(p1), free(vtxdist), free(xadj), free(adjncy);
}

static void adaptive(pm_graph *g, const idx_t *start, idx_t k, int vsize_is_vwgt, MPI_Comm comm) {
  idx_t *vw = (idx_t *)malloc(sizeof(idx_t) * (size_t)(g->n + 1));
  int r;
  MPI_Comm_rank(comm, &r);
  for (idx_t i = 0; i < g->n; ++i) vw[i] = ((g->vtxdist[r] + i) % 40 < 10) ? 4 : 1; /* the left quarter */
  idx_t *part = copy_parts(start, g->n);
  idx_t wgtflag = 2, numflag = 0, ncon = 1, edgecut = -1, options[4] = {1, 0, 3, PARMETIS_PSR_UNCOUPLED};
  real_t itr = 1000.0f;
  const int s = ParMETIS_V3_AdaptiveRepart(g->vtxdist, g->xadj, g->adjncy, vw, vsize_is_vwgt ? vw : NULL, NULL, &wgtflag, &numflag, &ncon,
                                           &k, tp, ub, &itr, options, &edgecut, part, &comm);
  PM_CHECK(s == METIS_OK, "AdaptiveRepart: status %d", s);
  if (s == METIS_OK) {
    double slack = 0, moved = 0, total = 0;
    const double bal_before = pm_balance(g, start, 0, vw, 1, k, tp, NULL, comm);
    const double bal = pm_balance(g, part, 0, vw, 1, k, tp, &slack, comm);
    for (idx_t i = 0; i < g->n; ++i) moved += part[i] != start[i] ? (double)vw[i] : 0.0, total += (double)vw[i];
    MPI_Allreduce(MPI_IN_PLACE, &moved, 1, MPI_DOUBLE, MPI_SUM, comm);
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_DOUBLE, MPI_SUM, comm);
    const long long cut = pm_cut(g, part, 0, comm);
    PM_CHECK(bal_before > ub[0], "AdaptiveRepart: the weight change should unbalance (%.3f)", bal_before);
    PM_CHECK(bal <= ub[0] + slack + 1e-9, "AdaptiveRepart: balance %.4f above ubvec", bal);
    PM_CHECK(cut == edgecut, "AdaptiveRepart: edgecut %lld, recomputed %lld", (long long)edgecut, cut);
    PM_CHECK(moved < 0.5 * total, "AdaptiveRepart: moved %.0f of %.0f", moved, total);
    if (r == 0)
      printf("AdaptiveRepart k %d vsize %s: balance %.3f -> %.3f, cut %lld, moved %.0f of %.0f\n", (int)k,
             vsize_is_vwgt ? "vwgt" : "NULL", bal_before, bal, cut, moved, total);
  }
  free(vw), free(part);
}

static void coupled(pm_graph *g, MPI_Comm comm) {
  int R, r;
  MPI_Comm_size(comm, &R);
  MPI_Comm_rank(comm, &r);
  idx_t k = R, wgtflag = 0, numflag = 0, ncon = 1, edgecut = -1, options[1] = {0};
  idx_t *part = (idx_t *)malloc(sizeof(idx_t) * (size_t)(g->n + 1)), *home = copy_parts(part, 0);
  for (idx_t i = 0; i < g->n; ++i) part[i] = -5; /* ignored: coupled starts from the distribution */
  real_t t[64];
  for (int q = 0; q < R; ++q) t[q] = (real_t)(1.0 / R);
  const int s = ParMETIS_V3_RefineKway(g->vtxdist, g->xadj, g->adjncy, NULL, NULL, &wgtflag, &numflag, &ncon, &k, t,
                                       ub, options, &edgecut, part, &comm);
  PM_CHECK(s == METIS_OK, "RefineKway coupled: status %d", s);
  idx_t *dist = (idx_t *)malloc(sizeof(idx_t) * (size_t)(g->n + 1));
  for (idx_t i = 0; i < g->n; ++i) dist[i] = r;
  if (s == METIS_OK)
    PM_CHECK(pm_cut(g, part, 0, comm) <= pm_cut(g, dist, 0, comm), "RefineKway coupled: cut worse than the distribution's");
  free(part), free(home), free(dist);
}

static void geom(pm_graph *g, idx_t ndims, MPI_Comm comm) {
  int R, r;
  MPI_Comm_size(comm, &R);
  MPI_Comm_rank(comm, &r);
  idx_t *part = (idx_t *)malloc(sizeof(idx_t) * (size_t)(g->n + 1));
  real_t *xyz = (real_t *)malloc(sizeof(real_t) * (size_t)(2 * g->n + 1));
  for (idx_t i = 0; i < g->n; ++i)
    for (idx_t d = 0; d < ndims; ++d) xyz[i * ndims + d] = ndims == 1 ? g->xyz[2 * i] * 100 + g->xyz[2 * i + 1] : g->xyz[2 * i + d];
  const int s = ParMETIS_V3_PartGeom(g->vtxdist, &ndims, xyz, part, &comm);
  PM_CHECK(s == METIS_OK, "PartGeom ndims %d: status %d", (int)ndims, s);
  if (s == METIS_OK) {
    long long *count = (long long *)calloc((size_t)R, sizeof(long long)), bad = 0;
    for (idx_t i = 0; i < g->n; ++i) part[i] >= 0 && part[i] < R ? (void)++count[part[i]] : (void)++bad;
    MPI_Allreduce(MPI_IN_PLACE, count, R, MPI_LONG_LONG, MPI_SUM, comm);
    PM_CHECK(bad == 0, "PartGeom: %lld parts out of range", bad);
    for (int q = 0; q < R; ++q)
      PM_CHECK(count[q] <= (double)g->N / R * 1.01 + 1, "PartGeom ndims %d: part %d has %lld of %d", (int)ndims, q,
               count[q], (int)g->N);
    free(count);
  }
  free(part), free(xyz);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm comm = MPI_COMM_WORLD;
  pm_graph g = pm_grid(40, 30, comm);
  int r;
  MPI_Comm_rank(comm, &r);
  const idx_t k = 4;
  for (int q = 0; q < 64; ++q) tp[q] = (real_t)(1.0 / k);
  idx_t wgtflag = 0, numflag = 0, ncon = 1, edgecut = 0, options[1] = {0};
  idx_t *part = (idx_t *)malloc(sizeof(idx_t) * (size_t)(g.n + 1));
  int s = ParMETIS_V3_PartKway(g.vtxdist, g.xadj, g.adjncy, NULL, NULL, &wgtflag, &numflag, &ncon, (idx_t *)&k, tp, ub,
                               options, &edgecut, part, &comm);
  PM_CHECK(s == METIS_OK, "PartKway: status %d", s);
  idx_t *start = copy_parts(part, g.n);
  refine(&g, part, k, "PartKway's", 0, comm);
  for (idx_t i = 0; i < g.n; ++i) /* PartKway's with isolated defects: refinement must remove some */
    part[i] = (g.vtxdist[r] + i) % 17 == 0 ? (start[i] + 1) % k : start[i];
  refine(&g, part, k, "defects", 1, comm);
  for (idx_t i = 0; i < g.n; ++i) part[i] = (g.vtxdist[r] + i) * k / g.N; /* stripes of rows */
  refine(&g, part, k, "stripes", 0, comm);
  for (idx_t i = 0; i < g.n; ++i) part[i] = ((g.vtxdist[r] + i) / 5) % k; /* scattered */
  refine(&g, part, k, "scattered", 0, comm);
  refine_fortran(&g, start, k, comm);
  adaptive(&g, start, k, 1, comm);
  adaptive(&g, start, k, 0, comm);
  coupled(&g, comm);
  geom(&g, 2, comm);
  geom(&g, 1, comm);
  free(part), free(start);
  const int rc = pm_result(comm);
  MPI_Finalize();
  return rc;
}
