// The PMPI wrappers behind mpi_counters.hpp: each MPI_X below counts, then calls PMPI_X. They
// replace Open MPI's (weak) MPI_X in every program that links hpart_mpi_counters, and the
// program exports them (CMakeLists.txt), so the calls libhpart.so makes land here too. Inside,
// only PMPI_ functions are called, so a wrapper never counts itself. The prototypes are those of
// <mpi.h> (MPI-3, const send buffers).
#include <mpi.h>

#include <map>
#include <mutex>
#include <vector>

#include "mpi_counters_record.hpp"

namespace {
using hpart_scaling::detail::record_collective;
using hpart_scaling::detail::record_message;

int comm_rank(MPI_Comm comm) {
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  return rank;
}
int comm_size(MPI_Comm comm) {
  int size = 0;
  PMPI_Comm_size(comm, &size);
  return size;
}
long long type_bytes(long long count, MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  return count * size;
}
bool in_place(const void* sendbuf) { return sendbuf == MPI_IN_PLACE; }

// Point to point: sends to itself and to MPI_PROC_NULL are no traffic between ranks.
bool to_other(int dest, MPI_Comm comm) { return dest != MPI_PROC_NULL && dest != comm_rank(comm); }
void send(int count, MPI_Datatype type, int dest, MPI_Comm comm) {
  if (to_other(dest, comm)) record_message(type_bytes(count, type));
}

// Persistent sends: request -> bytes of one start, from MPI_X_init until MPI_Request_free.
std::mutex persistent_mutex;
std::map<MPI_Request, long long> persistent_sends;
int remember(int rc, int count, MPI_Datatype type, int dest, MPI_Comm comm, const MPI_Request* request) {
  if (rc == MPI_SUCCESS && to_other(dest, comm)) {
    const std::lock_guard lock(persistent_mutex);
    persistent_sends[*request] = type_bytes(count, type);
  }
  return rc;
}
void started(MPI_Request request) {
  const std::lock_guard lock(persistent_mutex);
  if (const auto it = persistent_sends.find(request); it != persistent_sends.end()) record_message(it->second);
}

// One-sided: the origin is charged with the data moved, unless the target is itself.
void one_sided(int count, MPI_Datatype type, int target, MPI_Win win) {
  if (target == MPI_PROC_NULL) return;
  MPI_Group group;
  PMPI_Win_get_group(win, &group);
  int me = 0;
  PMPI_Group_rank(group, &me);
  PMPI_Group_free(&group);
  if (target != me) record_message(type_bytes(count, type));
}

// Collectives: the logical bytes this rank sends to the others (the table in mpi_counters.hpp).
// Arguments a rank may leave undefined (the send type at a Scatter's non-roots, the send side
// in place) are read only where the standard makes them significant.
long long sum_but(const int counts[], int n, int skip) {
  long long sum = 0;
  for (int i = 0; i < n; ++i) sum += i == skip ? 0 : counts[i];
  return sum;
}
// The root's block to every other rank (Scatter's send side, Bcast's naive linear form).
long long root_to_others_bytes(int count, MPI_Datatype type, int root, MPI_Comm comm) {
  return comm_rank(comm) == root ? type_bytes(count, type) * (comm_size(comm) - 1) : 0;
}
// Bcast: each rank forwards the buffer once along the chain root, root + 1, ..., the last rank
// before the root sending nothing. This is the bandwidth-optimal share of any broadcast (the P - 1
// copies spread over the ranks: max count, mean count (P - 1) / P); charging the root all P - 1
// copies would make every broadcast read as an O(P) term, which no MPI library's tree or
// pipeline pays.
long long bcast_bytes(int count, MPI_Datatype type, int root, MPI_Comm comm) {
  const int P = comm_size(comm);
  return comm_rank(comm) == (root + P - 1) % P ? 0 : type_bytes(count, type);
}
long long reduce_bytes(int count, MPI_Datatype type, int root, MPI_Comm comm) {
  return comm_rank(comm) == root ? 0 : type_bytes(count, type);
}
long long reduce_scatter_bytes(const int recvcounts[], MPI_Datatype type, MPI_Comm comm) {
  return type_bytes(sum_but(recvcounts, comm_size(comm), comm_rank(comm)), type);
}
long long scan_bytes(int count, MPI_Datatype type, MPI_Comm comm) {
  return comm_rank(comm) < comm_size(comm) - 1 ? type_bytes(count, type) : 0;
}
long long gather_bytes(int sendcount, MPI_Datatype sendtype, int root, MPI_Comm comm) {
  return comm_rank(comm) == root ? 0 : type_bytes(sendcount, sendtype);
}
long long scatter_bytes(int sendcount, MPI_Datatype sendtype, int root, MPI_Comm comm) {
  return root_to_others_bytes(sendcount, sendtype, root, comm);
}
long long scatterv_bytes(const int sendcounts[], MPI_Datatype sendtype, int root, MPI_Comm comm) {
  return comm_rank(comm) == root ? type_bytes(sum_but(sendcounts, comm_size(comm), root), sendtype) : 0;
}
// Allgather(v) and Alltoall: one block to each other rank; in place, the block is on the recv side.
long long to_each_other(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int own_recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm) {
  const long long block = in_place(sendbuf) ? type_bytes(own_recvcount, recvtype) : type_bytes(sendcount, sendtype);
  return block * (comm_size(comm) - 1);
}
long long allgatherv_bytes(const void* sendbuf, int sendcount, MPI_Datatype sendtype, const int recvcounts[],
                           MPI_Datatype recvtype, MPI_Comm comm) {
  const int own = in_place(sendbuf) ? recvcounts[comm_rank(comm)] : 0;
  return to_each_other(sendbuf, sendcount, sendtype, own, recvtype, comm);
}
long long alltoallv_bytes(const void* sendbuf, const int sendcounts[], MPI_Datatype sendtype, const int recvcounts[],
                          MPI_Datatype recvtype, MPI_Comm comm) {
  const bool ip = in_place(sendbuf);
  return type_bytes(sum_but(ip ? recvcounts : sendcounts, comm_size(comm), comm_rank(comm)), ip ? recvtype : sendtype);
}
long long alltoallw_bytes(const void* sendbuf, const int sendcounts[], const MPI_Datatype sendtypes[],
                          const int recvcounts[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  const bool ip = in_place(sendbuf);
  const int me = comm_rank(comm);
  long long sum = 0;
  for (int i = 0; i < comm_size(comm); ++i) {
    if (i != me) sum += ip ? type_bytes(recvcounts[i], recvtypes[i]) : type_bytes(sendcounts[i], sendtypes[i]);
  }
  return sum;
}
// Neighbourhood collectives: the out-neighbours in the standard's order (a Cartesian
// communicator: for each dimension, the negative then the positive one); self and MPI_PROC_NULL
// (a non-periodic border) receive no traffic.
std::vector<int> out_neighbours(MPI_Comm comm) {
  int topo = MPI_UNDEFINED;
  PMPI_Topo_test(comm, &topo);
  std::vector<int> out;
  if (topo == MPI_CART) {
    int ndims = 0;
    PMPI_Cartdim_get(comm, &ndims);
    for (int d = 0; d < ndims; ++d) {
      int minus = MPI_PROC_NULL, plus = MPI_PROC_NULL;
      PMPI_Cart_shift(comm, d, 1, &minus, &plus);
      out.insert(out.end(), {minus, plus});
    }
  } else if (topo == MPI_GRAPH) {
    int n = 0;
    PMPI_Graph_neighbors_count(comm, comm_rank(comm), &n);
    out.resize(static_cast<std::size_t>(n));
    PMPI_Graph_neighbors(comm, comm_rank(comm), n, out.data());
  } else if (topo == MPI_DIST_GRAPH) {
    int in = 0, n = 0, weighted = 0;
    PMPI_Dist_graph_neighbors_count(comm, &in, &n, &weighted);
    std::vector<int> sources(static_cast<std::size_t>(in) + 1), weights(static_cast<std::size_t>(in + n) + 1);
    out.resize(static_cast<std::size_t>(n));
    PMPI_Dist_graph_neighbors(comm, in, sources.data(), weights.data(), n, out.data(), weights.data() + in);
  }
  return out;
}
// counts == nullptr: the same count to each.
long long neighbour_bytes(int count, const int counts[], MPI_Datatype type, MPI_Comm comm) {
  const std::vector<int> out = out_neighbours(comm);
  const int me = comm_rank(comm);
  long long sum = 0;
  for (std::size_t j = 0; j < out.size(); ++j) {
    if (out[j] != MPI_PROC_NULL && out[j] != me) sum += counts ? counts[j] : count;
  }
  return type_bytes(sum, type);
}
}  // namespace

extern "C" {

// ---- Point to point
int MPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  send(count, datatype, dest, comm);
  return PMPI_Send(buf, count, datatype, dest, tag, comm);
}
int MPI_Ssend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  send(count, datatype, dest, comm);
  return PMPI_Ssend(buf, count, datatype, dest, tag, comm);
}
int MPI_Bsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  send(count, datatype, dest, comm);
  return PMPI_Bsend(buf, count, datatype, dest, tag, comm);
}
int MPI_Rsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  send(count, datatype, dest, comm);
  return PMPI_Rsend(buf, count, datatype, dest, tag, comm);
}
int MPI_Isend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  send(count, datatype, dest, comm);
  return PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
}
int MPI_Issend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  send(count, datatype, dest, comm);
  return PMPI_Issend(buf, count, datatype, dest, tag, comm, request);
}
int MPI_Ibsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  send(count, datatype, dest, comm);
  return PMPI_Ibsend(buf, count, datatype, dest, tag, comm, request);
}
int MPI_Irsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  send(count, datatype, dest, comm);
  return PMPI_Irsend(buf, count, datatype, dest, tag, comm, request);
}
int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  send(sendcount, sendtype, dest, comm);
  return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                       comm, status);
}
int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status* status) {
  send(count, datatype, dest, comm);
  return PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, status);
}

// ---- Persistent sends: counted at each start
int MPI_Send_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  return remember(PMPI_Send_init(buf, count, datatype, dest, tag, comm, request), count, datatype, dest, comm,
                  request);
}
int MPI_Ssend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  return remember(PMPI_Ssend_init(buf, count, datatype, dest, tag, comm, request), count, datatype, dest, comm,
                  request);
}
int MPI_Bsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  return remember(PMPI_Bsend_init(buf, count, datatype, dest, tag, comm, request), count, datatype, dest, comm,
                  request);
}
int MPI_Rsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  return remember(PMPI_Rsend_init(buf, count, datatype, dest, tag, comm, request), count, datatype, dest, comm,
                  request);
}
int MPI_Start(MPI_Request* request) {
  started(*request);
  return PMPI_Start(request);
}
int MPI_Startall(int count, MPI_Request array_of_requests[]) {
  for (int i = 0; i < count; ++i) started(array_of_requests[i]);
  return PMPI_Startall(count, array_of_requests);
}
int MPI_Request_free(MPI_Request* request) {
  {
    const std::lock_guard lock(persistent_mutex);
    persistent_sends.erase(*request);
  }
  return PMPI_Request_free(request);
}

// ---- One-sided
int MPI_Put(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  one_sided(origin_count, origin_datatype, target_rank, win);
  return PMPI_Put(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype,
                  win);
}
int MPI_Get(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
            int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  one_sided(origin_count, origin_datatype, target_rank, win);
  return PMPI_Get(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype,
                  win);
}
int MPI_Accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  one_sided(origin_count, origin_datatype, target_rank, win);
  return PMPI_Accumulate(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                         target_datatype, op, win);
}

// ---- Collectives
int MPI_Barrier(MPI_Comm comm) {
  record_collective("Barrier", 0);
  return PMPI_Barrier(comm);
}
int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  record_collective("Ibarrier", 0);
  return PMPI_Ibarrier(comm, request);
}
int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  record_collective("Bcast", bcast_bytes(count, datatype, root, comm));
  return PMPI_Bcast(buffer, count, datatype, root, comm);
}
int MPI_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* request) {
  record_collective("Ibcast", bcast_bytes(count, datatype, root, comm));
  return PMPI_Ibcast(buffer, count, datatype, root, comm, request);
}
int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
               MPI_Comm comm) {
  record_collective("Reduce", reduce_bytes(count, datatype, root, comm));
  return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
}
int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm, MPI_Request* request) {
  record_collective("Ireduce", reduce_bytes(count, datatype, root, comm));
  return PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request);
}
int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  record_collective("Allreduce", type_bytes(count, datatype));
  return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}
int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Request* request) {
  record_collective("Iallreduce", type_bytes(count, datatype));
  return PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request);
}
int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm) {
  record_collective("Reduce_scatter", reduce_scatter_bytes(recvcounts, datatype, comm));
  return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
}
int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm, MPI_Request* request) {
  record_collective("Ireduce_scatter", reduce_scatter_bytes(recvcounts, datatype, comm));
  return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
}
int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm) {
  record_collective("Reduce_scatter_block", type_bytes(recvcount, datatype) * (comm_size(comm) - 1));
  return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
}
int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Request* request) {
  record_collective("Ireduce_scatter_block", type_bytes(recvcount, datatype) * (comm_size(comm) - 1));
  return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
}
int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  record_collective("Scan", scan_bytes(count, datatype, comm));
  return PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm);
}
int MPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              MPI_Request* request) {
  record_collective("Iscan", scan_bytes(count, datatype, comm));
  return PMPI_Iscan(sendbuf, recvbuf, count, datatype, op, comm, request);
}
int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  record_collective("Exscan", scan_bytes(count, datatype, comm));
  return PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm);
}
int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                MPI_Request* request) {
  record_collective("Iexscan", scan_bytes(count, datatype, comm));
  return PMPI_Iexscan(sendbuf, recvbuf, count, datatype, op, comm, request);
}
int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  record_collective("Gather", gather_bytes(sendcount, sendtype, root, comm));
  return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}
int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  record_collective("Igather", gather_bytes(sendcount, sendtype, root, comm));
  return PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}
int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  record_collective("Gatherv", gather_bytes(sendcount, sendtype, root, comm));
  return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
}
int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  record_collective("Igatherv", gather_bytes(sendcount, sendtype, root, comm));
  return PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, request);
}
int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  record_collective("Scatter", scatter_bytes(sendcount, sendtype, root, comm));
  return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}
int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  record_collective("Iscatter", scatter_bytes(sendcount, sendtype, root, comm));
  return PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}
int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  record_collective("Scatterv", scatterv_bytes(sendcounts, sendtype, root, comm));
  return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
}
int MPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request* request) {
  record_collective("Iscatterv", scatterv_bytes(sendcounts, sendtype, root, comm));
  return PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}
int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  record_collective("Allgather", to_each_other(sendbuf, sendcount, sendtype, recvcount, recvtype, comm));
  return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  record_collective("Iallgather", to_each_other(sendbuf, sendcount, sendtype, recvcount, recvtype, comm));
  return PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}
int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  record_collective("Allgatherv", allgatherv_bytes(sendbuf, sendcount, sendtype, recvcounts, recvtype, comm));
  return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}
int MPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  record_collective("Iallgatherv", allgatherv_bytes(sendbuf, sendcount, sendtype, recvcounts, recvtype, comm));
  return PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request);
}
int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  record_collective("Alltoall", to_each_other(sendbuf, sendcount, sendtype, recvcount, recvtype, comm));
  return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  record_collective("Ialltoall", to_each_other(sendbuf, sendcount, sendtype, recvcount, recvtype, comm));
  return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}
int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  record_collective("Alltoallv", alltoallv_bytes(sendbuf, sendcounts, sendtype, recvcounts, recvtype, comm));
  return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}
int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Request* request) {
  record_collective("Ialltoallv", alltoallv_bytes(sendbuf, sendcounts, sendtype, recvcounts, recvtype, comm));
  return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                         request);
}
int MPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                  void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                  MPI_Comm comm) {
  record_collective("Alltoallw", alltoallw_bytes(sendbuf, sendcounts, sendtypes, recvcounts, recvtypes, comm));
  return PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
}
int MPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm, MPI_Request* request) {
  record_collective("Ialltoallw", alltoallw_bytes(sendbuf, sendcounts, sendtypes, recvcounts, recvtypes, comm));
  return PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm,
                         request);
}
int MPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm) {
  record_collective("Neighbor_allgather", neighbour_bytes(sendcount, nullptr, sendtype, comm));
  return PMPI_Neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
int MPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  record_collective("Neighbor_allgatherv", neighbour_bytes(sendcount, nullptr, sendtype, comm));
  return PMPI_Neighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}
int MPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm) {
  record_collective("Neighbor_alltoall", neighbour_bytes(sendcount, nullptr, sendtype, comm));
  return PMPI_Neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
int MPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                           void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                           MPI_Comm comm) {
  record_collective("Neighbor_alltoallv", neighbour_bytes(0, sendcounts, sendtype, comm));
  return PMPI_Neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                                 comm);
}

}  // extern "C"
