#pragma once
// Body of Redistribution: pieces packed into one contiguous buffer per direction, point-to-point
// messages (one per peer and piece), local pieces copied view to view.
#include <string>

#include "hpart/tensor/impl/region_kernels.hpp"

namespace hpart::tensor {

namespace impl {
inline constexpr int kRedistributeTag = 0x6900;

// A global box of the tensor as a region of t's local array.
template <class Tensor>
void local_region_of(const Tensor& t, const Box& b, Index5& lo, Index5& count) {
  const Index5 m = t.margins();
  for (int a = 0; a < kRank; ++a) {
    const auto ua = static_cast<std::size_t>(a);
    lo[ua] = b.lo[ua] - t.box().lo[ua] + m[ua];
    count[ua] = b.extent(a);
  }
}
}  // namespace impl

template <class T, class M>
Redistribution<T, M>::Redistribution(const ShardLayout& from, const ShardLayout& to)
    : from_(from),
      to_(to),
      // Device memory spaces also hold host mirrors of the buffers.
      plan_(make_redistribute_plan(from, to, static_cast<double>(sizeof(T)) * (impl::host_accessible<M> ? 1.0 : 2.0))) {}

template <class T, class M>
void Redistribution<T, M>::move(const std::vector<RedistributePlan::Piece>& out, const tensor_type& src,
                                const std::vector<RedistributePlan::Piece>& in, tensor_type& dst, bool add) {
  const Comm& comm = from_.comm();
  const int me = comm.rank();
  std::int64_t nout = 0, nin = 0;
  for (const auto& p : out)
    if (p.peer != me) nout += p.box.volume();
  for (const auto& p : in)
    if (p.peer != me) nin += p.box.volume();
  const auto no_init = Kokkos::WithoutInitializing;
  buffer_type sbuf(Kokkos::view_alloc(no_init, "hpart::redistribute_send"), static_cast<std::size_t>(nout));
  buffer_type rbuf(Kokkos::view_alloc(no_init, "hpart::redistribute_recv"), static_cast<std::size_t>(nin));
  Index5 lo{}, count{};
  std::int64_t off = 0;
  for (const auto& p : out) {
    if (p.peer == me) continue;
    impl::local_region_of(src, p.box, lo, count);
    impl::pack_region(src.view(), lo, count, sbuf, off);
    off += p.box.volume();
  }
  typename M::execution_space().fence();
  auto shost = Kokkos::create_mirror_view(sbuf);
  auto rhost = Kokkos::create_mirror_view(rbuf);
  if constexpr (!impl::host_accessible<M>) Kokkos::deep_copy(shost, sbuf);
  std::vector<MPI_Request> reqs;
  off = 0;
  for (const auto& p : in) {
    if (p.peer == me) continue;
    impl::post_receive(rhost.data() + off, p.box.volume(), p.peer, impl::kRedistributeTag, comm.get(), reqs);
    off += p.box.volume();
  }
  off = 0;
  for (const auto& p : out) {
    if (p.peer == me) continue;
    impl::post_send(shost.data() + off, p.box.volume(), p.peer, impl::kRedistributeTag, comm.get(), reqs);
    off += p.box.volume();
  }
  // Local pieces while the messages travel.
  Index5 dlo{}, dcount{};
  for (const auto& p : out) {
    if (p.peer != me) continue;
    impl::local_region_of(src, p.box, lo, count);
    impl::local_region_of(dst, p.box, dlo, dcount);
    impl::copy_region(src.view(), lo, dst.view(), dlo, count, add);
  }
  impl::wait_all(reqs);
  if constexpr (!impl::host_accessible<M>) Kokkos::deep_copy(rbuf, rhost);
  off = 0;
  for (const auto& p : in) {
    if (p.peer == me) continue;
    impl::local_region_of(dst, p.box, dlo, dcount);
    impl::unpack_region(rbuf, off, dst.view(), dlo, dcount, add);
    off += p.box.volume();
  }
  // The buffers go out of scope here: their kernels must be done first.
  typename M::execution_space().fence();
}

template <class T, class M>
void Redistribution<T, M>::forward(const tensor_type& x, tensor_type& y) {
  if (!(x.layout() == from_) || !(y.layout() == to_))
    throw Error(ErrorCode::invalid_argument, "Redistribution::forward: tensors not laid out as the plan's layouts");
  // Pieces sent are read from x (sends: my primary box cut by the targets), received into y.
  move(plan_.sends, x, plan_.receives, y, false);
}

template <class T, class M>
void Redistribution<T, M>::adjoint(const tensor_type& y, tensor_type& x) {
  if (!(x.layout() == from_) || !(y.layout() == to_))
    throw Error(ErrorCode::invalid_argument, "Redistribution::adjoint: tensors not laid out as the plan's layouts");
  // Non-primary copies of x get nothing: zero, then every target copy adds into the primary.
  impl::fill_region(x.view(), x.margins(), x.interior_extent(), T(0));
  move(plan_.receives, y, plan_.sends, x, true);
}

template <class T, class M>
ShardTensor<T, M> redistribute(const ShardTensor<T, M>& x, const ShardLayout& to, const Halo& halo) {
  Redistribution<T, M> r(x.layout(), to);
  ShardTensor<T, M> y(to, halo, "hpart::redistribute");
  r.forward(x, y);
  return y;
}

template <class T, class M>
ShardTensor<T, M> redistribute_adjoint(const ShardTensor<T, M>& y, const ShardLayout& from, const Halo& halo) {
  Redistribution<T, M> r(from, y.layout());
  ShardTensor<T, M> x(from, halo, "hpart::redistribute_adjoint");
  r.adjoint(y, x);
  return x;
}

}  // namespace hpart::tensor
