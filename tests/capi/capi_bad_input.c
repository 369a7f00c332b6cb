/* Bad input at the C boundary, at np > 1: each case passes one bad argument (on the last rank
 * only, unless the case says otherwise) and requires a failing status with the same status and
 * message on every rank (compared by hash), a message naming the argument, and no hang (the
 * ctest's timeout) and no crash. */
#include "capi_test.h"

static int last(void) { return test_rank() == test_size() - 1; }

static void expect(const char* name, hpart_status s, const char* word) {
  check_same_failure(name, s);
  if (word && !strstr(hpart_last_error(), word)) {
    fprintf(stderr, "case %s: message '%s' does not name '%s'\n", name, hpart_last_error(), word);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

static double coords[3 * 64];
static int32_t parts[64];

static hpart_points* make_points(void) {
  hpart_points* p = NULL;
  for (int i = 0; i < 3 * 64; ++i) coords[i] = test_coord(test_rank() * 64 + i / 3, i % 3);
  OK(hpart_points_create(3, 64, coords, &p));
  return p;
}

static void point_cases(void) {
  hpart_points* pts = make_points();
  hpart_point_options o;
  OK(hpart_point_options_init(&o));
  o.parts = 4;
  hpart_partition* out = NULL;
  expect("points NULL", hpart_partition_points(MPI_COMM_WORLD, last() ? NULL : pts, &o, &out), "points is NULL");
  CHECK(out == NULL);
  expect("opts NULL", hpart_partition_points(MPI_COMM_WORLD, pts, last() ? NULL : &o, &out), "opts is NULL");
  hpart_point_options raw;
  memset(&raw, 0, sizeof raw);
  raw.parts = 4;
  expect("opts not initialised", hpart_partition_points(MPI_COMM_WORLD, pts, last() ? &raw : &o, &out),
         "hpart_point_options_init");
  hpart_point_options bad = o;
  bad.curve = 7;
  expect("curve out of range", hpart_partition_points(MPI_COMM_WORLD, pts, last() ? &bad : &o, &out), "curve");
  bad = o;
  bad.parts = 0;
  expect("parts 0 (C++ check)", hpart_partition_points(MPI_COMM_WORLD, pts, last() ? &bad : &o, &out), "parts");
  expect("out NULL", hpart_partition_points(MPI_COMM_WORLD, pts, &o, last() ? NULL : &out), "out is NULL");
  int foreign = 0;
  expect("foreign handle", hpart_partition_points(MPI_COMM_WORLD, last() ? (hpart_points*)&foreign : pts, &o, &out),
         "not an hpart_points");
  hpart_partition* wrong = (hpart_partition*)pts; /* a live handle of another kind */
  expect("handle of another kind", hpart_partition_free(&wrong), "not an hpart_partition");
  hpart_points* freed = make_points();
  hpart_points* alias = freed;
  OK(hpart_points_free(&freed));
  expect("freed handle", hpart_partition_points(MPI_COMM_WORLD, last() ? alias : pts, &o, &out), "freed");
  expect("double free", hpart_points_free(&alias), "freed");
  expect("comm MPI_COMM_NULL", hpart_partition_points(MPI_COMM_NULL, pts, &o, &out), "MPI_COMM_NULL");
  expect("Fortran comm MPI_COMM_NULL", hpart_partition_points_f(MPI_Comm_c2f(MPI_COMM_NULL), pts, &o, &out),
         "MPI_COMM_NULL");
  coords[0] = last() ? 0.0 / 0.0 : coords[0];
  expect("NaN coordinate (C++ check)", hpart_partition_points(MPI_COMM_WORLD, pts, &o, &out), NULL);
  coords[0] = 0.5;
  expect("negative length", hpart_evaluate_partition(MPI_COMM_WORLD, parts, last() ? -1 : 64, 4, NULL, 1, NULL, &out),
         "negative");
  expect("parts NULL with a length", hpart_evaluate_partition(MPI_COMM_WORLD, last() ? NULL : parts, 64, 4, NULL, 1,
                                                              NULL, &out), "parts is NULL");
  hpart_points* local = NULL;
  expect("points_create dim 4 (local, every rank)", hpart_points_create(4, 1, coords, &local), "dim");
  expect("points_create negative n (local, every rank)", hpart_points_create(3, -5, coords, &local), "negative");
  OK(hpart_points_free(&pts));
}

/* A path graph of 8 vertices per rank, 0-based. */
static int64_t vtxdist[9], xadj[9], adjncy[16];

static void path_graph(int64_t shift, int64_t first_shift) {
  const int R = test_size(), r = test_rank();
  for (int q = 0; q <= R; ++q) vtxdist[q] = 8 * q;
  const int64_t first = vtxdist[r], N = vtxdist[R];
  int64_t e = 0;
  for (int i = 0; i < 8; ++i) {
    const int64_t v = first + i;
    xadj[i] = e;
    if (v > 0) adjncy[e++] = v - 1 + shift;
    if (v < N - 1) adjncy[e++] = v + 1 + shift;
  }
  xadj[8] = e;
  vtxdist[1] += first_shift;
}

static void graph_cases(void) {
  hpart_graph_options o;
  OK(hpart_graph_options_init(&o));
  o.parts = 2;
  hpart_graph *g = NULL, *g1 = NULL;
  hpart_partition* out = NULL;
  path_graph(0, 0);
  OK(hpart_graph_create_i64(MPI_COMM_WORLD, vtxdist, xadj, adjncy, NULL, 1, NULL, &g));
  expect("graph_create vtxdist NULL",
         hpart_graph_create_i64(MPI_COMM_WORLD, last() ? NULL : vtxdist, xadj, adjncy, NULL, 1, NULL, &g1), "vtxdist");
  expect("graph_create ncon 0", hpart_graph_create_i64(MPI_COMM_WORLD, vtxdist, xadj, adjncy, NULL, last() ? 0 : 1,
                                                       NULL, &g1), "ncon");
  expect("graph_create comm NULL", hpart_graph_create_i64(MPI_COMM_NULL, vtxdist, xadj, adjncy, NULL, 1, NULL, &g1),
         "MPI_COMM_NULL");
  int64_t shifted[9];
  memcpy(shifted, vtxdist, sizeof shifted);
  /* vtxdist that disagrees across ranks: the last rank claims one vertex more for rank 0... */
  if (last()) shifted[1] += 1, shifted[0] = 0;
  hpart_graph* gd = NULL;
  const hpart_status s = hpart_graph_create_i64(MPI_COMM_WORLD, shifted, xadj, adjncy, NULL, 1, NULL, &gd);
  if (s == HPART_OK) {  /* ... which only the partitioner can see */
    expect("vtxdist differs across ranks", hpart_partition_graph(MPI_COMM_WORLD, gd, &o, &out), "vtxdist");
    OK(hpart_graph_free(&gd));
  } else {
    expect("vtxdist differs across ranks (at create)", s, "vtxdist");
  }
  /* numflag 1: 1-based neighbours given to the 0-based C API. */
  int64_t saved[16];
  memcpy(saved, adjncy, sizeof saved);
  path_graph(1, 0);
  hpart_graph* gb = NULL;
  OK(hpart_graph_create_i64(MPI_COMM_WORLD, vtxdist, xadj, adjncy, NULL, 1, NULL, &gb));
  expect("1-based adjncy (numflag 1)", hpart_partition_graph(MPI_COMM_WORLD, gb, &o, &out), NULL);
  OK(hpart_graph_free(&gb));
  memcpy(adjncy, saved, sizeof saved);
  o.method = last() ? 9 : 0;
  expect("graph method out of range", hpart_partition_graph(MPI_COMM_WORLD, g, &o, &out), "method");
  o.method = 0;
  int32_t cur[8];
  for (int i = 0; i < 8; ++i) cur[i] = (int32_t)(test_rank() % 2);
  hpart_graph_repart_options ro;
  OK(hpart_graph_repart_options_init(&ro));
  ro.parts = 2;
  ro.itr = last() ? 0.0 : 1000.0;
  expect("itr 0", hpart_repartition_graph(MPI_COMM_WORLD, g, cur, &ro, &out), "itr");
  ro.itr = -1.0;
  expect("itr negative (every rank)", hpart_repartition_graph(MPI_COMM_WORLD, g, cur, &ro, &out), "itr");
  ro.itr = 1000.0;
  expect("current NULL", hpart_repartition_graph(MPI_COMM_WORLD, g, last() ? NULL : cur, &ro, &out), "current");
  cur[3] = last() ? 5 : cur[3];
  expect("current part out of range", hpart_repartition_graph(MPI_COMM_WORLD, g, cur, &ro, &out), NULL);
  OK(hpart_graph_free(&g));
}

static void handle_cases(void) {
  hpart_points* pts = make_points();
  hpart_rebalance_options ro;
  OK(hpart_rebalance_options_init(&ro));
  ro.parts = 3;
  hpart_rebalancer *rb = NULL, *dead = NULL;
  OK(hpart_rebalancer_create(MPI_COMM_WORLD, &ro, &rb));
  OK(hpart_rebalancer_create(MPI_COMM_WORLD, &ro, &dead));
  hpart_rebalancer* alias = dead;
  OK(hpart_rebalancer_free(&dead));
  hpart_observation obs;
  OK(hpart_observation_init(&obs));
  /* A freed Rebalancer on one rank: its tombstone joins the peers' agreement. */
  expect("freed rebalancer (tombstone)", hpart_rebalancer_observe(last() ? alias : rb, &obs), "freed");
  expect("NULL rebalancer on one rank", hpart_rebalancer_observe(last() ? NULL : rb, &obs), "rb is NULL");
  expect("foreign rebalancer on one rank", hpart_rebalancer_observe(last() ? (hpart_rebalancer*)&obs : rb, &obs),
         "not an hpart_rebalancer");
  double costs[64];
  int32_t current[64];
  for (int i = 0; i < 64; ++i) costs[i] = last() && i == 5 ? -1.0 : 1.0, current[i] = (int32_t)(i % 3);
  obs.n = 64;
  obs.object_costs = costs;
  obs.parts = current;
  expect("negative cost (C++ check)", hpart_rebalancer_observe(rb, &obs), "cost");
  costs[5] = 1.0;
  obs.n = last() ? -3 : 64;
  expect("observation n negative", hpart_rebalancer_observe(rb, &obs), "obs->n");
  hpart_decision d;
  memset(&d, 0, sizeof d);
  expect("decision not initialised", hpart_rebalancer_decide(rb, &d), "hpart_decision_init");
  ro.smoothing = last() ? 2.0 : 0.3;
  hpart_rebalancer* rb2 = NULL;
  expect("rebalancer smoothing 2 (C++ check)", hpart_rebalancer_create(MPI_COMM_WORLD, &ro, &rb2), "smoothing");
  CHECK(rb2 == NULL);

  for (int i = 0; i < 64; ++i) parts[i] = (int32_t)((test_rank() + i) % 3);
  hpart_migration *m = NULL, *mdead = NULL;
  OK(hpart_migration_create(MPI_COMM_WORLD, parts, 64, 3, NULL, NULL, &m));
  OK(hpart_migration_create(MPI_COMM_WORLD, parts, 64, 3, NULL, NULL, &mdead));
  hpart_migration* malias = mdead;
  OK(hpart_migration_free(&mdead));
  int64_t imports = 0;
  OK(hpart_migration_num_imports(m, &imports));
  double in[64], out[4 * 64 * 4];
  expect("freed migration (tombstone)", hpart_migration_move(last() ? malias : m, in, 64, sizeof(double), out, 1024),
         "freed");
  expect("NULL migration on one rank", hpart_migration_move(last() ? NULL : m, in, 64, sizeof(double), out, 1024),
         "m is NULL");
  expect("move: wrong record count", hpart_migration_move(m, in, last() ? 63 : 64, sizeof(double), out, 1024), NULL);
  expect("move: out too small", hpart_migration_move(m, in, 64, sizeof(double), out, last() ? 0 : 1024), "room");
  expect("move: record size 0", hpart_migration_move(m, in, 64, last() ? 0 : 8, out, 1024), "record_size");
  parts[7] = last() ? 3 : parts[7];
  hpart_migration* m2 = NULL;
  expect("migration: part id out of range", hpart_migration_create(MPI_COMM_WORLD, parts, 64, 3, NULL, NULL, &m2), NULL);
  int64_t p64[64];
  for (int i = 0; i < 64; ++i) p64[i] = i % 3;
  p64[9] = last() ? (int64_t)1 << 40 : 0;
  expect("migration_i64: part id beyond 2^31", hpart_migration_create_i64(MPI_COMM_WORLD, p64, 64, 3, NULL, NULL, &m2),
         "parts[9]");
  expect("migration_i64_f: part id beyond 2^31",
         hpart_migration_create_i64_f(MPI_Comm_c2f(MPI_COMM_WORLD), p64, 64, 3, NULL, NULL, &m2), "parts[9]");
  p64[9] = last() ? -2 : 0;
  expect("migration_i64_f: negative part id",
         hpart_migration_create_i64_f(MPI_Comm_c2f(MPI_COMM_WORLD), p64, 64, 3, NULL, NULL, &m2), "parts[9]");
  CHECK(m2 == NULL);
  expect("migration from a NULL partition", hpart_migration_from_partition(MPI_COMM_WORLD, NULL, NULL, &m2), "p is NULL");
  OK(hpart_migration_free(&m));
  OK(hpart_rebalancer_free(&rb));
  OK(hpart_points_free(&pts));
}

static void file_cases(void) {
  hpart_points* p = NULL;
  hpart_graph* g = NULL;
  expect("missing points file", hpart_read_points_text(MPI_COMM_WORLD, "/nonexistent/capi.txt", 0, &p), "nonexistent");
  expect("path NULL", hpart_read_points_text(MPI_COMM_WORLD, last() ? NULL : "x.txt", 0, &p), "path is NULL");
  expect("missing graph file", hpart_read_graph_metis(MPI_COMM_WORLD, "/nonexistent/capi.graph", &g), "nonexistent");
  expect("missing MatrixMarket file", hpart_read_graph_matrix_market(MPI_COMM_WORLD, "/nonexistent/capi.mtx", &g),
         "nonexistent");
  expect("missing Chaco file", hpart_read_graph_chaco(MPI_COMM_WORLD, "/nonexistent/capi.chaco", &g), "nonexistent");
  expect("MatrixMarket path NULL", hpart_read_graph_matrix_market(MPI_COMM_WORLD, last() ? NULL : "x.mtx", &g),
         "path is NULL");
  expect("Chaco out NULL (_f)",
         hpart_read_graph_chaco_f(MPI_Comm_c2f(MPI_COMM_WORLD), "x.chaco", last() ? NULL : &g), "out is NULL");
  char mtx[64];
  snprintf(mtx, sizeof mtx, "capi_bad_np%d.mtx", test_size());
  if (test_rank() == 0) {
    FILE* f = fopen(mtx, "w");
    CHECK(f != NULL);
    fprintf(f, "%%%%MatrixMarket matrix coordinate pattern general\n3 4 1\n1 2\n"); /* not square */
    fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  expect("non-square MatrixMarket matrix", hpart_read_graph_matrix_market(MPI_COMM_WORLD, mtx, &g), NULL);
  CHECK(g == NULL);
  MPI_Barrier(MPI_COMM_WORLD);
  if (test_rank() == 0) remove(mtx);

  /* HDF5 partition files. */
  hpart_points* pts = make_points();
  hpart_point_options o;
  OK(hpart_point_options_init(&o));
  o.parts = 3;
  hpart_partition* part = NULL;
  OK(hpart_partition_points(MPI_COMM_WORLD, pts, &o, &part));
  char h5[64];
  snprintf(h5, sizeof h5, "capi_bad_np%d.h5", test_size());
  expect("write_partition_h5: p NULL", hpart_write_partition_h5(MPI_COMM_WORLD, h5, last() ? NULL : part, NULL, NULL),
         "p is NULL");
  expect("write_partition_h5: points of another kind",
         hpart_write_partition_h5(MPI_COMM_WORLD, h5, part, NULL, last() ? (const hpart_points*)part : NULL),
         "not an hpart_points");
  expect("write_partition_h5: points on some ranks only",
         hpart_write_partition_h5(MPI_COMM_WORLD, h5, part, NULL, last() ? NULL : pts), "points");
  expect("write_partition_h5_f: path NULL",
         hpart_write_partition_h5_f(MPI_Comm_c2f(MPI_COMM_WORLD), last() ? NULL : h5, part, NULL, NULL), "path is NULL");
  int32_t got[64];
  int64_t count = 0;
  expect("read_parts_h5: missing file", hpart_read_parts_h5(MPI_COMM_WORLD, "/nonexistent/capi.h5", NULL, got, 64, &count),
         "nonexistent");
  expect("read_parts_h5: negative capacity", hpart_read_parts_h5(MPI_COMM_WORLD, h5, NULL, got, last() ? -1 : 64, &count),
         "parts");
  expect("read_parts_h5_f: n NULL",
         hpart_read_parts_h5_f(MPI_Comm_c2f(MPI_COMM_WORLD), h5, NULL, got, 64, last() ? NULL : &count), "n is NULL");
  OK(hpart_partition_free(&part));
  OK(hpart_points_free(&pts));

  hpart_map* m = NULL;
  expect("missing map file (local, every rank)", hpart_map_load("/nonexistent/capi.map", &m), NULL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  point_cases();
  graph_cases();
  handle_cases();
  file_cases();
  CHECK(strcmp(hpart_status_string(HPART_ERR_IO), "HPART_ERR_IO") == 0);
  if (test_rank() == 0) printf("capi bad-input cases passed\n");
  MPI_Finalize();
  return 0;
}
