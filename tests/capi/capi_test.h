/* Helpers of the C API tests (C99): checks that abort the whole job on failure (so a failing
 * rank never leaves the others waiting), and the agreement check of statuses and messages. */
#ifndef HPART_CAPI_TEST_H
#define HPART_CAPI_TEST_H

#include <hpart/hpart.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                                               \
  do {                                                                                            \
    if (!(cond)) {                                                                                \
      fprintf(stderr, "%s:%d: check failed: %s (last error: %s)\n", __FILE__, __LINE__, #cond,    \
              hpart_last_error());                                                                \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                               \
    }                                                                                             \
  } while (0)

#define OK(call) CHECK((call) == HPART_OK)

static inline int test_rank(void) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

static inline int test_size(void) {
  int s;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

static inline long long sum_ll(long long v) {
  long long s = 0;
  MPI_Allreduce(&v, &s, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

static inline double sum_d(double v) {
  double s = 0;
  MPI_Allreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

/* A deterministic coordinate in [0, 1) of global object i, axis d. */
static inline double test_coord(int64_t i, int d) {
  uint64_t x = (uint64_t)i * 6364136223846793005ULL + (uint64_t)(d + 1) * 1442695040888963407ULL;
  x ^= x >> 29;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 32;
  return (double)(x >> 11) / 9007199254740992.0;
}

/* This rank's block [*first, *first + *n) of N objects, uneven on purpose (rank r gets a share
 * proportional to r + 1). */
static inline void test_block(int64_t N, int64_t* first, int64_t* n) {
  const int r = test_rank(), R = test_size();
  const int64_t total = (int64_t)R * (R + 1) / 2;
  const int64_t before = (int64_t)r * (r + 1) / 2;
  *first = N * before / total;
  *n = N * (before + r + 1) / total - *first;
}

/* FNV-1a of the status and message. */
static inline uint64_t status_hash(hpart_status s, const char* msg) {
  uint64_t h = 1469598103934665603ULL ^ (uint64_t)s;
  for (const char* c = msg; *c; ++c) h = (h ^ (unsigned char)*c) * 1099511628211ULL;
  return h;
}

/* Every rank got the same failing status and message (compared by hash). */
static inline void check_same_failure(const char* name, hpart_status s) {
  const char* msg = hpart_last_error();
  const uint64_t h = status_hash(s, msg);
  uint64_t lo = 0, hi = 0;
  int failed = s != HPART_OK, all_failed = 0;
  MPI_Allreduce(&h, &lo, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&h, &hi, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&failed, &all_failed, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all_failed || lo != hi) {
    fprintf(stderr, "rank %d: case %s: status %s (%d), message '%s': %s\n", test_rank(), name,
            hpart_status_string(s), (int)s, msg, !all_failed ? "not failing on every rank" : "differs across ranks");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (test_rank() == 0) printf("  %-40s %s: %s\n", name, hpart_status_string(s), msg);
}

#endif
