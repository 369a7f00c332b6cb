// hpart_mpi_counters (apps/scaling/mpi_counters.hpp): exact counts of known patterns on every
// rank, at any rank count. Each pattern runs in a window (snapshot before, difference after)
// and the whole window is compared: a missing wrapper, a miscounted byte or a stray extra call
// fails it.
#include <gtest/gtest.h>
#include <mpi.h>

#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "mpi_counters.hpp"

extern "C" void scaling_shared_library_allreduce(MPI_Comm comm);  // shared_library_calls.cpp

namespace {
using hpart_scaling::MpiCounts;

struct World {
  int rank = 0, size = 1;
  World() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
  int next() const { return (rank + 1) % size; }
  int prev() const { return (rank + size - 1) % size; }
  bool alone() const { return size == 1; }
};

template <class F>
MpiCounts window(F run) {
  const MpiCounts before = hpart_scaling::snapshot();
  run();
  return hpart_scaling::difference(hpart_scaling::snapshot(), before);
}

void expect_p2p(const MpiCounts& got, long long messages, long long bytes) {
  EXPECT_EQ(got.messages, messages);
  EXPECT_EQ(got.p2p_bytes, bytes);
  EXPECT_EQ(got.collectives, 0);
  EXPECT_EQ(got.collective_bytes, 0);
  EXPECT_TRUE(got.by_collective.empty());
}

void expect_collectives(const MpiCounts& got, const std::map<std::string, long long>& calls, long long bytes) {
  long long total = 0;
  for (const auto& [name, n] : calls) total += n;
  EXPECT_EQ(got.messages, 0);
  EXPECT_EQ(got.p2p_bytes, 0);
  EXPECT_EQ(got.collectives, total);
  EXPECT_EQ(got.collective_bytes, bytes);
  EXPECT_EQ(got.by_collective, calls);
  EXPECT_EQ(got.bytes(), bytes);
}

TEST(MpiCounters, RingOfIsendIrecv) {
  const World w;
  std::vector<double> out(100, 1.0), in(100);
  const MpiCounts c = window([&] {
    MPI_Request req[2];
    MPI_Irecv(in.data(), 100, MPI_DOUBLE, w.prev(), 7, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(out.data(), 100, MPI_DOUBLE, w.next(), 7, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  });
  // At np 1 the ring sends to itself: no traffic between ranks.
  expect_p2p(c, w.alone() ? 0 : 1, w.alone() ? 0 : 800);
  EXPECT_EQ(in[99], 1.0);
}

TEST(MpiCounters, SendrecvAndBlockingSends) {
  const World w;
  int out[10] = {}, in[10] = {};
  const MpiCounts c = window([&] {
    MPI_Sendrecv(out, 10, MPI_INT, w.next(), 1, in, 10, MPI_INT, w.prev(), 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv_replace(in, 3, MPI_INT, w.next(), 2, w.prev(), 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(out, 10, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD);  // nowhere: not counted
    // Even ranks send 2 shorts with MPI_Ssend to the next odd one.
    if (w.rank % 2 == 0 && w.rank + 1 < w.size) MPI_Ssend(out, 2, MPI_SHORT, w.rank + 1, 4, MPI_COMM_WORLD);
    if (w.rank % 2 == 1) MPI_Recv(in, 2, MPI_SHORT, w.rank - 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  });
  const bool ssends = w.rank % 2 == 0 && w.rank + 1 < w.size;
  expect_p2p(c, (w.alone() ? 0 : 2) + (ssends ? 1 : 0), (w.alone() ? 0 : 52) + (ssends ? 4 : 0));
}

TEST(MpiCounters, PersistentSendsCountEachStart) {
  const World w;
  std::vector<double> out(5, 2.0), in(5);
  const MpiCounts c = window([&] {
    MPI_Request req[2];
    MPI_Recv_init(in.data(), 5, MPI_DOUBLE, w.prev(), 5, MPI_COMM_WORLD, &req[0]);
    MPI_Send_init(out.data(), 5, MPI_DOUBLE, w.next(), 5, MPI_COMM_WORLD, &req[1]);
    for (int round = 0; round < 2; ++round) {
      MPI_Startall(2, req);
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
    // A freed send is forgotten: a send to itself (no traffic), which takes the freed request's
    // place in Open MPI's free list, is not counted under the old request's bytes.
    MPI_Request self[2];
    MPI_Irecv(in.data(), 5, MPI_DOUBLE, w.rank, 6, MPI_COMM_WORLD, &self[0]);
    MPI_Send_init(out.data(), 5, MPI_DOUBLE, w.rank, 6, MPI_COMM_WORLD, &self[1]);
    MPI_Start(&self[1]);
    MPI_Waitall(2, self, MPI_STATUSES_IGNORE);
    MPI_Request_free(&self[1]);
  });
  expect_p2p(c, w.alone() ? 0 : 2, w.alone() ? 0 : 2 * 40);
}

TEST(MpiCounters, OneSidedPut) {
  const World w;
  std::vector<int> origin(4, 9);
  // MPI_Win_allocate, not Win_create: Debian's Open MPI 4.1 has no one-sided component that
  // takes user memory on one rank without a network (MPI_ERR_WIN at np 1).
  int* target = nullptr;
  MPI_Win win;
  MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &target, &win);
  const MpiCounts c = window([&] {
    MPI_Win_fence(0, win);
    MPI_Put(origin.data(), 4, MPI_INT, w.next(), 0, 4, MPI_INT, win);
    MPI_Win_fence(0, win);
  });
  const int arrived = target[3];
  MPI_Win_free(&win);
  expect_p2p(c, w.alone() ? 0 : 1, w.alone() ? 0 : 16);
  EXPECT_EQ(arrived, 9);
}

TEST(MpiCounters, Reductions) {
  const World w;
  const int P = w.size, last = w.size - 1;
  int a[7] = {1, 2, 3, 4, 5, 6, 7}, b[7] = {};
  double d[3] = {}, e[3] = {};
  const MpiCounts c = window([&] {
    MPI_Allreduce(a, b, 7, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, b, 7, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Request req;
    MPI_Iallreduce(d, e, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Reduce(w.rank == last ? MPI_IN_PLACE : static_cast<void*>(a), b, 2, MPI_INT, MPI_SUM, last, MPI_COMM_WORLD);
    MPI_Exscan(a, b, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Scan(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    std::vector<int> counts(P), in(static_cast<std::size_t>(P * (P + 1) / 2));
    std::vector<int> mine(static_cast<std::size_t>(w.rank + 1));
    std::iota(counts.begin(), counts.end(), 1);  // rank i gets i + 1 ints
    MPI_Reduce_scatter(in.data(), mine.data(), counts.data(), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    std::vector<double> blocks(static_cast<std::size_t>(2 * P));
    MPI_Reduce_scatter_block(MPI_IN_PLACE, blocks.data(), 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  });
  const long long not_last = w.rank < last ? 1 : 0;
  const long long bytes = 28 + 28 + 24 + (w.rank == last ? 0 : 8) + not_last * 8 + not_last * 4 +
                          4LL * (P * (P + 1) / 2 - (w.rank + 1)) + 16LL * (P - 1);
  expect_collectives(c,
                     {{"Allreduce", 2}, {"Iallreduce", 1}, {"Reduce", 1}, {"Exscan", 1}, {"Scan", 1},
                      {"Reduce_scatter", 1}, {"Reduce_scatter_block", 1}, {"Barrier", 1}},
                     bytes);
  EXPECT_EQ(b[0], w.rank + 1);  // the Scan of the 1s, last into b
}

TEST(MpiCounters, RootedCollectives) {
  const World w;
  const int P = w.size;
  const int bcast_root = P > 1 ? 1 : 0;
  long long five[5] = {};
  std::vector<float> gathered(static_cast<std::size_t>(P * (P + 1) / 2)), mine(static_cast<std::size_t>(w.rank + 1));
  std::vector<long long> pairs(static_cast<std::size_t>(2 * P));
  std::vector<int> counts(P), displs(P);
  std::iota(counts.begin(), counts.end(), 1);  // rank i: i + 1 floats
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  const MpiCounts c = window([&] {
    MPI_Bcast(five, 5, MPI_LONG_LONG, bcast_root, MPI_COMM_WORLD);
    MPI_Gatherv(w.rank == 0 ? MPI_IN_PLACE : static_cast<void*>(mine.data()), w.rank + 1, MPI_FLOAT, gathered.data(),
                counts.data(), displs.data(), MPI_FLOAT, 0, MPI_COMM_WORLD);
    MPI_Scatterv(gathered.data(), counts.data(), displs.data(), MPI_FLOAT, mine.data(), w.rank + 1, MPI_FLOAT, 0,
                 MPI_COMM_WORLD);
    MPI_Gather(five, 2, MPI_LONG_LONG, pairs.data(), 2, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  });
  const long long bytes = (w.rank == (bcast_root + P - 1) % P ? 0 : 40LL) + (w.rank == 0 ? 0 : 4LL * (w.rank + 1)) +
                          (w.rank == 0 ? 4LL * (P * (P + 1) / 2 - 1) : 0) + (w.rank == 0 ? 0 : 16);
  expect_collectives(c, {{"Bcast", 1}, {"Gatherv", 1}, {"Scatterv", 1}, {"Gather", 1}}, bytes);
}

TEST(MpiCounters, AllToAll) {
  const World w;
  const int P = w.size;
  std::vector<double> three(3, 1.0), all(static_cast<std::size_t>(3 * P));
  // Alltoallv: rank r sends r + i + 1 ints to rank i (and so receives i + r + 1 from it).
  std::vector<int> sendcounts(P), recvcounts(P), sdispls(P), rdispls(P);
  for (int i = 0; i < P; ++i) sendcounts[i] = recvcounts[i] = w.rank + i + 1;
  std::exclusive_scan(sendcounts.begin(), sendcounts.end(), sdispls.begin(), 0);
  rdispls = sdispls;
  const int total = std::accumulate(sendcounts.begin(), sendcounts.end(), 0);
  std::vector<int> sendv(static_cast<std::size_t>(total)), recvv(static_cast<std::size_t>(total));
  std::vector<double> each(static_cast<std::size_t>(P), 1.0), from_each(static_cast<std::size_t>(P));
  std::vector<int> two_each(static_cast<std::size_t>(2 * P)), two_from_each(static_cast<std::size_t>(2 * P));
  std::vector<int> ones(P, 1), at(P);
  std::iota(at.begin(), at.end(), 0);
  const MpiCounts c = window([&] {
    MPI_Allgather(three.data(), 3, MPI_DOUBLE, all.data(), 3, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all.data(), 3, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all.data(), ones.data(), at.data(), MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Alltoall(each.data(), 1, MPI_DOUBLE, from_each.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, from_each.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Alltoallv(sendv.data(), sendcounts.data(), sdispls.data(), MPI_INT, recvv.data(), recvcounts.data(),
                  rdispls.data(), MPI_INT, MPI_COMM_WORLD);
    MPI_Alltoallv(MPI_IN_PLACE, nullptr, nullptr, MPI_DATATYPE_NULL, recvv.data(), recvcounts.data(), rdispls.data(),
                  MPI_INT, MPI_COMM_WORLD);
    MPI_Request req;
    MPI_Ialltoall(two_each.data(), 2, MPI_INT, two_from_each.data(), 2, MPI_INT, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  });
  const long long others = std::accumulate(sendcounts.begin(), sendcounts.end(), 0LL) - sendcounts[w.rank];
  // Allgather twice (3 doubles), Allgatherv in place (1 double), Alltoall twice (1 double),
  // Ialltoall (2 ints): a block to each other rank; Alltoallv twice: the counts to the others.
  const long long bytes = (2 * 24LL + 8 + 2 * 8 + 8) * (P - 1) + 2 * 4 * others;
  expect_collectives(c, {{"Allgather", 2}, {"Allgatherv", 1}, {"Alltoall", 2}, {"Alltoallv", 2}, {"Ialltoall", 1}},
                     bytes);
}

TEST(MpiCounters, NeighbourAlltoallOnARing) {
  const World w;
  const int nbrs[2] = {w.next(), w.prev()};
  MPI_Comm ring;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, nbrs, MPI_UNWEIGHTED, 2, nbrs, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                 &ring);
  int out[6] = {}, in[6] = {};
  const MpiCounts c = window([&] { MPI_Neighbor_alltoall(out, 3, MPI_INT, in, 3, MPI_INT, ring); });
  MPI_Comm_free(&ring);
  expect_collectives(c, {{"Neighbor_alltoall", 1}}, w.alone() ? 0 : 24);  // two neighbours, unless itself
}

TEST(MpiCounters, SharedLibraryCallsAreCounted) {
  const MpiCounts c = window([] { scaling_shared_library_allreduce(MPI_COMM_WORLD); });
  expect_collectives(c, {{"Allreduce", 1}}, 28);
}

TEST(MpiCounters, CountingOffLeavesCountsUnchanged) {
  const World w;
  int x[4] = {}, y[4] = {};
  const MpiCounts c = window([&] {
    hpart_scaling::set_counting(false);
    MPI_Allreduce(x, y, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Sendrecv(x, 4, MPI_INT, w.next(), 9, y, 4, MPI_INT, w.prev(), 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    hpart_scaling::set_counting(true);
  });
  expect_p2p(c, 0, 0);
  const MpiCounts on = window([&] { MPI_Allreduce(x, y, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD); });
  expect_collectives(on, {{"Allreduce", 1}}, 16);
}

TEST(MpiCounters, DifferenceIsFieldByField) {
  MpiCounts later, earlier;
  later.messages = 5;
  later.p2p_bytes = 100;
  later.collectives = 4;
  later.collective_bytes = 64;
  later.by_collective = {{"Allreduce", 3}, {"Bcast", 1}};
  earlier.messages = 2;
  earlier.p2p_bytes = 40;
  earlier.collectives = 3;
  earlier.collective_bytes = 60;
  earlier.by_collective = {{"Allreduce", 3}};
  const MpiCounts d = hpart_scaling::difference(later, earlier);
  EXPECT_EQ(d.messages, 3);
  EXPECT_EQ(d.p2p_bytes, 60);
  EXPECT_EQ(d.collectives, 1);
  EXPECT_EQ(d.collective_bytes, 4);
  EXPECT_EQ(d.bytes(), 64);
  EXPECT_EQ(d.by_collective, (std::map<std::string, long long>{{"Bcast", 1}}));  // unchanged names dropped
}

}  // namespace
