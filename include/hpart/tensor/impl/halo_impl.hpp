#pragma once
// Body of HaloExchange: one contiguous buffer per direction, messages at fixed offsets, so a
// plan's buffers are allocated once and every call is pack -> fence -> MPI -> unpack.
#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>

#include "hpart/tensor/impl/region_kernels.hpp"

namespace hpart::tensor {

namespace impl {
// Tags of halo messages: the receiver's direction index (0..26), adjoint messages above.
inline constexpr int kHaloTagBase = 0x6800;
inline constexpr int kHaloAdjointTagOffset = 32;
}  // namespace impl

template <class T, class M>
HaloExchange<T, M>::HaloExchange(const tensor_type& like, const HaloOptions& options)
    : layout_(like.layout()),
      halo_(like.halo()),
      padding_(options.padding),
      plan_(make_halo_plan(like.layout(), like.halo())),
      transfer_(impl::host_accessible<M> ? options.transfer : HaloTransfer::pack) {
  std::int64_t s = 0, r = 0;
  for (const auto& m : plan_.sends) send_offset_.push_back(s), s += m.region.volume();
  for (const auto& m : plan_.receives) recv_offset_.push_back(r), r += m.region.volume();
  const auto& v = like.view_;
  for (std::size_t a = 0; a < extent_.size(); ++a) extent_[a] = static_cast<std::int64_t>(v.extent(a));
  // Sends in one direction are receives in the other: size each buffer for both. The send buffer
  // serves packed messages (and adjoint sends of direct_runs); the receive buffer also the
  // adjoint's receives, always packed (their values are added, not stored). The options are
  // agreed and the buffers' memory checked before anything is committed or allocated.
  const auto rbuf = static_cast<std::size_t>(std::max(s, r));
  const bool messages = !plan_.sends.empty() || !plan_.receives.empty();
  const bool automatic = transfer_ == HaloTransfer::automatic;
  const double host_copies = impl::host_accessible<M> ? 1.0 : 2.0;
  const bool tune = impl::agree_halo_exchange(
      layout_, options, 2.0 * host_copies * static_cast<double>(rbuf) * static_cast<double>(sizeof(T)), automatic, messages);
  if (tune) tune_step_ = 0, tune_comm_ = impl::OwnedComm(layout_.comm().get());
  // Mailboxes (at most the bytes of the buffers checked above; collective, as this constructor):
  // where a policy may use them and every rank could set them up.
  if (impl::host_accessible<M> && (tune || transfer_ == HaloTransfer::shared_memory)) {
    const auto boxed = [](const std::vector<HaloPlan::Message>& ms) {
      std::vector<impl::SharedMailboxes::Message> out;
      for (const auto& m : ms) out.push_back({m.peer, m.tag, m.region.volume() * static_cast<std::int64_t>(sizeof(T))});
      return out;
    };
    const auto in = boxed(plan_.receives), out = boxed(plan_.sends);
    const MPI_Comm comm = layout_.comm().get();
    forward_boxes_ = impl::SharedMailboxes(comm, in, out);
    adjoint_boxes_ = impl::SharedMailboxes(comm, out, in);
  }
  candidates_ = {HaloTransfer::automatic, HaloTransfer::direct_datatype, HaloTransfer::pack_runs};
  if (forward_boxes_.usable() && adjoint_boxes_.usable()) candidates_.push_back(HaloTransfer::shared_memory);
  make_routes(transfer_);
  const auto no_init = Kokkos::WithoutInitializing;
  bool all_datatype = transfer_ == HaloTransfer::direct_datatype;  // then nothing is packed
  for (const std::vector<Route>* routes : {&send_route_, &recv_route_})
    for (const Route& rt : *routes) all_datatype = all_datatype && rt.direct && rt.type.get() != MPI_DATATYPE_NULL;
  const auto sbuf = all_datatype ? std::size_t{0} : rbuf;
  send_buf_ = buffer_type(Kokkos::view_alloc(no_init, "hpart::halo_send"), sbuf);
  recv_buf_ = buffer_type(Kokkos::view_alloc(no_init, "hpart::halo_recv"), rbuf);
  send_host_ = Kokkos::create_mirror_view(send_buf_);
  recv_host_ = Kokkos::create_mirror_view(recv_buf_);
}

template <class T, class M>
void HaloExchange<T, M>::make_routes(HaloTransfer policy) {
  policy_ = policy;
  // Direct routes: the same decision on both ends of a message, since it depends only on the
  // region's counts and on the array extents across it, which neighbours share. So is a shared
  // one: both ends have the message's mailboxes or neither has.
  const bool boxes = policy == HaloTransfer::shared_memory && forward_boxes_.usable() && adjoint_boxes_.usable();
  // Messages that have no mailbox under shared_memory travel as automatic's rows rule says.
  const HaloTransfer rule = policy == HaloTransfer::shared_memory ? HaloTransfer::automatic : policy;
  const auto route = [&](const LocalRegion& reg, std::int64_t offset, bool box) {
    Route out;
    out.offset = offset;
    if (rule == HaloTransfer::pack || reg.volume() == 0) return out;
    const impl::RegionRuns runs = impl::region_runs(extent_, reg.lo, reg.count);
    const auto run_bytes = runs.run * static_cast<std::int64_t>(sizeof(T));
    // Copied by memcpy per run where runs are long (else by the kernels): into the plan's buffer
    // (pack_runs) or into / out of the message's mailbox.
    if (box || rule == HaloTransfer::pack_runs) {
      out.shared = box;
      if (run_bytes >= kDirectMinRunBytes) out.runs = impl::run_starts(runs, reg.count), out.run = runs.run;
      return out;
    }
    if (rule == HaloTransfer::automatic && run_bytes < kDirectMinRunBytes) return out;
    const std::int64_t nruns = reg.volume() / runs.run;
    const bool by_runs = rule == HaloTransfer::direct_runs ||
                         (rule == HaloTransfer::automatic && nruns <= kDirectMaxRuns &&
                          run_bytes >= kDirectMinRunBytesPerMessage);
    if (by_runs) {
      if (runs.run > impl::kMaxMessage) return out;
      out.runs = impl::run_starts(runs, reg.count);
      out.run = runs.run;
    } else {
      out.type = impl::CommittedType(impl::region_datatype(runs, reg.count, impl::mpi_type<T>(), sizeof(T)));
      if (out.type.get() == MPI_DATATYPE_NULL) return out;
    }
    out.direct = true;
    out.offset = runs.first;
    return out;
  };
  send_route_.clear(), recv_route_.clear();
  for (std::size_t i = 0; i < plan_.sends.size(); ++i)
    send_route_.push_back(route(plan_.sends[i].region, send_offset_[i], boxes && forward_boxes_.out(i).usable()));
  for (std::size_t i = 0; i < plan_.receives.size(); ++i)
    recv_route_.push_back(route(plan_.receives[i].region, recv_offset_[i], boxes && forward_boxes_.in(i).usable()));
  forward_requests_.clear(), adjoint_requests_.clear();
}

// `automatic` tries candidates_ in order (the same list on every rank: the mailboxes' usability
// is agreed).
template <class T, class M>
void HaloExchange<T, M>::tune(double seconds) {
  const int candidates = static_cast<int>(candidates_.size());
  const int candidate = tune_step_ / kTuneExchanges;
  // The first exchange of a candidate warms it up (requests made, pages touched); the fastest of
  // the others counts: one exchange descheduled by another job must not decide.
  const int step = tune_step_ % kTuneExchanges;
  if (step == 1) tune_seconds_.push_back(seconds);
  else if (step > 1) tune_seconds_.back() = std::min(tune_seconds_.back(), seconds);
  ++tune_step_;
  if (tune_step_ % kTuneExchanges != 0) return;
  if (candidate + 1 < candidates) {
    make_routes(candidates_[candidate + 1]);
    return;
  }
  // Every rank has timed every candidate: the slowest rank's time decides, identically everywhere.
  MPI_Allreduce(MPI_IN_PLACE, tune_seconds_.data(), candidates, MPI_DOUBLE, MPI_MAX, tune_comm_.get());
  tune_comm_ = impl::OwnedComm();
  const auto best = std::min_element(tune_seconds_.begin(), tune_seconds_.end()) - tune_seconds_.begin();
  tune_step_ = -1;
  if (candidates_[best] != policy_) make_routes(candidates_[best]);
}

template <class T, class M>
void HaloExchange<T, M>::pack(const typename tensor_type::view_type& v, const LocalRegion& reg, const Route& r, T* out) {
  if constexpr (impl::host_accessible<M>) {
    if (!r.runs.empty()) {
      const auto bytes = static_cast<std::size_t>(r.run) * sizeof(T);
      for (std::int64_t f : r.runs) std::memcpy(out, v.data() + f, bytes), out += r.run;
      return;
    }
  }
  impl::pack_region(v, reg.lo, reg.count, Kokkos::View<T*, M, Kokkos::MemoryUnmanaged>(out, reg.volume()), 0);
}

template <class T, class M>
void HaloExchange<T, M>::unpack(const T* in, const typename tensor_type::view_type& v, const LocalRegion& reg,
                                const Route& r, bool add) {
  if constexpr (impl::host_accessible<M>) {
    if (!r.runs.empty()) {
      const auto bytes = static_cast<std::size_t>(r.run) * sizeof(T);
      for (std::int64_t f : r.runs) {
        T* dst = v.data() + f;
        if (add)
          for (std::int64_t k = 0; k < r.run; ++k) dst[k] += in[k];
        else
          std::memcpy(dst, in, bytes);
        in += r.run;
      }
      return;
    }
  }
  impl::unpack_region(Kokkos::View<const T*, M, Kokkos::MemoryUnmanaged>(in, reg.volume()), 0, v, reg.lo, reg.count, add);
}

template <class T, class M>
void HaloExchange<T, M>::send_shared(const typename tensor_type::view_type& v, const LocalRegion& reg, const Route& r,
                                     const impl::SharedMailboxes::Box& box, std::uint64_t seq) {
  impl::wait_for(box.consumed, seq - 1);
  pack(v, reg, r, reinterpret_cast<T*>(box.data));
  typename M::execution_space().fence();
  impl::publish(box.filled, seq);
}

template <class T, class M>
void HaloExchange<T, M>::receive_shared(const impl::SharedMailboxes::Box& box, std::uint64_t seq,
                                        const typename tensor_type::view_type& v, const LocalRegion& reg, const Route& r,
                                        bool add) {
  impl::wait_for(box.filled, seq);
  unpack(reinterpret_cast<const T*>(box.data), v, reg, r, add);
  typename M::execution_space().fence();
  impl::publish(box.consumed, seq);
}

template <class T, class M>
int HaloExchange<T, M>::direct_messages() const {
  int n = 0;
  for (const Route& r : send_route_) n += r.direct ? 1 : 0;
  for (const Route& r : recv_route_) n += r.direct ? 1 : 0;
  return n;
}

template <class T, class M>
HaloExchange<T, M>::~HaloExchange() {
  // A plan destroyed mid-exchange must not leave MPI writing into freed buffers.
  if (pending_ == Pending::forward) forward_requests_.wait();
  if (pending_ == Pending::adjoint) adjoint_requests_.wait();
}

template <class T, class M>
void HaloExchange<T, M>::check(const tensor_type& t, Pending expect) const {
  if (!layout_.valid()) throw Error(ErrorCode::invalid_argument, "HaloExchange: default-constructed plan used");
  if (!(t.layout() == layout_) || !(t.halo() == halo_))
    throw Error(ErrorCode::invalid_argument, "HaloExchange: tensor has another layout or halo than the plan's");
  if (pending_ != expect)
    throw Error(ErrorCode::invalid_argument,
                expect == Pending::none ? "HaloExchange: begin() while an exchange is in flight (call end() first)"
                                        : "HaloExchange: end() without the matching begin()");
  if (expect != Pending::none && t.view_.data() != tensor_data_)
    throw Error(ErrorCode::invalid_argument, "HaloExchange: end() on another tensor than begin()");
}

// Makes the persistent requests of one direction for the tensor at `data`: receives first (they
// may then land without an unexpected-message copy), then sends. Forward: receives are
// plan.receives (halo), sends plan.sends (interior). Adjoint: reversed, and every adjoint receive
// is packed (its values are added into the interior at the end). Messages of one direction share
// a tag: exchanges in flight together on a communicator match because MPI keeps the order of
// messages with one (source, tag) and every rank begins them in the same order.
template <class T, class M>
void HaloExchange<T, M>::post(bool adjoint, T* data) {
  impl::PersistentRequests& set = adjoint ? adjoint_requests_ : forward_requests_;
  // Requests that touch only the plan's buffers (every message packed) do not depend on the
  // tensor: they are kept across tensors, so a caller that exchanges a new array every call
  // (hpart.torch's out-of-place halo_exchange) makes them once. Others are keyed on its memory.
  bool reads_tensor = false;
  if (adjoint) {  // adjoint receives are always packed; sends of direct runs go from the buffer too
    for (const Route& r : recv_route_) reads_tensor = reads_tensor || (r.direct && r.type.get() != MPI_DATATYPE_NULL);
  } else {
    for (const std::vector<Route>* routes : {&send_route_, &recv_route_})
      for (const Route& r : *routes) reads_tensor = reads_tensor || r.direct;
  }
  static const char kBuffersOnly = 0;
  const void* key = reads_tensor ? static_cast<const void*>(data) : static_cast<const void*>(&kBuffersOnly);
  if (!set.built_for(key)) {
    std::vector<MPI_Request>& reqs = set.rebuild(key);
    const MPI_Comm comm = layout_.comm().get();
    const MPI_Datatype elem = impl::mpi_type<T>();
    const auto add = [&](bool send, T* p, std::int64_t n, MPI_Datatype type, int peer, int tag) {
      // Contiguous messages beyond INT_MAX elements go as several of the same tag (MPI keeps their order).
      const std::int64_t chunk = type == elem ? impl::kMaxMessage : n;
      for (std::int64_t done = 0; done < n; done += chunk) {
        const int count = static_cast<int>(std::min(chunk, n - done));
        reqs.emplace_back();
        if (send) MPI_Send_init(p + done, count, type, peer, tag, comm, &reqs.back());
        else MPI_Recv_init(p + done, count, type, peer, tag, comm, &reqs.back());
      }
    };
    const int tag0 = impl::kHaloTagBase + (adjoint ? impl::kHaloAdjointTagOffset : 0);
    const auto& in = adjoint ? plan_.sends : plan_.receives;
    const auto& in_route = adjoint ? send_route_ : recv_route_;
    const auto& out = adjoint ? plan_.receives : plan_.sends;
    const auto& out_route = adjoint ? recv_route_ : send_route_;
    for (std::size_t i = 0; i < in.size(); ++i) {
      const Route& r = in_route[i];
      const int tag = tag0 + in[i].tag;
      if (r.shared) continue;  // through its mailbox (begin / end)
      if (adjoint || !r.direct)
        add(false, recv_host_.data() + (adjoint ? send_offset_[i] : r.offset), in[i].region.volume(), elem, in[i].peer, tag);
      else if (r.type.get() != MPI_DATATYPE_NULL)
        add(false, data + r.offset, 1, r.type.get(), in[i].peer, tag);
      else
        for (std::int64_t f : r.runs) add(false, data + f, r.run, elem, in[i].peer, tag);
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
      const Route& r = out_route[i];
      const int tag = tag0 + out[i].tag;
      if (r.shared) continue;
      if (!r.direct)
        add(true, send_host_.data() + r.offset, out[i].region.volume(), elem, out[i].peer, tag);
      else if (r.type.get() != MPI_DATATYPE_NULL)
        add(true, data + r.offset, 1, r.type.get(), out[i].peer, tag);
      else if (adjoint)  // the receiving end is one packed buffer: one message (packed in begin_adjoint)
        add(true, send_host_.data() + recv_offset_[i], out[i].region.volume(), elem, out[i].peer, tag);
      else
        for (std::int64_t f : r.runs) add(true, data + f, r.run, elem, out[i].peer, tag);
    }
  }
  set.start();
}

template <class T, class M>
void HaloExchange<T, M>::begin(tensor_type& t) {
  check(t, Pending::none);
  const double t0 = tuning() ? MPI_Wtime() : 0.0;
  const auto& v = t.view_;
  typename M::execution_space().fence();  // host copies below read what earlier kernels wrote
  for (std::size_t i = 0; i < plan_.sends.size(); ++i)
    if (!send_route_[i].direct && !send_route_[i].shared)
      pack(v, plan_.sends[i].region, send_route_[i], send_buf_.data() + send_offset_[i]);
  // MPI reads the buffer and, for direct messages, the tensor: every kernel writing them is done.
  typename M::execution_space().fence();
  if constexpr (!impl::host_accessible<M>) Kokkos::deep_copy(send_host_, send_buf_);
  post(false, v.data());
  // Mailboxes after the MPI messages are on their way (a copy each; only host memory has them).
  if (policy_ == HaloTransfer::shared_memory) {
    ++forward_seq_;
    for (std::size_t i = 0; i < plan_.sends.size(); ++i)
      if (send_route_[i].shared) send_shared(v, plan_.sends[i].region, send_route_[i], forward_boxes_.out(i), forward_seq_);
  }
  pending_ = Pending::forward;
  tensor_data_ = v.data();
  if (tuning()) begin_seconds_ = MPI_Wtime() - t0;
}

template <class T, class M>
void HaloExchange<T, M>::end(tensor_type& t) {
  check(t, Pending::forward);
  const double t0 = tuning() ? MPI_Wtime() : 0.0;
  const auto& v = t.view_;
  if (policy_ == HaloTransfer::shared_memory)
    for (std::size_t i = 0; i < plan_.receives.size(); ++i)
      if (recv_route_[i].shared)
        receive_shared(forward_boxes_.in(i), forward_seq_, v, plan_.receives[i].region, recv_route_[i], false);
  forward_requests_.wait();
  pending_ = Pending::none;
  if constexpr (!impl::host_accessible<M>) Kokkos::deep_copy(recv_buf_, recv_host_);
  for (std::size_t i = 0; i < plan_.receives.size(); ++i)
    if (!recv_route_[i].direct && !recv_route_[i].shared)
      unpack(recv_buf_.data() + recv_offset_[i], v, plan_.receives[i].region, recv_route_[i], false);
  for (const auto& c : plan_.self_copies) impl::copy_region(v, c.from.lo, v, c.to.lo, c.to.count, false);
  const bool zero = padding_ == Padding::zero_always ||
                    (padding_ == Padding::zero_each_exchange && !(t.padding_ && t.padding_->zero));
  if (zero) {
    for (const auto& z : plan_.edge_zeros) impl::fill_region(v, z.lo, z.count, T(0));
    if (t.padding_) t.padding_->zero = true;
  }
  if (tuning()) {
    typename M::execution_space().fence();
    tune(begin_seconds_ + (MPI_Wtime() - t0));
  }
}

template <class T, class M>
void HaloExchange<T, M>::zero_edges(tensor_type& t) const {
  if (!(t.layout() == layout_) || !(t.halo() == halo_))
    throw Error(ErrorCode::invalid_argument, "HaloExchange: tensor has another layout or halo than the plan's");
  for (const auto& z : plan_.edge_zeros) impl::fill_region(t.view_, z.lo, z.count, T(0));
  if (t.padding_) t.padding_->zero = true;
}

template <class T, class M>
void HaloExchange<T, M>::begin_adjoint(tensor_type& g) {
  check(g, Pending::none);
  const auto& v = g.view_;
  typename M::execution_space().fence();
  // The halo cells travel back: they are packed from where the forward pass unpacked them.
  for (std::size_t i = 0; i < plan_.receives.size(); ++i)
    if (!recv_route_[i].shared && (!recv_route_[i].direct || recv_route_[i].type.get() == MPI_DATATYPE_NULL))
      pack(v, plan_.receives[i].region, recv_route_[i], send_buf_.data() + recv_offset_[i]);
  typename M::execution_space().fence();
  if constexpr (!impl::host_accessible<M>) Kokkos::deep_copy(send_host_, send_buf_);
  post(true, v.data());
  if (policy_ == HaloTransfer::shared_memory) {
    ++adjoint_seq_;
    for (std::size_t i = 0; i < plan_.receives.size(); ++i)
      if (recv_route_[i].shared)
        send_shared(v, plan_.receives[i].region, recv_route_[i], adjoint_boxes_.out(i), adjoint_seq_);
  }
  pending_ = Pending::adjoint;
  tensor_data_ = v.data();
}

template <class T, class M>
void HaloExchange<T, M>::end_adjoint(tensor_type& g) {
  check(g, Pending::adjoint);
  adjoint_requests_.wait();
  pending_ = Pending::none;
  const auto& v = g.view_;
  if constexpr (!impl::host_accessible<M>) Kokkos::deep_copy(recv_buf_, recv_host_);
  // Regions of different messages overlap in the interior (a face and a corner strip share
  // cells), so each message is added by its own kernel, in order.
  for (std::size_t i = 0; i < plan_.sends.size(); ++i) {
    if (send_route_[i].shared)
      receive_shared(adjoint_boxes_.in(i), adjoint_seq_, v, plan_.sends[i].region, send_route_[i], true);
    else
      unpack(recv_buf_.data() + send_offset_[i], v, plan_.sends[i].region, send_route_[i], true);
  }
  for (const auto& c : plan_.self_copies) impl::copy_region(v, c.to.lo, v, c.from.lo, c.to.count, true);
  for (const auto& m : plan_.receives) impl::fill_region(v, m.region.lo, m.region.count, T(0));
  for (const auto& c : plan_.self_copies) impl::fill_region(v, c.to.lo, c.to.count, T(0));
  for (const auto& z : plan_.edge_zeros) impl::fill_region(v, z.lo, z.count, T(0));
  if (g.padding_) g.padding_->zero = true;
}

}  // namespace hpart::tensor
