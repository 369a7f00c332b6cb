/* The C API's partitioners, from C: points (flat and hierarchical), grids, graphs (32- and
 * 64-bit arrays, partition and repartition) and the Rebalancer, each checked for properties
 * that fail when the call is wrong: one part in range per object, part sizes and weights that
 * add up to the input, the imbalance within its tolerance, the same parts from either index
 * width, the cut the result reports equal to the cut measured afresh. */
#include "capi_test.h"

static void check_partition(const hpart_partition* p, int64_t n_local, int64_t n_global, int K, double weight_total) {
  int num_parts = 0;
  int64_t n = -1;
  const int32_t* parts = NULL;
  const int64_t* sizes = NULL;
  const double* weights = NULL;
  hpart_metrics m;
  OK(hpart_partition_num_parts(p, &num_parts));
  OK(hpart_partition_local_size(p, &n));
  OK(hpart_partition_parts(p, &parts));
  OK(hpart_partition_part_sizes(p, &sizes));
  OK(hpart_partition_part_weights(p, &weights));
  OK(hpart_metrics_init(&m));
  OK(hpart_partition_metrics(p, &m));
  CHECK(num_parts == K && n == n_local && m.objects == n_global);
  for (int64_t i = 0; i < n; ++i) CHECK(parts[i] >= 0 && parts[i] < K);
  int64_t size_sum = 0;
  double weight_sum = 0;
  for (int k = 0; k < K; ++k) size_sum += sizes[k], weight_sum += weights[k * m.ncon];
  CHECK(size_sum == n_global);
  CHECK(weight_sum > weight_total * (1 - 1e-12) && weight_sum < weight_total * (1 + 1e-12));
  /* The same sizes when counted from the parts by evaluate_partition. */
  hpart_partition* e = NULL;
  const int64_t* esizes = NULL;
  OK(hpart_evaluate_partition(MPI_COMM_WORLD, parts, n, K, NULL, 1, NULL, &e));
  OK(hpart_partition_part_sizes(e, &esizes));
  for (int k = 0; k < K; ++k) CHECK(esizes[k] == sizes[k]);
  OK(hpart_partition_free(&e));
  CHECK(e == NULL);
  /* The copies in either width equal the borrowed array. */
  int64_t* p64 = malloc((size_t)(n + 1) * sizeof(int64_t));
  OK(hpart_partition_get_parts_i64(p, p64));
  for (int64_t i = 0; i < n; ++i) CHECK(p64[i] == parts[i]);
  free(p64);
}

static void test_points(void) {
  const int64_t N = 20000;
  const int K = 7;
  int64_t first, n;
  test_block(N, &first, &n);
  double* xyz = malloc((size_t)(3 * n + 1) * sizeof(double));
  double* w = malloc((size_t)(n + 1) * sizeof(double));
  int64_t* ids = malloc((size_t)(n + 1) * sizeof(int64_t));
  double wsum = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d) xyz[3 * i + d] = test_coord(first + i, d);
    w[i] = 1.0 + (double)((first + i) % 5);
    ids[i] = first + i;
    wsum += w[i];
  }
  hpart_points* pts = NULL;
  OK(hpart_points_create(3, n, xyz, &pts));
  OK(hpart_points_set_weights(pts, 1, w));
  OK(hpart_points_set_ids_i64(pts, ids));
  hpart_point_options o;
  OK(hpart_point_options_init(&o));
  CHECK(o.size == sizeof o && o.parts == 1 && o.curve == HPART_CURVE_HILBERT);
  o.parts = K;
  o.imbalance = 0.01;
  hpart_partition* p = NULL;
  OK(hpart_partition_points(MPI_COMM_WORLD, pts, &o, &p));
  check_partition(p, n, N, K, sum_d(wsum));
  hpart_metrics m;
  OK(hpart_metrics_init(&m));
  OK(hpart_partition_metrics(p, &m));
  CHECK(m.within_tolerance == 1 && m.imbalance <= 0.01 && m.tolerance == 0.01 && m.has_cut == 0);

  /* 32-bit ids: read in place, the same partition. */
  int32_t* ids32 = malloc((size_t)(n + 1) * sizeof(int32_t));
  for (int64_t i = 0; i < n; ++i) ids32[i] = (int32_t)ids[i];
  OK(hpart_points_set_ids_i32(pts, ids32));
  hpart_partition* p32 = NULL;
  const int32_t *a = NULL, *b = NULL;
  OK(hpart_partition_points(MPI_COMM_WORLD, pts, &o, &p32));
  OK(hpart_partition_parts(p, &a));
  OK(hpart_partition_parts(p32, &b));
  for (int64_t i = 0; i < n; ++i) CHECK(a[i] == b[i]);

  /* Hierarchical: 2 emulated nodes when the rank count is even. */
  hpart_hier_point_options h;
  OK(hpart_hier_point_options_init(&h));
  h.parts = 2 * test_size();
  h.topology = test_size() % 2 == 0 ? (test_size() == 2 ? "2x1" : "2x2") : NULL;
  hpart_partition* hp = NULL;
  OK(hpart_partition_points_hierarchical(MPI_COMM_WORLD, pts, &h, &hp));
  check_partition(hp, n, N, h.parts, sum_d(wsum));
  const int32_t* owners = NULL;
  OK(hpart_partition_owners(hp, &owners));
  for (int k = 0; k < h.parts; ++k) CHECK(owners[k] >= 0 && owners[k] < test_size());

  OK(hpart_partition_free(&hp));
  OK(hpart_partition_free(&p32));
  OK(hpart_partition_free(&p));
  OK(hpart_points_free(&pts));
  CHECK(pts == NULL);
  OK(hpart_points_free(&pts)); /* NULL: a no-op */
  free(ids32), free(ids), free(w), free(xyz);
}

static void test_grid(void) {
  const int64_t extent[2] = {40, 30};
  const int K = 6;
  int64_t first, rows;
  test_block(extent[1], &first, &rows);
  const int64_t lo[2] = {0, first}, hi[2] = {extent[0] - 1, first + rows - 1};
  const int64_t cells = extent[0] * rows;
  double* cost = malloc((size_t)(cells + 1) * sizeof(double));
  double csum = 0;
  for (int64_t i = 0; i < cells; ++i) cost[i] = 1.0 + (double)((i * 7) % 3), csum += cost[i];
  hpart_grid* g = NULL;
  OK(hpart_grid_create(2, extent, lo, hi, cost, &g));
  hpart_grid_options o;
  OK(hpart_grid_options_init(&o));
  CHECK(o.method == HPART_GRID_BLOCKS);
  o.parts = K;
  hpart_partition* p = NULL;
  OK(hpart_partition_grid(MPI_COMM_WORLD, g, &o, &p));
  check_partition(p, cells, extent[0] * extent[1], K, sum_d(csum));
  /* Every local cell: its part's box holds it, and part_of_cell finds that part. */
  const int32_t* parts = NULL;
  OK(hpart_partition_parts(p, &parts));
  for (int64_t y = lo[1], i = 0; y <= hi[1]; ++y)
    for (int64_t x = 0; x < extent[0]; ++x, ++i) {
      const int64_t cell[2] = {x, y};
      int64_t blo[2], bhi[2];
      int32_t q = -1;
      OK(hpart_partition_part_of_cell(p, cell, &q));
      CHECK(q == parts[i]);
      OK(hpart_partition_box(p, q, blo, bhi));
      CHECK(blo[0] <= x && x <= bhi[0] && blo[1] <= y && y <= bhi[1]);
    }
  /* Costs drift: moving the cut planes stays within the grid's parts, and reports a repartition. */
  for (int64_t i = 0; i < cells; ++i) cost[i] = (first * extent[0] + i) % 40 < 10 ? 3.0 : 1.0;
  hpart_partition* r = NULL;
  OK(hpart_repartition_grid(MPI_COMM_WORLD, g, p, K, 0.05, &r));
  hpart_metrics m;
  OK(hpart_metrics_init(&m));
  OK(hpart_partition_metrics(r, &m));
  CHECK(m.is_repartition == 1 && m.num_parts == K && m.objects == extent[0] * extent[1]);
  CHECK(hpart_partition_part_of_cell(p, (const int64_t[2]){40, 0}, &(int32_t){0}) == HPART_ERR_INVALID_ARGUMENT);

  /* Hierarchical (2 emulated nodes when the rank count is even): part_of_cell and the map agree
   * with the local cells' parts. */
  hpart_hier_grid_options ho;
  OK(hpart_hier_grid_options_init(&ho));
  CHECK(ho.node_cut == HPART_NODE_CUT_GRAPH);
  ho.parts = 2 * test_size();
  ho.topology = test_size() % 2 == 0 ? (test_size() == 2 ? "2x1" : "2x2") : NULL;
  hpart_partition* hp = NULL;
  OK(hpart_partition_grid_hierarchical(MPI_COMM_WORLD, g, &ho, &hp));
  double drifted = 0; /* the costs after the drift above */
  for (int64_t i = 0; i < cells; ++i) drifted += cost[i];
  check_partition(hp, cells, extent[0] * extent[1], ho.parts, sum_d(drifted));
  hpart_map* map = NULL;
  OK(hpart_map_create_grid(MPI_COMM_WORLD, g, hp, &map));
  const int32_t* hparts = NULL;
  OK(hpart_partition_parts(hp, &hparts));
  for (int64_t y = lo[1], i = 0; y <= hi[1]; ++y)
    for (int64_t x = 0; x < extent[0]; ++x, ++i) {
      const int64_t cell[2] = {x, y};
      const double centre[2] = {(double)x + 0.5, (double)y + 0.5};
      int32_t q = -1, located = -1;
      OK(hpart_partition_part_of_cell(hp, cell, &q));
      OK(hpart_map_part_of(map, centre, &located));
      CHECK(q == hparts[i] && located == hparts[i]);
    }
  OK(hpart_map_free(&map));
  OK(hpart_partition_free(&hp));
  OK(hpart_partition_free(&r));
  OK(hpart_partition_free(&p));
  OK(hpart_grid_free(&g));
  free(cost);
}

/* A W x H grid graph, rank r holding a block of rows: vtxdist, xadj, adjncy in 64 bits. */
typedef struct {
  int64_t* vtxdist;
  int64_t* xadj;
  int64_t* adjncy;
  int64_t n;
} test_graph;

static test_graph grid_graph(int64_t W, int64_t H) {
  const int R = test_size();
  test_graph t;
  t.vtxdist = malloc((size_t)(R + 1) * sizeof(int64_t));
  for (int r = 0; r <= R; ++r) t.vtxdist[r] = W * H * r / R;
  const int64_t first = t.vtxdist[test_rank()];
  t.n = t.vtxdist[test_rank() + 1] - first;
  t.xadj = malloc((size_t)(t.n + 1) * sizeof(int64_t));
  t.adjncy = malloc((size_t)(4 * t.n + 1) * sizeof(int64_t));
  t.xadj[0] = 0;
  for (int64_t i = 0; i < t.n; ++i) {
    const int64_t v = first + i, x = v % W, y = v / W;
    int64_t e = t.xadj[i];
    if (x > 0) t.adjncy[e++] = v - 1;
    if (x < W - 1) t.adjncy[e++] = v + 1;
    if (y > 0) t.adjncy[e++] = v - W;
    if (y < H - 1) t.adjncy[e++] = v + W;
    t.xadj[i + 1] = e;
  }
  return t;
}

static void test_graphs(void) {
  const int K = 4;
  test_graph t = grid_graph(16, 12);
  const int R = test_size();
  int32_t* v32 = malloc((size_t)(R + 1) * sizeof(int32_t));
  int32_t* x32 = malloc((size_t)(t.n + 1) * sizeof(int32_t));
  int32_t* a32 = malloc((size_t)(t.xadj[t.n] + 1) * sizeof(int32_t));
  for (int r = 0; r <= R; ++r) v32[r] = (int32_t)t.vtxdist[r];
  for (int64_t i = 0; i <= t.n; ++i) x32[i] = (int32_t)t.xadj[i];
  for (int64_t e = 0; e < t.xadj[t.n]; ++e) a32[e] = (int32_t)t.adjncy[e];
  hpart_graph *g64 = NULL, *g32 = NULL;
  OK(hpart_graph_create_i64(MPI_COMM_WORLD, t.vtxdist, t.xadj, t.adjncy, NULL, 1, NULL, &g64));
  OK(hpart_graph_create_i32(MPI_COMM_WORLD, v32, x32, a32, NULL, 1, NULL, &g32));
  int64_t nl = -1;
  OK(hpart_graph_local_vertices(g32, &nl));
  CHECK(nl == t.n);
  /* Borrowed at 32 bits, not copied: the handle's ids are the caller's array, and it holds no
   * 64-bit offsets. */
  const int64_t* x64 = NULL;
  const int32_t* ids_in_handle = NULL;
  OK(hpart_graph_arrays(g32, NULL, &x64, NULL, &ids_in_handle, NULL, NULL, NULL));
  CHECK(x64 == NULL && (t.xadj[t.n] == 0 || ids_in_handle == a32));
  hpart_graph_options o;
  OK(hpart_graph_options_init(&o));
  o.parts = K;
  hpart_partition *p64 = NULL, *p32 = NULL;
  OK(hpart_partition_graph(MPI_COMM_WORLD, g64, &o, &p64));
  OK(hpart_partition_graph(MPI_COMM_WORLD, g32, &o, &p32));
  check_partition(p64, t.n, 16 * 12, K, 16 * 12);
  const int32_t *a = NULL, *b = NULL;
  OK(hpart_partition_parts(p64, &a));
  OK(hpart_partition_parts(p32, &b));
  for (int64_t i = 0; i < t.n; ++i) CHECK(a[i] == b[i]);
  hpart_metrics m;
  hpart_graph_metrics gm;
  OK(hpart_metrics_init(&m));
  OK(hpart_graph_metrics_init(&gm));
  OK(hpart_partition_metrics(p64, &m));
  OK(hpart_graph_cut(MPI_COMM_WORLD, g64, a, K, &gm));
  CHECK(m.has_cut == 1 && m.edge_cut == gm.edge_cut && gm.edge_cut > 0 && gm.edge_cut < 16 * 12);
  CHECK(m.within_tolerance == 1);

  /* Repartition from a skewed start: parts by rows, the heaviest first. */
  int32_t* cur = malloc((size_t)(t.n + 1) * sizeof(int32_t));
  for (int64_t i = 0; i < t.n; ++i) cur[i] = (int32_t)(((t.vtxdist[test_rank()] + i) / 16) * K / 12);
  hpart_graph_repart_options ro;
  OK(hpart_graph_repart_options_init(&ro));
  ro.parts = K;
  hpart_partition* r = NULL;
  OK(hpart_repartition_graph(MPI_COMM_WORLD, g32, cur, &ro, &r));
  check_partition(r, t.n, 16 * 12, K, 16 * 12);
  OK(hpart_partition_metrics(r, &m));
  CHECK(m.is_repartition == 1 && m.has_cut == 1 && m.max_imbalance <= ro.imbalance + 1e-12);

  /* Hierarchical: 2 emulated nodes when the rank count is even, 2 parts per rank. */
  hpart_hier_graph_options ho;
  OK(hpart_hier_graph_options_init(&ho));
  ho.parts = 2 * R;
  ho.topology = R % 2 == 0 ? (R == 2 ? "2x1" : "2x2") : NULL;
  hpart_partition* hp = NULL;
  OK(hpart_partition_graph_hierarchical(MPI_COMM_WORLD, g64, &ho, &hp));
  check_partition(hp, t.n, 16 * 12, ho.parts, 16 * 12);
  const int32_t* owners = NULL;
  OK(hpart_partition_owners(hp, &owners));
  for (int k = 0; k < ho.parts; ++k) CHECK(owners[k] >= 0 && owners[k] < R);
  OK(hpart_partition_free(&hp));

  OK(hpart_partition_free(&r));
  OK(hpart_partition_free(&p32));
  OK(hpart_partition_free(&p64));
  OK(hpart_graph_free(&g32));
  OK(hpart_graph_free(&g64));
  free(cur), free(a32), free(x32), free(v32), free(t.adjncy), free(t.xadj), free(t.vtxdist);
}

static void test_rebalancer(void) {
  const int64_t N = 6000;
  const int K = 2 * test_size();
  int64_t first, n;
  test_block(N, &first, &n);
  double* xy = malloc((size_t)(2 * n + 1) * sizeof(double));
  double* cost = malloc((size_t)(n + 1) * sizeof(double));
  for (int64_t i = 0; i < n; ++i) xy[2 * i] = test_coord(first + i, 0), xy[2 * i + 1] = test_coord(first + i, 1);
  hpart_points* pts = NULL;
  OK(hpart_points_create(2, n, xy, &pts));
  hpart_rebalance_options o;
  OK(hpart_rebalance_options_init(&o));
  o.parts = K;
  hpart_rebalancer* rb = NULL;
  OK(hpart_rebalancer_create(MPI_COMM_WORLD, &o, &rb));
  hpart_partition* p = NULL;
  OK(hpart_rebalancer_partition_points(rb, pts, &p));
  check_partition(p, n, N, K, (double)N);
  /* The costs of the points left of x = 0.3 grow tenfold: observed, the imbalance is seen. */
  double csum = 0;
  for (int64_t i = 0; i < n; ++i) cost[i] = xy[2 * i] < 0.3 ? 10.0 : 1.0, csum += cost[i];
  hpart_observation obs;
  OK(hpart_observation_init(&obs));
  obs.n = n;
  obs.object_costs = cost;
  for (int step = 0; step < 3; ++step) OK(hpart_rebalancer_observe(rb, &obs));
  hpart_decision d;
  OK(hpart_decision_init(&d));
  OK(hpart_rebalancer_decide(rb, &d));
  CHECK(d.imbalance > 0.3 && strlen(d.reason) > 0);
  OK(hpart_points_set_weights(pts, 1, cost));
  hpart_partition* q = NULL;
  OK(hpart_rebalancer_rebalance_points(rb, pts, NULL, &q));
  check_partition(q, n, N, K, sum_d(csum));
  hpart_metrics m;
  OK(hpart_metrics_init(&m));
  OK(hpart_partition_metrics(q, &m));
  CHECK(m.imbalance <= o.imbalance + 1e-12);
  hpart_rebalance_stats s;
  OK(hpart_rebalance_stats_init(&s));
  OK(hpart_rebalancer_stats(rb, &s));
  CHECK(s.rebalances == 1 && s.kind != HPART_REBALANCE_NONE && s.migrated_objects > 0);
  OK(hpart_rebalancer_record_migration_seconds(rb, 0.01));
  OK(hpart_partition_free(&q));
  OK(hpart_partition_free(&p));
  OK(hpart_rebalancer_free(&rb));
  OK(hpart_points_free(&pts));
  free(cost), free(xy);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  test_points();
  test_grid();
  test_graphs();
  test_rebalancer();
  if (test_rank() == 0) printf("capi partition tests passed\n");
  MPI_Finalize();
  return 0;
}
