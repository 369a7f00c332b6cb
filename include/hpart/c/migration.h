/* hpart's C API, one part: migration plans. include/hpart/hpart.h includes
 * every part, in order, and states the conventions; this part is self-contained (it includes
 * the parts it needs), so it may also be included alone. */
#ifndef HPART_C_MIGRATION_H
#define HPART_C_MIGRATION_H

#include "hpart/c/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Migration (collective over the communicator it was created on) ------------------------ */

/* A plan sending local object i to the rank that owns parts[i] (n local objects): owner_of_part
 * (num_parts ranks) or, when NULL, contiguous blocks p * R / num_parts. ids (n values, or NULL)
 * are checked unique and travel along. The _i64 form narrows its part ids into the handle. */
hpart_status hpart_migration_create(MPI_Comm comm, const int32_t* parts, int64_t n, int num_parts,
                                    const int32_t* owner_of_part, const int64_t* ids, hpart_migration** out);
hpart_status hpart_migration_create_i64(MPI_Comm comm, const int64_t* parts, int64_t n, int num_parts,
                                        const int32_t* owner_of_part, const int64_t* ids,
                                        hpart_migration** out);
hpart_status hpart_migration_create_f(MPI_Fint comm, const int32_t* parts, int64_t n, int num_parts,
                                      const int32_t* owner_of_part, const int64_t* ids, hpart_migration** out);
hpart_status hpart_migration_create_i64_f(MPI_Fint comm, const int64_t* parts, int64_t n, int num_parts,
                                          const int32_t* owner_of_part, const int64_t* ids, hpart_migration** out);
/* The plan of a partition of the local objects (its parts and hpart_partition_owners). */
hpart_status hpart_migration_from_partition(MPI_Comm comm, const hpart_partition* p, const int64_t* ids,
                                            hpart_migration** out);
hpart_status hpart_migration_from_partition_f(MPI_Fint comm, const hpart_partition* p, const int64_t* ids,
                                              hpart_migration** out);
/* Local: counts, and the export and import lists. */
hpart_status hpart_migration_num_imports(const hpart_migration* m, int64_t* n);
hpart_status hpart_migration_num_exports(const hpart_migration* m, int64_t* n);
/* Records sent to (received from) each rank, self included: R values, borrowed. Imports
 * arrive grouped by source rank, in that rank's local order. */
hpart_status hpart_migration_send_counts(const hpart_migration* m, const int** counts);
hpart_status hpart_migration_recv_counts(const hpart_migration* m, const int** counts);
/* The destination rank of each local object (n values, borrowed): the export list. */
hpart_status hpart_migration_destinations(const hpart_migration* m, const int32_t** ranks);
/* The ids of the arriving objects, in arrival order (NULL when created without ids). */
hpart_status hpart_migration_imported_ids(const hpart_migration* m, const int64_t** ids);
/* Collective: moves n records of record_size bytes (n = the plan's local objects) into `out`,
 * which has room for out_capacity records (>= num_imports). */
hpart_status hpart_migration_move(const hpart_migration* m, const void* in, int64_t n, size_t record_size,
                                  void* out, int64_t out_capacity);
hpart_status hpart_migration_free(hpart_migration** m);

#ifdef __cplusplus
}
#endif

#endif /* HPART_C_MIGRATION_H */
