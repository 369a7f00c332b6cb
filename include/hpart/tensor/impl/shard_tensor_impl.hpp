#pragma once
// Bodies of the ShardTensor test helpers (from_global, to_global).
#include <mpi.h>

#include <vector>

#include "hpart/tensor/impl/region_kernels.hpp"

namespace hpart::tensor {

namespace impl {
// Calls f(i0, i1, i2, i3, at) for every row (fixed N, C, D, H offsets i0..i3; W contiguous) of
// the box of `count` cells from `lo` in a tensor of `extent`, in storage order: `at` is the index
// of the row's first cell in the row-major global array.
template <class F>
void for_each_global_row(const Index5& lo, const Index5& count, const Index5& extent, F&& f) {
  const Index5& e = extent;
  for (std::int64_t i0 = 0; i0 < count[0]; ++i0)
    for (std::int64_t i1 = 0; i1 < count[1]; ++i1)
      for (std::int64_t i2 = 0; i2 < count[2]; ++i2)
        for (std::int64_t i3 = 0; i3 < count[3]; ++i3) {
          const std::int64_t row = (((lo[0] + i0) * e[1] + lo[1] + i1) * e[2] + lo[2] + i2) * e[3] + lo[3] + i3;
          f(i0, i1, i2, i3, row * e[4] + lo[4]);
        }
}
}  // namespace impl

template <class T, class MemorySpace>
ShardTensor<T, MemorySpace> from_global(const ShardLayout& layout, const Halo& halo, std::span<const T> global) {
  const auto expected = static_cast<std::size_t>(layout.shape().volume());
  layout.comm().agree(global.size() == expected ? ErrorCode::ok : ErrorCode::size_mismatch,
                      global.size() == expected ? std::string{}
                                                : "from_global: the global array has " + std::to_string(global.size()) +
                                                      " values, the tensor " + std::to_string(expected));
  ShardTensor<T, MemorySpace> t(layout, halo, "hpart::from_global");
  const Box& b = t.box();
  if (b.empty()) return t;
  auto host = Kokkos::create_mirror_view(t.view());
  const Index5 e = layout.shape().extent, m = halo.margins(), n = t.interior_extent();
  impl::for_each_global_row(b.lo, n, e, [&](std::int64_t i0, std::int64_t i1, std::int64_t i2, std::int64_t i3, std::int64_t at) {
    for (std::int64_t i4 = 0; i4 < n[4]; ++i4)
      host(i0, i1, m[2] + i2, m[3] + i3, m[4] + i4) = global[static_cast<std::size_t>(at + i4)];
  });
  Kokkos::deep_copy(t.view(), host);
  return t;
}

template <class T, class MemorySpace>
std::vector<T> to_global(const ShardTensor<T, MemorySpace>& t) {
  const ShardLayout& layout = t.layout();
  detail::check_whole_tensor(layout, sizeof(T), "to_global");
  const int P = layout.size();
  std::vector<int> counts(static_cast<std::size_t>(P)), displs(static_cast<std::size_t>(P), 0);
  for (int r = 0; r < P; ++r) {
    const std::int64_t v = layout.is_primary(r) ? layout.box(r).volume() : 0;  // <= INT_MAX: checked above
    counts[static_cast<std::size_t>(r)] = static_cast<int>(v);
    if (r > 0) displs[static_cast<std::size_t>(r)] = displs[static_cast<std::size_t>(r - 1)] + counts[static_cast<std::size_t>(r - 1)];
  }
  const int mine = counts[static_cast<std::size_t>(layout.rank())];
  Kokkos::View<T*, MemorySpace> packed(Kokkos::view_alloc(Kokkos::WithoutInitializing, "hpart::to_global"),
                                       static_cast<std::size_t>(mine));
  if (mine > 0) impl::pack_region(t.view(), t.margins(), t.interior_extent(), packed, 0);
  typename MemorySpace::execution_space().fence();
  auto host = Kokkos::create_mirror_view(packed);
  Kokkos::deep_copy(host, packed);
  const std::int64_t total = layout.shape().volume();
  std::vector<T> gathered(static_cast<std::size_t>(displs.back() + counts.back()));
  MPI_Allgatherv(host.data(), mine, impl::mpi_type<T>(), gathered.data(), counts.data(), displs.data(),
                 impl::mpi_type<T>(), layout.comm().get());
  std::vector<T> global(static_cast<std::size_t>(total));
  const Index5 e = layout.shape().extent;
  for (int r = 0; r < P; ++r) {
    if (counts[static_cast<std::size_t>(r)] == 0) continue;
    const Box& b = layout.box(r);
    const std::int64_t n4 = b.extent(kAxisW);
    std::size_t k = static_cast<std::size_t>(displs[static_cast<std::size_t>(r)]);
    impl::for_each_global_row(b.lo, b.extents(), e, [&](std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t at) {
      for (std::int64_t i4 = 0; i4 < n4; ++i4) global[static_cast<std::size_t>(at + i4)] = gathered[k++];
    });
  }
  return global;
}

}  // namespace hpart::tensor
