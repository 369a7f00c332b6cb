/* A classic ParMETIS program: reads a METIS graph file, gives rank r the vertex block
 * vtxdist[r] .. vtxdist[r+1]-1, calls ParMETIS_V3_PartKway, and prints the edge cut, the
 * imbalance and the time of the call. It knows nothing of hpart: the same source links to
 * libhpart_parmetis or to any other library with ParMETIS 4's interface.
 *
 *   mpirun -np 4 parmetis_caller graph.graph 16 [ubvec] [repeats]
 *
 * Output (rank 0), one line: nparts, ranks, the edge cut ParMETIS returned and the one counted
 * here from the gathered parts (the same count for every library), max part weight / average,
 * and the time of the partitioning call (max over ranks, best of `repeats`). */
#include <parmetis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads the file on every rank and keeps this rank's block (fine for the graph sizes of an
 * example; a real code reads its block only). Vertex and edge weights as the header says. */
static int read_graph(const char *path, int rank, int size, idx_t **vtxdist, idx_t **xadj, idx_t **adjncy,
                      idx_t **vwgt, idx_t **adjwgt, idx_t *ncon) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char *line = NULL;
  size_t cap = 0;
  long long n = 0, m = 0;
  int fmt = 0, nc = 1;
  while (getline(&line, &cap, f) > 0 && line[0] == '%') {}
  if (sscanf(line, "%lld %lld %d %d", &n, &m, &fmt, &nc) < 2) return 0;
  const int has_vw = (fmt / 10) % 10, has_ew = fmt % 10, has_size = fmt / 100;
  *ncon = has_vw ? nc : 1;
  *vtxdist = (idx_t *)malloc(sizeof(idx_t) * (size_t)(size + 1));
  for (int r = 0; r <= size; ++r) (*vtxdist)[r] = (idx_t)(n * r / size);
  const idx_t first = (*vtxdist)[rank], nloc = (*vtxdist)[rank + 1] - first;
  *xadj = (idx_t *)malloc(sizeof(idx_t) * (size_t)(nloc + 1));
  *vwgt = has_vw ? (idx_t *)malloc(sizeof(idx_t) * (size_t)(nloc * *ncon + 1)) : NULL;
  size_t ecap = 1024, e = 0;
  *adjncy = (idx_t *)malloc(sizeof(idx_t) * ecap);
  *adjwgt = has_ew ? (idx_t *)malloc(sizeof(idx_t) * ecap) : NULL;
  (*xadj)[0] = 0;
  long long v = 0;
  while (v < n && getline(&line, &cap, f) >= 0) {
    if (line[0] == '%') continue;
    if (v >= first && v < first + nloc) {
      char *p = line, *end;
      if (has_size) strtoll(p, &end, 10), p = end;
      for (int c = 0; has_vw && c < *ncon; ++c) (*vwgt)[(v - first) * *ncon + c] = (idx_t)strtoll(p, &end, 10), p = end;
      for (long long u = strtoll(p, &end, 10); end != p; u = strtoll(p, &end, 10)) {
        p = end;
        if (e == ecap) {
          ecap *= 2;
          *adjncy = (idx_t *)realloc(*adjncy, sizeof(idx_t) * ecap);
          if (has_ew) *adjwgt = (idx_t *)realloc(*adjwgt, sizeof(idx_t) * ecap);
        }
        (*adjncy)[e] = (idx_t)(u - 1);
        if (has_ew) (*adjwgt)[e] = (idx_t)strtoll(p, &end, 10), p = end;
        ++e;
      }
      (*xadj)[v - first + 1] = (idx_t)e;
    }
    ++v;
  }
  free(line);
  fclose(f);
  return 1;
}

int main(int argc, char **argv) {
#ifdef CALLER_THREAD_MULTIPLE
  /* PT-Scotch's threaded build (Debian's) needs MPI_THREAD_MULTIPLE; the benchmark builds both
   * libraries' callers this way. */
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
#else
  MPI_Init(&argc, &argv);
#endif
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (argc < 3) {
    if (rank == 0) fprintf(stderr, "usage: %s graph.graph nparts [ubvec] [repeats]\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  idx_t *vtxdist, *xadj, *adjncy, *vwgt, *adjwgt, ncon = 1;
  if (!read_graph(argv[1], rank, size, &vtxdist, &xadj, &adjncy, &vwgt, &adjwgt, &ncon)) {
    if (rank == 0) fprintf(stderr, "cannot read %s\n", argv[1]);
    MPI_Finalize();
    return 1;
  }
  idx_t nparts = (idx_t)atoi(argv[2]), wgtflag = (vwgt ? 2 : 0) + (adjwgt ? 1 : 0), numflag = 0, edgecut = 0;
  const int repeats = argc > 4 ? atoi(argv[4]) : 1;
  const idx_t n = vtxdist[rank + 1] - vtxdist[rank];
  real_t *tpwgts = (real_t *)malloc(sizeof(real_t) * (size_t)(nparts * ncon));
  real_t *ubvec = (real_t *)malloc(sizeof(real_t) * (size_t)ncon);
  for (idx_t i = 0; i < nparts * ncon; ++i) tpwgts[i] = (real_t)(1.0 / (double)nparts);
  for (idx_t c = 0; c < ncon; ++c) ubvec[c] = (real_t)(argc > 3 ? atof(argv[3]) : 1.05);
  idx_t options[3] = {0, 0, 0};
  idx_t *part = (idx_t *)malloc(sizeof(idx_t) * (size_t)(n + 1));
  double best = 1e300;
  int status = METIS_OK;
  for (int rep = 0; rep < repeats && status == METIS_OK; ++rep) {
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    status = ParMETIS_V3_PartKway(vtxdist, xadj, adjncy, vwgt, adjwgt, &wgtflag, &numflag, &ncon, &nparts, tpwgts,
                                  ubvec, options, &edgecut, part, &comm);
    double t = MPI_Wtime() - t0, tmax = 0;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, comm);
    if (tmax < best) best = tmax;
  }
  if (status != METIS_OK) {
    if (rank == 0) fprintf(stderr, "ParMETIS_V3_PartKway returned %d\n", status);
    MPI_Finalize();
    return 1;
  }
  /* The cut and the balance, counted here the same way whatever library partitioned. */
  int *counts = (int *)malloc(sizeof(int) * (size_t)size), *displs = (int *)malloc(sizeof(int) * (size_t)size);
  for (int r = 0; r < size; ++r) counts[r] = (int)(vtxdist[r + 1] - vtxdist[r]), displs[r] = (int)vtxdist[r];
  idx_t *all = (idx_t *)malloc(sizeof(idx_t) * (size_t)(vtxdist[size] + 1));
  const MPI_Datatype idx_type = sizeof(idx_t) == 8 ? MPI_INT64_T : MPI_INT32_T;
  MPI_Allgatherv(part, (int)n, idx_type, all, counts, displs, idx_type, comm);
  long long cut = 0, gcut = 0;
  double *w = (double *)calloc((size_t)nparts + 1, sizeof(double)), total = 0;
  for (idx_t i = 0; i < n; ++i) {
    for (idx_t e = xadj[i]; e < xadj[i + 1]; ++e)
      if (all[adjncy[e]] != part[i]) cut += adjwgt ? adjwgt[e] : 1;
    w[part[i]] += vwgt ? (double)vwgt[i * ncon] : 1.0;
  }
  MPI_Allreduce(&cut, &gcut, 1, MPI_LONG_LONG, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, w, (int)nparts, MPI_DOUBLE, MPI_SUM, comm);
  double wmax = 0;
  for (idx_t q = 0; q < nparts; ++q) total += w[q], wmax = w[q] > wmax ? w[q] : wmax;
  if (rank == 0)
    printf("nparts %d ranks %d edgecut %lld counted %lld imbalance %.4f seconds %.6f\n", (int)nparts, size,
           (long long)edgecut, gcut / 2, wmax / (total / (double)nparts), best);
  MPI_Finalize();
  return 0;
}
