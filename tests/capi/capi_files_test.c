/* The C API's graph readers beyond METIS and its HDF5 partition files, and the Fortran twin of
 * the 64-bit migration plan (ctest capi.files, np 1-4):
 *  - one W x H grid graph written as METIS, Chaco (with vertex numbers) and MatrixMarket
 *    (symmetric, one triangle plus diagonal entries, which are dropped) reads back, from each,
 *    as exactly the grid's neighbour sets on every rank's block, and partitions;
 *  - hpart_write_partition_h5 of a point partition (with ids and points) reads back with
 *    hpart_read_parts_h5 (this rank's parts, the count-only call first) and hpart_read_points_h5
 *    (coordinates and ids bit for bit); the _f twins and the file without points agree;
 *  - hpart_migration_create_i64_f gives the plan hpart_migration_create gives for the same parts. */
#include <unistd.h>

#include "capi_test.h"

enum { W = 7, H = 5, NV = W * H };

/* The grid's neighbours of vertex v (0-based), ascending; returns their count. */
static int grid_neighbours(int v, int64_t* nb) {
  const int x = v % W, y = v / W;
  int k = 0;
  if (y > 0) nb[k++] = v - W;
  if (x > 0) nb[k++] = v - 1;
  if (x < W - 1) nb[k++] = v + 1;
  if (y < H - 1) nb[k++] = v + W;
  return k;
}

static void write_graph_files(const char* metis, const char* chaco, const char* mm) {
  int64_t nb[4];
  int edges = 0;
  for (int v = 0; v < NV; ++v) edges += grid_neighbours(v, nb);
  edges /= 2;
  FILE* fm = fopen(metis, "w");
  FILE* fc = fopen(chaco, "w");
  FILE* fx = fopen(mm, "w");
  CHECK(fm != NULL && fc != NULL && fx != NULL);
  fprintf(fm, "%d %d\n", NV, edges);
  fprintf(fc, "%d %d 100\n", NV, edges); /* fmt 100: each line starts with its vertex number */
  fprintf(fx, "%%%%MatrixMarket matrix coordinate pattern symmetric\n%% a %d x %d grid\n", W, H);
  fprintf(fx, "%d %d %d\n", NV, NV, edges + NV);
  for (int v = 0; v < NV; ++v) {
    const int k = grid_neighbours(v, nb);
    fprintf(fc, "%d", v + 1);
    fprintf(fx, "%d %d\n", v + 1, v + 1); /* the diagonal: dropped by the reader */
    for (int j = 0; j < k; ++j) {
      fprintf(fm, "%s%d", j ? " " : "", (int)nb[j] + 1);
      fprintf(fc, " %d", (int)nb[j] + 1);
      if (nb[j] < v) fprintf(fx, "%d %d\n", v + 1, (int)nb[j] + 1); /* lower triangle only */
    }
    fprintf(fm, "\n");
    fprintf(fc, "\n");
  }
  fclose(fm), fclose(fc), fclose(fx);
}

static int cmp_i64(const void* a, const void* b) {
  const int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
  return (x > y) - (x < y);
}

/* The graph holds exactly the grid's edges for its local vertices, and all NV vertices in all. */
static void check_grid_graph(const char* what, const hpart_graph* g) {
  const int64_t *vtxdist, *xadj, *adjncy, *vwgt, *adjwgt;
  int ncon = 0;
  int64_t n = 0, nb[4], got[8];
  OK(hpart_graph_local_vertices(g, &n));
  const int32_t* adjncy32 = NULL;
  OK(hpart_graph_arrays(g, &vtxdist, &xadj, &adjncy, &adjncy32, &vwgt, &adjwgt, &ncon));
  CHECK(adjncy != NULL && adjncy32 == NULL); /* a reader's graph: 64-bit ids */
  CHECK(vtxdist[test_rank() + 1] - vtxdist[test_rank()] == n && vtxdist[test_size()] == NV);
  CHECK(sum_ll(n) == NV);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t v = vtxdist[test_rank()] + i, deg = xadj[i + 1] - xadj[i];
    const int k = grid_neighbours((int)v, nb);
    if (deg != k) {
      fprintf(stderr, "%s: vertex %lld has %lld neighbours, expected %d\n", what, (long long)v, (long long)deg, k);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int j = 0; j < k; ++j) got[j] = adjncy[xadj[i] + j];
    qsort(got, (size_t)k, sizeof got[0], cmp_i64);
    for (int j = 0; j < k; ++j) CHECK(got[j] == nb[j]);
  }
}

static void test_graph_readers(void) {
  char metis[64], chaco[64], mm[64];
  snprintf(metis, sizeof metis, "capi_grid_np%d.graph", test_size());
  snprintf(chaco, sizeof chaco, "capi_grid_np%d.chaco", test_size());
  snprintf(mm, sizeof mm, "capi_grid_np%d.mtx", test_size());
  if (test_rank() == 0) write_graph_files(metis, chaco, mm);
  MPI_Barrier(MPI_COMM_WORLD);
  hpart_graph *gm = NULL, *gc = NULL, *gx = NULL, *gf = NULL;
  OK(hpart_read_graph_metis(MPI_COMM_WORLD, metis, &gm));
  OK(hpart_read_graph_chaco(MPI_COMM_WORLD, chaco, &gc));
  OK(hpart_read_graph_matrix_market(MPI_COMM_WORLD, mm, &gx));
  check_grid_graph("METIS", gm);
  check_grid_graph("Chaco", gc);
  check_grid_graph("MatrixMarket", gx);
  const MPI_Fint fw = MPI_Comm_c2f(MPI_COMM_WORLD);
  OK(hpart_read_graph_chaco_f(fw, chaco, &gf));
  check_grid_graph("Chaco (_f)", gf);
  OK(hpart_graph_free(&gf));
  OK(hpart_read_graph_matrix_market_f(fw, mm, &gf));
  check_grid_graph("MatrixMarket (_f)", gf);

  /* The MatrixMarket graph partitions: every part id in range, the grid's cut edges counted. */
  hpart_graph_options go;
  OK(hpart_graph_options_init(&go));
  go.parts = 3;
  hpart_partition* p = NULL;
  OK(hpart_partition_graph(MPI_COMM_WORLD, gx, &go, &p));
  const int32_t* parts = NULL;
  int64_t n = 0;
  OK(hpart_partition_local_size(p, &n));
  OK(hpart_partition_parts(p, &parts));
  for (int64_t i = 0; i < n; ++i) CHECK(parts[i] >= 0 && parts[i] < 3);
  hpart_metrics m;
  OK(hpart_metrics_init(&m));
  OK(hpart_partition_metrics(p, &m));
  CHECK(m.objects == NV && m.has_cut && m.edge_cut > 0 && m.edge_cut < NV);
  OK(hpart_partition_free(&p));
  OK(hpart_graph_free(&gf));
  OK(hpart_graph_free(&gm));
  OK(hpart_graph_free(&gc));
  OK(hpart_graph_free(&gx));
  MPI_Barrier(MPI_COMM_WORLD);
  if (test_rank() == 0) unlink(metis), unlink(chaco), unlink(mm);
}

static void test_h5(void) {
  enum { N = 301 };
  const int r = test_rank(), R = test_size();
  /* read_points_h5's and read_parts_h5's blocks: [N r / R, N (r + 1) / R). */
  const int64_t first = (int64_t)N * r / R, n = (int64_t)N * (r + 1) / R - first;
  double* xyz = malloc(sizeof(double) * 3 * (size_t)(n + 1));
  int64_t* ids = malloc(sizeof(int64_t) * (size_t)(n + 1));
  CHECK(xyz != NULL && ids != NULL);
  for (int64_t i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d) xyz[3 * i + d] = test_coord(first + i, d);
    ids[i] = 1000 + 7 * (first + i); /* not the row numbers: the file's /ids must be these */
  }
  hpart_points* pts = NULL;
  OK(hpart_points_create(3, n, xyz, &pts));
  OK(hpart_points_set_ids_i64(pts, ids));
  hpart_point_options o;
  OK(hpart_point_options_init(&o));
  o.parts = 5;
  hpart_partition* p = NULL;
  OK(hpart_partition_points(MPI_COMM_WORLD, pts, &o, &p));
  const int32_t* mine = NULL;
  OK(hpart_partition_parts(p, &mine));

  char path[64], bare[64];
  snprintf(path, sizeof path, "capi_part_np%d.h5", R);
  snprintf(bare, sizeof bare, "capi_part_bare_np%d.h5", R);
  OK(hpart_write_partition_h5(MPI_COMM_WORLD, path, p, ids, pts));
  int64_t count = -1;
  OK(hpart_read_parts_h5(MPI_COMM_WORLD, path, NULL, NULL, 0, &count)); /* the count only */
  CHECK(count == n);
  int32_t* back = malloc(sizeof(int32_t) * (size_t)(n + 1));
  CHECK(back != NULL);
  OK(hpart_read_parts_h5(MPI_COMM_WORLD, path, "/parts", back, n, &count));
  CHECK(count == n);
  for (int64_t i = 0; i < n; ++i) CHECK(back[i] == mine[i]);

  hpart_points* read = NULL;
  OK(hpart_read_points_h5(MPI_COMM_WORLD, path, &read));
  int64_t rn = -1;
  const double* rxyz = NULL;
  const int64_t* rids = NULL;
  OK(hpart_points_size(read, &rn));
  OK(hpart_points_coords(read, &rxyz));
  OK(hpart_points_ids(read, &rids));
  CHECK(rn == n);
  for (int64_t i = 0; i < n; ++i) {
    CHECK(rids[i] == ids[i]);
    for (int d = 0; d < 3; ++d) CHECK(rxyz[3 * i + d] == xyz[3 * i + d]);
  }
  OK(hpart_points_free(&read));

  /* The _f twins, no ids and no points: the parts alone, the same. */
  const MPI_Fint fw = MPI_Comm_c2f(MPI_COMM_WORLD);
  OK(hpart_write_partition_h5_f(fw, bare, p, NULL, NULL));
  for (int64_t i = 0; i < n; ++i) back[i] = -1;
  OK(hpart_read_parts_h5_f(fw, bare, "", back, n, &count));
  CHECK(count == n);
  for (int64_t i = 0; i < n; ++i) CHECK(back[i] == mine[i]);
  CHECK(hpart_read_points_h5(MPI_COMM_WORLD, bare, &read) != HPART_OK); /* no /points there */
  CHECK(read == NULL);

  MPI_Barrier(MPI_COMM_WORLD);
  if (r == 0) {
    unlink(path), unlink(bare);
    char xmf[64];
    snprintf(xmf, sizeof xmf, "capi_part_np%d.xmf", R);
    unlink(xmf);
  }
  free(back);
  OK(hpart_partition_free(&p));
  OK(hpart_points_free(&pts));
  free(xyz), free(ids);
}

static void test_migration_i64_f(void) {
  enum { N = 40 };
  const int R = test_size(), K = 2 * R + 1;
  int32_t p32[N];
  int64_t p64[N], ids[N];
  for (int i = 0; i < N; ++i) {
    p32[i] = (int32_t)((i * 7 + test_rank()) % K);
    p64[i] = p32[i];
    ids[i] = (int64_t)test_rank() * N + i;
  }
  hpart_migration *a = NULL, *b = NULL;
  OK(hpart_migration_create(MPI_COMM_WORLD, p32, N, K, NULL, ids, &a));
  OK(hpart_migration_create_i64_f(MPI_Comm_c2f(MPI_COMM_WORLD), p64, N, K, NULL, ids, &b));
  const int32_t *da = NULL, *db = NULL;
  OK(hpart_migration_destinations(a, &da));
  OK(hpart_migration_destinations(b, &db));
  for (int i = 0; i < N; ++i) CHECK(da[i] == db[i] && da[i] == (int32_t)((int64_t)p32[i] * R / K));
  int64_t ia = -1, ib = -2;
  OK(hpart_migration_num_imports(a, &ia));
  OK(hpart_migration_num_imports(b, &ib));
  CHECK(ia == ib && sum_ll(ia) == (long long)N * R);
  const int64_t *ga = NULL, *gb = NULL;
  OK(hpart_migration_imported_ids(a, &ga));
  OK(hpart_migration_imported_ids(b, &gb));
  for (int64_t i = 0; i < ia; ++i) CHECK(ga[i] == gb[i]);
  OK(hpart_migration_free(&a));
  OK(hpart_migration_free(&b));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  test_graph_readers();
  test_h5();
  test_migration_i64_f();
  if (test_rank() == 0) printf("capi files cases passed\n");
  MPI_Finalize();
  return 0;
}
