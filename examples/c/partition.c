/* hpart from C: partition a point set, move the points to the ranks that own their parts, and
 * locate points with the partition's map, without communication.
 *
 *   mpirun -np 4 ./hpart_c_example [points.txt]
 *
 * Without a file, each rank generates its share of 20000 points in the unit cube. Every hpart
 * call returns a status; on failure hpart_last_error() says why, the same on every rank. */
#include <hpart/hpart.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define TRY(call)                                                                          \
  do {                                                                                     \
    hpart_status s_ = (call);                                                              \
    if (s_ != HPART_OK) {                                                                  \
      fprintf(stderr, "%s failed: %s: %s\n", #call, hpart_status_string(s_), hpart_last_error()); \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                        \
    }                                                                                      \
  } while (0)

typedef struct {
  double x[3];
  int64_t id;
} particle;

/* A reproducible pseudo-random number in [0, 1) for object i, axis d. */
static double coordinate(int64_t i, int d) {
  uint64_t v = (uint64_t)i * 0x9E3779B97F4A7C15ULL + (uint64_t)d * 0xBF58476D1CE4E5B9ULL + 1;
  v ^= v >> 31;
  v *= 0x94D049BB133111EBULL;
  v ^= v >> 29;
  return (double)(v >> 11) / 9007199254740992.0;
}

static hpart_points* make_points(const char* path, double** own, int64_t** own_ids) {
  hpart_points* pts = NULL;
  *own = NULL;
  *own_ids = NULL;
  if (path) {
    TRY(hpart_read_points_text(MPI_COMM_WORLD, path, 3, &pts)); /* ids = line order */
    return pts;
  }
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int64_t N = 20000, first = N * rank / size, n = N * (rank + 1) / size - first;
  *own = malloc((size_t)(3 * n + 1) * sizeof(double));
  *own_ids = malloc((size_t)(n + 1) * sizeof(int64_t));
  for (int64_t i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d) (*own)[3 * i + d] = coordinate(first + i, d);
    (*own_ids)[i] = first + i;
  }
  TRY(hpart_points_create(3, n, *own, &pts)); /* a view: the arrays must outlive pts */
  TRY(hpart_points_set_ids_i64(pts, *own_ids));
  return pts;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double* coords = NULL;
  int64_t* point_ids = NULL;
  hpart_points* pts = make_points(argc > 1 ? argv[1] : NULL, &coords, &point_ids);

  /* 1. Partition into 2 parts per rank along the Hilbert curve. */
  hpart_point_options opts;
  TRY(hpart_point_options_init(&opts));
  opts.parts = 2 * size;
  hpart_partition* p = NULL;
  TRY(hpart_partition_points(MPI_COMM_WORLD, pts, &opts, &p));
  hpart_metrics m;
  TRY(hpart_metrics_init(&m));
  TRY(hpart_partition_metrics(p, &m));

  /* 2. Move each point (coordinates and id) to the rank that owns its part. */
  int64_t n = 0, arriving = 0;
  const double* xyz = NULL;
  const int64_t* ids = NULL;
  TRY(hpart_points_size(pts, &n));
  TRY(hpart_points_coords(pts, &xyz));
  TRY(hpart_points_ids(pts, &ids));
  particle* mine = malloc((size_t)(n + 1) * sizeof(particle));
  for (int64_t i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d) mine[i].x[d] = xyz[3 * i + d];
    mine[i].id = ids[i];
  }
  hpart_migration* plan = NULL;
  TRY(hpart_migration_from_partition(MPI_COMM_WORLD, p, NULL, &plan));
  TRY(hpart_migration_num_imports(plan, &arriving));
  particle* owned = malloc((size_t)(arriving + 1) * sizeof(particle));
  TRY(hpart_migration_move(plan, mine, n, sizeof(particle), owned, arriving));

  /* 3. The map locates any coordinate without communication. With its id, a point the
   * partition saw is located exactly: every point that arrived here is owned here. (Without
   * the id, hpart_map_rank_of(map, x, &rank), a point whose curve key equals a cut's may be
   * placed on the cut's other side.) */
  hpart_map* map = NULL;
  TRY(hpart_map_create_points(MPI_COMM_WORLD, pts, &opts, p, &map));
  long long misplaced = 0, total_misplaced = 0, total = 0;
  for (int64_t k = 0; k < arriving; ++k) {
    int owner = -1;
    TRY(hpart_map_rank_of_id(map, owned[k].x, owned[k].id, &owner));
    misplaced += owner != rank;
  }
  MPI_Reduce(&misplaced, &total_misplaced, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  long long here = (long long)arriving;
  MPI_Reduce(&here, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("hpart C example: %lld points, %d parts, imbalance %.2e, %lld points moved to their owners, located %s\n",
           (long long)m.objects, m.num_parts, m.imbalance, total, total_misplaced == 0 ? "ok" : "WRONG");

  TRY(hpart_map_free(&map));
  TRY(hpart_migration_free(&plan));
  TRY(hpart_partition_free(&p));
  TRY(hpart_points_free(&pts));
  free(owned), free(mine), free(coords), free(point_ids);
  MPI_Finalize();
  return total_misplaced == 0 ? 0 : 1;
}
