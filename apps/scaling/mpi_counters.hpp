#pragma once
// MPI traffic counters of the scaling regression suite (issue 24): a PMPI layer
// (mpi_counters_pmpi.cpp) counts the sends and collectives every MPI call of this process makes,
// hpart's own included, and snapshot() reads them.
//
// Why a PMPI layer and not Open MPI's monitoring component: Debian 12's Open MPI 4.1 does ship it
// (ompi_info: pml, coll and osc "monitoring"), but it exists in Open MPI only, while the suite
// also runs on clusters with MPICH, Cray MPICH or Intel MPI, where PMPI is the one standard hook;
// it counts the messages of the collective algorithm the library picks (a tree, a ring, a
// recursive doubling), which differ between implementations, versions and tuning, while the
// figures here come from each call's arguments, so they are deterministic and comparable between
// machines; and snapshot()/difference() give the counts of any window of one run (one rebalance,
// one step), where the component reports per process at the end or through MPI_T sessions.
//
// What is counted (per rank, since the process started, with counting on):
// - messages / p2p_bytes: each point-to-point send this rank starts to another rank (MPI_Send,
//   Isend, Ssend, Issend, Bsend, Ibsend, Rsend, Irsend, the send half of Sendrecv and
//   Sendrecv_replace, and each MPI_Start/Startall of a persistent send made by Send_init,
//   Ssend_init, Bsend_init or Rsend_init) and each one-sided MPI_Put, Get and Accumulate (the
//   origin is charged with the data moved, either way). Sends to itself and to MPI_PROC_NULL are
//   not traffic between ranks and are left out. Bytes: count * MPI_Type_size.
// - collectives / by_collective: each collective call, blocking or nonblocking, under its MPI name
//   without the prefix ("Allreduce", "Iallreduce", "Neighbor_alltoall"); calls on one rank count.
// - collective_bytes: the logical bytes this rank contributes to other ranks, from the arguments
//   (P ranks in the communicator, s the type size; intracommunicators):
//     Barrier, Ibarrier                0
//     Bcast                            count*s on every rank but the one before the root (a chain:
//                                      the bandwidth-optimal share; not the naive root*(P-1))
//     Reduce                           non-root: count*s; root 0
//     Allreduce                        count*s (each rank contributes its vector once)
//     Reduce_scatter(_block)           (sum of the counts - its own block)*s
//     Scan, Exscan                     count*s on ranks < P-1; the last rank 0
//     Gather(v)                        non-root: sendcount*s; root 0 (its own block stays)
//     Scatter(v)                       root: the counts of the other ranks * s; others 0
//     Allgather(v)                     sendcount*s*(P-1) (in place: its own block of the recv side)
//     Alltoall                         sendcount*s*(P-1) (in place: recvcount of the recv type)
//     Alltoallv, Alltoallw             sum over destinations other than itself of sendcounts*s
//     Neighbor_allgather(v)            sendcount*s per out-neighbour
//     Neighbor_alltoall(v)             the counts of its out-neighbours * s
//   and the same for the nonblocking forms, counted when they start. MPI_IN_PLACE takes the
//   receive-side count and type where the send side is not given.
// MPI_File_* is not counted: I/O is not traffic between ranks. (An MPI library may implement I/O
// with MPI calls that land here: Open MPI's ROMIO component, its choice on Lustre, calls
// MPI_Ialltoall, Put and Get; switch counting off around I/O to keep it out.) Not wrapped
// either (hpart calls none of them): MPI_Ineighbor_*, Neighbor_alltoallw, Rput, Rget,
// Raccumulate, Get_accumulate and the MPI-4 persistent collectives. Ranks are compared within
// intracommunicators only.
#include <map>
#include <string>

namespace hpart_scaling {

struct MpiCounts {
  long long messages = 0;
  long long p2p_bytes = 0;
  long long collectives = 0;
  long long collective_bytes = 0;
  std::map<std::string, long long> by_collective;  // "Allreduce" -> calls
  long long bytes() const { return p2p_bytes + collective_bytes; }
};

// The counts of this process since it started.
MpiCounts snapshot();

// later - earlier, field by field; by_collective keeps the names whose count changed.
MpiCounts difference(const MpiCounts& later, const MpiCounts& earlier);

// Counting on (the default) or off for every thread of the process, so the measuring code's own
// MPI calls (reductions of the counts, barriers around a timed window) stay out of the figures.
void set_counting(bool on);

}  // namespace hpart_scaling
