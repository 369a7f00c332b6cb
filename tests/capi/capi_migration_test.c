/* The C API's migration, assign and files, from C: records moved to the ranks that own their
 * parts (count and checksum conserved, every arrival owned here, ids travel along), the map
 * locating every local point in its assigned part (and the same after save and load), and the
 * readers on files this test writes. */
#include <unistd.h>

#include "capi_test.h"

typedef struct {
  int64_t id;
  double x;
  int32_t part;
  int32_t pad;
} record;

static void partition_points(int64_t N, int K, int64_t* first, int64_t* n, double** xyz, int64_t** ids,
                             hpart_points** pts, hpart_partition** p, hpart_point_options* o) {
  test_block(N, first, n);
  *xyz = malloc((size_t)(3 * *n + 1) * sizeof(double));
  *ids = malloc((size_t)(*n + 1) * sizeof(int64_t));
  for (int64_t i = 0; i < *n; ++i) {
    for (int d = 0; d < 3; ++d) (*xyz)[3 * i + d] = test_coord(*first + i, d);
    (*ids)[i] = 1000 + *first + i;
  }
  OK(hpart_points_create(3, *n, *xyz, pts));
  OK(hpart_points_set_ids_i64(*pts, *ids));
  OK(hpart_point_options_init(o));
  o->parts = K;
  OK(hpart_partition_points(MPI_COMM_WORLD, *pts, o, p));
}

static void test_migration(void) {
  const int64_t N = 5000;
  const int K = 3 * test_size() + 1, R = test_size(), me = test_rank();
  int64_t first, n, *ids;
  double* xyz;
  hpart_points* pts;
  hpart_partition* p;
  hpart_point_options o;
  partition_points(N, K, &first, &n, &xyz, &ids, &pts, &p, &o);
  const int32_t* parts = NULL;
  const int32_t* owners = NULL;
  OK(hpart_partition_parts(p, &parts));
  OK(hpart_partition_owners(p, &owners));
  hpart_migration* m = NULL;
  OK(hpart_migration_from_partition(MPI_COMM_WORLD, p, ids, &m));
  int64_t imports = -1, exports = -1;
  const int *send = NULL, *recv = NULL;
  const int32_t* dest = NULL;
  OK(hpart_migration_num_imports(m, &imports));
  OK(hpart_migration_num_exports(m, &exports));
  OK(hpart_migration_send_counts(m, &send));
  OK(hpart_migration_recv_counts(m, &recv));
  OK(hpart_migration_destinations(m, &dest));
  /* The export list agrees with the owners and the counts. */
  int64_t leaving = 0, sent = 0, received = 0;
  for (int64_t i = 0; i < n; ++i) {
    CHECK(dest[i] == owners[parts[i]]);
    leaving += dest[i] != me;
  }
  for (int r = 0; r < R; ++r) sent += send[r], received += recv[r];
  CHECK(leaving == exports && sent == n && received == imports);
  CHECK(sum_ll(imports) == N);

  record* in = malloc((size_t)(n + 1) * sizeof(record));
  record* out = malloc((size_t)(imports + 1) * sizeof(record));
  double xsum = 0;
  long long idsum = 0;
  for (int64_t i = 0; i < n; ++i) {
    in[i].id = ids[i], in[i].x = xyz[3 * i], in[i].part = parts[i], in[i].pad = 0;
    xsum += in[i].x, idsum += in[i].id;
  }
  OK(hpart_migration_move(m, in, n, sizeof(record), out, imports));
  const int64_t* arrived = NULL;
  OK(hpart_migration_imported_ids(m, &arrived));
  double xsum2 = 0;
  long long idsum2 = 0;
  for (int64_t k = 0; k < imports; ++k) {
    CHECK(owners[out[k].part] == me);
    CHECK(out[k].id == arrived[k]);
    xsum2 += out[k].x, idsum2 += out[k].id;
  }
  CHECK(sum_ll(idsum2) == sum_ll(idsum));
  const double a = sum_d(xsum), b = sum_d(xsum2);
  CHECK(a - b < 1e-9 * a && b - a < 1e-9 * a);
  OK(hpart_migration_free(&m));

  /* An explicit owner map (every part to the last rank) and 64-bit parts. */
  int32_t* last = malloc((size_t)K * sizeof(int32_t));
  int64_t* p64 = malloc((size_t)(n + 1) * sizeof(int64_t));
  for (int k = 0; k < K; ++k) last[k] = R - 1;
  for (int64_t i = 0; i < n; ++i) p64[i] = parts[i];
  OK(hpart_migration_create_i64(MPI_COMM_WORLD, p64, n, K, last, NULL, &m));
  OK(hpart_migration_num_imports(m, &imports));
  CHECK(imports == (me == R - 1 ? N : 0));
  OK(hpart_migration_free(&m));
  free(p64), free(last), free(out), free(in);
  OK(hpart_partition_free(&p));
  OK(hpart_points_free(&pts));
  free(ids), free(xyz);
}

static void test_assign(void) {
  const int64_t N = 4000;
  const int K = 5;
  int64_t first, n, *ids;
  double* xyz;
  hpart_points* pts;
  hpart_partition* p;
  hpart_point_options o;
  partition_points(N, K, &first, &n, &xyz, &ids, &pts, &p, &o);
  const int32_t* parts = NULL;
  OK(hpart_partition_parts(p, &parts));
  hpart_map* map = NULL;
  OK(hpart_map_create_points(MPI_COMM_WORLD, pts, &o, p, &map));
  int dim = 0, k = 0;
  OK(hpart_map_dim(map, &dim));
  OK(hpart_map_num_parts(map, &k));
  CHECK(dim == 3 && k == K);
  int32_t* located = malloc((size_t)(n + 1) * sizeof(int32_t));
  OK(hpart_map_assign(map, n, xyz, ids, located));
  for (int64_t i = 0; i < n; ++i) {
    int32_t q = -1;
    int rank = -1, owner = -1;
    CHECK(located[i] == parts[i]);
    OK(hpart_map_part_of_id(map, xyz + 3 * i, ids[i], &q));
    CHECK(q == parts[i]);
    OK(hpart_map_rank_of_part(map, q, &owner));
    OK(hpart_map_rank_of(map, xyz + 3 * i, &rank));
    CHECK(rank >= 0 && rank < test_size() && owner >= 0 && owner < test_size());
    OK(hpart_map_rank_of_id(map, xyz + 3 * i, ids[i], &rank));
    CHECK(rank == owner);
  }
  /* The whole unit cube meets every part. */
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  int32_t in_box[64];
  int64_t count = -1;
  OK(hpart_map_parts_in_box(map, lo, hi, in_box, 64, &count));
  CHECK(count == K);
  for (int q = 0; q < K; ++q) CHECK(in_box[q] == q);
  /* Saved and loaded: the same answers (rank 0 writes, every rank reads). */
  char path[64];
  snprintf(path, sizeof path, "capi_map_np%d.txt", test_size());
  if (test_rank() == 0) OK(hpart_map_save(map, path));
  MPI_Barrier(MPI_COMM_WORLD);
  hpart_map* loaded = NULL;
  OK(hpart_map_load(path, &loaded));
  int32_t* again = malloc((size_t)(n + 1) * sizeof(int32_t));
  OK(hpart_map_assign(loaded, n, xyz, ids, again));
  for (int64_t i = 0; i < n; ++i) CHECK(again[i] == parts[i]);
  MPI_Barrier(MPI_COMM_WORLD);
  if (test_rank() == 0) unlink(path);
  OK(hpart_map_free(&loaded));
  OK(hpart_map_free(&map));
  free(again), free(located);
  OK(hpart_partition_free(&p));
  OK(hpart_points_free(&pts));
  free(ids), free(xyz);
}

static void test_files(void) {
  char points_path[64], graph_path[64], parts_path[64];
  const int np = test_size();
  snprintf(points_path, sizeof points_path, "capi_points_np%d.txt", np);
  snprintf(graph_path, sizeof graph_path, "capi_ring_np%d.graph", np);
  snprintf(parts_path, sizeof parts_path, "capi_parts_np%d.txt", np);
  const int N = 50;
  if (test_rank() == 0) {
    FILE* f = fopen(points_path, "w");
    CHECK(f != NULL);
    fprintf(f, "# x y w\n");
    for (int i = 0; i < N; ++i) fprintf(f, "%d %d %d\n", i, 2 * i, 1 + i % 3);
    fclose(f);
    f = fopen(graph_path, "w");  /* a ring of N vertices, 1-based as METIS files are */
    CHECK(f != NULL);
    fprintf(f, "%d %d\n", N, N);
    for (int i = 0; i < N; ++i) fprintf(f, "%d %d\n", (i + N - 1) % N + 1, (i + 1) % N + 1);
    fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  hpart_points* pts = NULL;
  OK(hpart_read_points_text(MPI_COMM_WORLD, points_path, 2, &pts));
  int64_t n = 0;
  const double *xy = NULL, *w = NULL;
  const int64_t* ids = NULL;
  int ncon = 0;
  OK(hpart_points_size(pts, &n));
  OK(hpart_points_coords(pts, &xy));
  OK(hpart_points_weights(pts, &w, &ncon));
  OK(hpart_points_ids(pts, &ids));
  CHECK(sum_ll(n) == N && ncon == 1 && (n == 0 || (w != NULL && ids != NULL)));
  for (int64_t i = 0; i < n; ++i) CHECK(xy[2 * i] == (double)ids[i] && xy[2 * i + 1] == 2.0 * (double)ids[i]);
  double wsum = 0;
  for (int64_t i = 0; i < n; ++i) wsum += w[i];
  CHECK(sum_d(wsum) == 99.0); /* 17 x (1 + 2 + 3) - 3 */

  hpart_graph* g = NULL;
  OK(hpart_read_graph_metis(MPI_COMM_WORLD, graph_path, &g));
  hpart_graph_options go;
  OK(hpart_graph_options_init(&go));
  go.parts = 2;
  hpart_partition* gp = NULL;
  OK(hpart_partition_graph(MPI_COMM_WORLD, g, &go, &gp));
  hpart_metrics m;
  OK(hpart_metrics_init(&m));
  OK(hpart_partition_metrics(gp, &m));
  CHECK(m.objects == N && m.edge_cut == 2); /* a ring cut in two halves */
  const int32_t* gparts = NULL;
  int64_t gn = 0;
  OK(hpart_partition_parts(gp, &gparts));
  OK(hpart_partition_local_size(gp, &gn));
  OK(hpart_write_parts_text(MPI_COMM_WORLD, parts_path, gparts, gn));
  MPI_Barrier(MPI_COMM_WORLD);
  if (test_rank() == 0) {
    FILE* f = fopen(parts_path, "r");
    int lines = 0, v;
    while (f && fscanf(f, "%d", &v) == 1) {
      CHECK(v == 0 || v == 1);
      ++lines;
    }
    if (f) fclose(f);
    CHECK(lines == N);
    unlink(points_path), unlink(graph_path), unlink(parts_path);
  }
  OK(hpart_partition_free(&gp));
  OK(hpart_graph_free(&g));
  OK(hpart_points_free(&pts));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  test_migration();
  test_assign();
  test_files();
  if (test_rank() == 0) printf("capi migration, assign and file tests passed\n");
  MPI_Finalize();
  return 0;
}
