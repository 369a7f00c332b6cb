/* Helpers of the ParMETIS-interface tests, written as a ParMETIS user writes them: plain C,
 * MPI, idx_t arrays distributed by vtxdist. Every check is computed here independently of the
 * library (cut from the gathered part vector, part weights by reduction). */
#ifndef HPART_PM_UTIL_H
#define HPART_PM_UTIL_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <parmetis.h>

typedef struct {
  idx_t *vtxdist, *xadj, *adjncy, *vwgt, *adjwgt;
  real_t *xyz; /* 2 per vertex */
  idx_t n, N, ncon;
} pm_graph;

static int pm_failures = 0;
#define PM_CHECK(cond, ...)                                   \
  do {                                                        \
    if (!(cond)) {                                            \
      int r_;                                                 \
      MPI_Comm_rank(MPI_COMM_WORLD, &r_);                     \
      fprintf(stdout, "rank %d: %s:%d: ", r_, __FILE__, __LINE__); \
      fprintf(stdout, __VA_ARGS__);                           \
      fprintf(stdout, "\n");                                  \
      ++pm_failures;                                          \
    }                                                         \
  } while (0)

/* Block distribution of N vertices over the ranks of comm. */
static inline idx_t *pm_blocks(idx_t N, MPI_Comm comm) {
  int R;
  MPI_Comm_size(comm, &R);
  idx_t *d = (idx_t *)malloc(sizeof(idx_t) * (size_t)(R + 1));
  for (int r = 0; r <= R; ++r) d[r] = (idx_t)((long long)N * r / R);
  return d;
}

/* An nx x ny grid (4-neighbour), edge weights 1 + (u + v) % 3, two vertex weights:
 * 1 + v % 3 and 1 + (v % 7 == 0) * 2, coordinates (x, y). */
static inline pm_graph pm_grid(idx_t nx, idx_t ny, MPI_Comm comm) {
  pm_graph g;
  int r;
  MPI_Comm_rank(comm, &r);
  g.N = nx * ny;
  g.ncon = 2;
  g.vtxdist = pm_blocks(g.N, comm);
  g.n = g.vtxdist[r + 1] - g.vtxdist[r];
  g.xadj = (idx_t *)malloc(sizeof(idx_t) * (size_t)(g.n + 1));
  g.adjncy = (idx_t *)malloc(sizeof(idx_t) * (size_t)(4 * g.n + 1));
  g.adjwgt = (idx_t *)malloc(sizeof(idx_t) * (size_t)(4 * g.n + 1));
  g.vwgt = (idx_t *)malloc(sizeof(idx_t) * (size_t)(2 * g.n + 1));
  g.xyz = (real_t *)malloc(sizeof(real_t) * (size_t)(2 * g.n + 1));
  idx_t e = 0;
  g.xadj[0] = 0;
  for (idx_t i = 0; i < g.n; ++i) {
    const idx_t v = g.vtxdist[r] + i, x = v % nx, y = v / nx;
    const idx_t nb[4] = {x > 0 ? v - 1 : -1, x + 1 < nx ? v + 1 : -1, y > 0 ? v - nx : -1, y + 1 < ny ? v + nx : -1};
    for (int k = 0; k < 4; ++k)
      if (nb[k] >= 0) {
        g.adjncy[e] = nb[k];
        g.adjwgt[e] = 1 + (v + nb[k]) % 3;
        ++e;
      }
    g.xadj[i + 1] = e;
    g.vwgt[2 * i] = 1 + v % 3;
    g.vwgt[2 * i + 1] = 1 + (v % 7 == 0) * 2;
    g.xyz[2 * i] = (real_t)x;
    g.xyz[2 * i + 1] = (real_t)y;
  }
  return g;
}

/* Reads a METIS graph file (unweighted part only: weights in the file are skipped) and keeps
 * this rank's block. Returns 0 when the file is absent. */
static inline int pm_read_metis(const char *path, pm_graph *g, MPI_Comm comm) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  int r;
  MPI_Comm_rank(comm, &r);
  char *line = NULL;
  size_t cap = 0;
  long long n = 0, m = 0, fmt = 0;
  while (getline(&line, &cap, f) > 0)
    if (line[0] != '%') break;
  sscanf(line, "%lld %lld %lld", &n, &m, &fmt);
  g->N = (idx_t)n;
  g->ncon = 1;
  g->vtxdist = pm_blocks(g->N, comm);
  g->n = g->vtxdist[r + 1] - g->vtxdist[r];
  g->xadj = (idx_t *)malloc(sizeof(idx_t) * (size_t)(g->n + 1));
  size_t ecap = 16, e = 0;
  g->adjncy = (idx_t *)malloc(sizeof(idx_t) * ecap);
  g->xadj[0] = 0;
  g->vwgt = NULL;
  g->adjwgt = NULL;
  g->xyz = NULL;
  long long v = 0;
  while (v < n && getline(&line, &cap, f) >= 0) {
    if (line[0] == '%') continue;
    if (v >= g->vtxdist[r] && v < g->vtxdist[r + 1]) {
      char *p = line, *end;
      for (long long u = strtoll(p, &end, 10); end != p; u = strtoll(p, &end, 10)) {
        p = end;
        if (e == ecap) g->adjncy = (idx_t *)realloc(g->adjncy, sizeof(idx_t) * (ecap *= 2));
        g->adjncy[e++] = (idx_t)(u - 1);
      }
      g->xadj[v - g->vtxdist[r] + 1] = (idx_t)e;
    }
    ++v;
  }
  free(line);
  fclose(f);
  return 1;
}

/* Weighted edge cut of `part` (numbering base `base`), each edge once, computed from the gathered
 * part vector. */
static inline long long pm_cut(const pm_graph *g, const idx_t *part, int use_adjwgt, MPI_Comm comm) {
  int R;
  MPI_Comm_size(comm, &R);
  int *counts = (int *)malloc(sizeof(int) * (size_t)R), *displs = (int *)malloc(sizeof(int) * (size_t)R);
  for (int q = 0; q < R; ++q) counts[q] = (int)(g->vtxdist[q + 1] - g->vtxdist[q]), displs[q] = (int)g->vtxdist[q];
  idx_t *all = (idx_t *)malloc(sizeof(idx_t) * (size_t)(g->N + 1));
  MPI_Allgatherv(part, (int)g->n, IDX_T, all, counts, displs, IDX_T, comm);
  int r;
  MPI_Comm_rank(comm, &r);
  long long cut = 0;
  for (idx_t i = 0; i < g->n; ++i)
    for (idx_t e = g->xadj[i]; e < g->xadj[i + 1]; ++e)
      if (all[g->adjncy[e]] != part[i]) cut += use_adjwgt ? g->adjwgt[e] : 1;
  long long total = 0;
  MPI_Allreduce(&cut, &total, 1, MPI_LONG_LONG, MPI_SUM, comm);
  free(all), free(counts), free(displs);
  return total / 2;
}

/* Max over parts and constraints of weight / (tpwgts x total): ParMETIS's balance (1.0 perfect).
 * vwgt NULL: unit weights. `slack` (out): the largest vertex weight over the part target, the
 * granularity a partition cannot beat. */
static inline double pm_balance(const pm_graph *g, const idx_t *part, idx_t base, const idx_t *vwgt, idx_t ncon,
                         idx_t nparts, const real_t *tpwgts, double *slack, MPI_Comm comm) {
  const size_t K = (size_t)nparts, C = (size_t)ncon;
  double *w = (double *)calloc(K * C + C, sizeof(double));
  double *tot = w + K * C, maxv = 1, gmaxv = 1;
  for (idx_t i = 0; i < g->n; ++i)
    for (size_t c = 0; c < C; ++c) {
      const double x = vwgt ? (double)vwgt[(size_t)i * C + c] : 1.0;
      w[(size_t)(part[i] - base) * C + c] += x, tot[c] += x;
      if (x > maxv) maxv = x;
    }
  MPI_Allreduce(MPI_IN_PLACE, w, (int)(K * C + C), MPI_DOUBLE, MPI_SUM, comm);
  MPI_Allreduce(&maxv, &gmaxv, 1, MPI_DOUBLE, MPI_MAX, comm);
  double worst = 0, s = 0;
  for (size_t q = 0; q < K; ++q)
    for (size_t c = 0; c < C; ++c) {
      const double target = (double)tpwgts[q * C + c] * tot[c];
      if (target <= 0) continue;
      if (w[q * C + c] / target > worst) worst = w[q * C + c] / target;
      if (gmaxv / target > s) s = gmaxv / target;
    }
  free(w);
  if (slack) *slack = s;
  return worst;
}

/* 0 on every rank when no rank failed, else 1: the exit status of a test. */
static inline int pm_result(MPI_Comm comm) {
  int mine = pm_failures > 0, any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm);
  return any;
}
#endif
