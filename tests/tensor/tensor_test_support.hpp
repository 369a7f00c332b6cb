#pragma once
// Helpers of the sharded-tensor tests: a deterministic global field (the same on every rank
// without communication), the meshes a communicator size allows, reading a shard's whole local
// array (halo included) back to the host, and the check that a call throws the same
// hpart::Error on every rank of a communicator.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "hpart/error.hpp"
#include "hpart/tensor/shard_tensor.hpp"
#include "test_world.hpp"

namespace hpart::testing {

namespace ht = hpart::tensor;

// A value per global cell index, distinct across cells and exactly representable in float.
inline double cell_value(std::int64_t index, std::uint64_t seed = 1) {
  std::uint64_t z = static_cast<std::uint64_t>(index) * 0x9E3779B97F4A7C15ull + seed * 0xBF58476D1CE4E5B9ull;
  z ^= z >> 31;
  z *= 0x94D049BB133111EBull;
  z ^= z >> 29;
  return static_cast<double>(z % 2001) / 8.0 - 125.0;  // multiples of 1/8 in [-125, 125]
}

template <class T>
std::vector<T> global_field(const ht::TensorShape& s, std::uint64_t seed = 1) {
  std::vector<T> g(static_cast<std::size_t>(s.volume()));
  for (std::size_t i = 0; i < g.size(); ++i) g[i] = static_cast<T>(cell_value(static_cast<std::int64_t>(i), seed));
  return g;
}

inline std::int64_t flat_index(const ht::TensorShape& s, const ht::Index5& c) {
  std::int64_t k = 0;
  for (int a = 0; a < ht::kRank; ++a) k = k * s.extent[static_cast<std::size_t>(a)] + c[static_cast<std::size_t>(a)];
  return k;
}

// The 2-D meshes (ph x pw) of `size` ranks that split both axes when possible.
inline ht::Mesh mesh2d_for(int size) {
  int ph = 1;
  for (int d = 1; d * d <= size; ++d)
    if (size % d == 0) ph = d;
  return ht::Mesh::grid2d(size / ph, ph);
}

template <class T, class M>
typename ht::ShardTensor<T, M>::host_view_type host_array(const ht::ShardTensor<T, M>& t) {
  auto h = Kokkos::create_mirror_view(t.view());
  Kokkos::deep_copy(h, t.view());
  return h;
}

// Fills the whole local array (halo included) with values from `seed`, by local position and rank.
template <class T, class M>
void fill_random(ht::ShardTensor<T, M>& t, std::uint64_t seed) {
  auto h = Kokkos::create_mirror_view(t.view());
  for (std::size_t i = 0; i < h.size(); ++i)
    h.data()[i] = static_cast<T>(cell_value(static_cast<std::int64_t>(i), seed + 7919u * static_cast<std::uint64_t>(t.layout().rank())));
  Kokkos::deep_copy(t.view(), h);
}

// `call` must throw an hpart::Error containing `needle` on every rank of `comm`, with the same
// text everywhere (each rank compares with the communicator's rank 0). A hang is ctest's timeout.
template <class F>
void expect_same_error(MPI_Comm comm, F&& call, const std::string& needle) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string what;
  try {
    call();
  } catch (const hpart::Error& e) {
    what = e.what();
  }
  EXPECT_FALSE(what.empty()) << "no hpart::Error on rank " << rank << " (expected '" << needle << "')";
  EXPECT_NE(what.find(needle), std::string::npos) << "rank " << rank << ": " << what;
  int len = static_cast<int>(what.size());
  MPI_Bcast(&len, 1, MPI_INT, 0, comm);
  std::string root(static_cast<std::size_t>(len), '\0');
  if (rank == 0) root = what;
  MPI_Bcast(root.data(), len, MPI_CHAR, 0, comm);
  EXPECT_EQ(what, root) << "rank " << rank << " throws another message than rank 0";
}

// Runs `body(comm)` on the world and on the HalfWorld sub-communicator (each half on its own).
template <class F>
void on_world_and_half(F&& body) {
  {
    SCOPED_TRACE("on the world");
    body(MPI_COMM_WORLD);
  }
  const HalfWorld half;
  SCOPED_TRACE("on a half of the world");
  body(half.comm);
}

// HPART_MEMORY_LIMIT set for a scope (the memory checks' budget), then unset.
struct MemoryLimit {
  explicit MemoryLimit(const char* limit) { setenv("HPART_MEMORY_LIMIT", limit, 1); }
  ~MemoryLimit() { unsetenv("HPART_MEMORY_LIMIT"); }
  MemoryLimit(const MemoryLimit&) = delete;
  MemoryLimit& operator=(const MemoryLimit&) = delete;
};

}  // namespace hpart::testing
