#pragma once
// Kernels over boxes of a local 5-D array (pack into a contiguous buffer, unpack, add, copy,
// fill) and the MPI helpers the exchanges share. Execution space: the view's memory space's.
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <climits>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "hpart/error.hpp"
#include "hpart/tensor/layout.hpp"

namespace hpart::tensor::impl {

template <class ExecSpace>
using Policy5 = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<5>, Kokkos::IndexType<std::int64_t>>;

template <class ExecSpace>
Policy5<ExecSpace> policy_over(const Index5& count) {
  return Policy5<ExecSpace>({0, 0, 0, 0, 0}, {count[0], count[1], count[2], count[3], count[4]});
}

inline std::int64_t volume_of(const Index5& count) {
  std::int64_t v = 1;
  for (std::int64_t c : count) v *= c;
  return v;
}

// buf[offset + row-major index in region] = v(region)
template <class View5, class Buffer>
void pack_region(const View5& v, const Index5& lo, const Index5& count, const Buffer& buf, std::int64_t offset) {
  using exec = typename View5::execution_space;
  if (volume_of(count) == 0) return;
  const std::int64_t c1 = count[1], c2 = count[2], c3 = count[3], c4 = count[4];
  const std::int64_t l0 = lo[0], l1 = lo[1], l2 = lo[2], l3 = lo[3], l4 = lo[4];
  Kokkos::parallel_for(
      "hpart::tensor::pack", policy_over<exec>(count),
      KOKKOS_LAMBDA(std::int64_t i0, std::int64_t i1, std::int64_t i2, std::int64_t i3, std::int64_t i4) {
        buf(offset + (((i0 * c1 + i1) * c2 + i2) * c3 + i3) * c4 + i4) = v(l0 + i0, l1 + i1, l2 + i2, l3 + i3, l4 + i4);
      });
}

// v(region) = buf[...] (add = false) or v(region) += buf[...] (add = true)
template <class View5, class Buffer>
void unpack_region(const Buffer& buf, std::int64_t offset, const View5& v, const Index5& lo, const Index5& count,
                   bool add) {
  using exec = typename View5::execution_space;
  if (volume_of(count) == 0) return;
  const std::int64_t c1 = count[1], c2 = count[2], c3 = count[3], c4 = count[4];
  const std::int64_t l0 = lo[0], l1 = lo[1], l2 = lo[2], l3 = lo[3], l4 = lo[4];
  if (add)
    Kokkos::parallel_for(
        "hpart::tensor::unpack_add", policy_over<exec>(count),
        KOKKOS_LAMBDA(std::int64_t i0, std::int64_t i1, std::int64_t i2, std::int64_t i3, std::int64_t i4) {
          v(l0 + i0, l1 + i1, l2 + i2, l3 + i3, l4 + i4) += buf(offset + (((i0 * c1 + i1) * c2 + i2) * c3 + i3) * c4 + i4);
        });
  else
    Kokkos::parallel_for(
        "hpart::tensor::unpack", policy_over<exec>(count),
        KOKKOS_LAMBDA(std::int64_t i0, std::int64_t i1, std::int64_t i2, std::int64_t i3, std::int64_t i4) {
          v(l0 + i0, l1 + i1, l2 + i2, l3 + i3, l4 + i4) = buf(offset + (((i0 * c1 + i1) * c2 + i2) * c3 + i3) * c4 + i4);
        });
}

// dst(dst_lo + i) = src(src_lo + i) (or +=) over `count`; src and dst may be the same view when
// the regions do not overlap.
template <class SrcView, class DstView>
void copy_region(const SrcView& src, const Index5& src_lo, const DstView& dst, const Index5& dst_lo,
                 const Index5& count, bool add) {
  using exec = typename DstView::execution_space;
  if (volume_of(count) == 0) return;
  const std::int64_t s0 = src_lo[0], s1 = src_lo[1], s2 = src_lo[2], s3 = src_lo[3], s4 = src_lo[4];
  const std::int64_t d0 = dst_lo[0], d1 = dst_lo[1], d2 = dst_lo[2], d3 = dst_lo[3], d4 = dst_lo[4];
  if (add)
    Kokkos::parallel_for(
        "hpart::tensor::copy_add", policy_over<exec>(count),
        KOKKOS_LAMBDA(std::int64_t i0, std::int64_t i1, std::int64_t i2, std::int64_t i3, std::int64_t i4) {
          dst(d0 + i0, d1 + i1, d2 + i2, d3 + i3, d4 + i4) += src(s0 + i0, s1 + i1, s2 + i2, s3 + i3, s4 + i4);
        });
  else
    Kokkos::parallel_for(
        "hpart::tensor::copy", policy_over<exec>(count),
        KOKKOS_LAMBDA(std::int64_t i0, std::int64_t i1, std::int64_t i2, std::int64_t i3, std::int64_t i4) {
          dst(d0 + i0, d1 + i1, d2 + i2, d3 + i3, d4 + i4) = src(s0 + i0, s1 + i1, s2 + i2, s3 + i3, s4 + i4);
        });
}

template <class View5>
void fill_region(const View5& v, const Index5& lo, const Index5& count, typename View5::non_const_value_type value) {
  using exec = typename View5::execution_space;
  if (volume_of(count) == 0) return;
  const std::int64_t l0 = lo[0], l1 = lo[1], l2 = lo[2], l3 = lo[3], l4 = lo[4];
  Kokkos::parallel_for(
      "hpart::tensor::fill", policy_over<exec>(count),
      KOKKOS_LAMBDA(std::int64_t i0, std::int64_t i1, std::int64_t i2, std::int64_t i3, std::int64_t i4) {
        v(l0 + i0, l1 + i1, l2 + i2, l3 + i3, l4 + i4) = value;
      });
}

template <class T>
MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, int>) return MPI_INT;
  else if constexpr (std::is_same_v<T, std::int64_t>) return MPI_INT64_T;
  else if constexpr (std::is_same_v<T, std::uint8_t>) return MPI_UINT8_T;
  else static_assert(sizeof(T) == 0, "hpart::tensor: element type without an MPI datatype");
}

// Messages beyond INT_MAX elements go as several of the same tag (MPI keeps their order).
inline constexpr std::int64_t kMaxMessage = std::int64_t{1} << 30;

template <class T>
void post_send(const T* data, std::int64_t n, int peer, int tag, MPI_Comm comm, std::vector<MPI_Request>& reqs) {
  for (std::int64_t done = 0; done < n; done += kMaxMessage) {
    MPI_Request r;
    MPI_Isend(data + done, static_cast<int>(std::min(kMaxMessage, n - done)), mpi_type<T>(), peer, tag, comm, &r);
    reqs.push_back(r);
  }
}
template <class T>
void post_receive(T* data, std::int64_t n, int peer, int tag, MPI_Comm comm, std::vector<MPI_Request>& reqs) {
  for (std::int64_t done = 0; done < n; done += kMaxMessage) {
    MPI_Request r;
    MPI_Irecv(data + done, static_cast<int>(std::min(kMaxMessage, n - done)), mpi_type<T>(), peer, tag, comm, &r);
    reqs.push_back(r);
  }
}

inline void wait_all(std::vector<MPI_Request>& reqs) {
  if (!reqs.empty()) MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
  reqs.clear();
}

// A host view of a device buffer for MPI: the buffer itself when the host can read it.
template <class Buffer>
typename Buffer::HostMirror host_side(const Buffer& buf) {
  return Kokkos::create_mirror_view(buf);
}

// Whether MPI can read the memory space directly (host-accessible).
template <class MemorySpace>
inline constexpr bool host_accessible =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible;

}  // namespace hpart::tensor::impl
