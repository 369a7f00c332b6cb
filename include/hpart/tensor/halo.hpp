#pragma once
// Halo exchange of a ShardTensor, and its adjoint.
//
// Forward H: every halo cell gets the value of the cell it mirrors (the neighbour's interior, or
// this rank's own across a periodic axis with one shard), and halo cells past a non-periodic
// global edge (the padding) are zero after it, so stencils see zero padding there. Interiors are
// unchanged. The padding is zero from allocation; it is zeroed again only when it may have been
// written since (ShardTensor::view() was called, or mark_padding_dirty()): zeroing the W-face
// padding touches one cache line per row (0.5-1 ms at 4096^2 x 16 on one core).
// Padding::assume_zero never zeroes it, Padding::zero_always every time. Every one of the up to
// 26 neighbours (faces, edges, corners) sends its part directly, so corners are right without
// ordering the axes and all messages are in flight at once: begin() packs and posts, end() waits
// and unpacks, and interior work can run in between. On host-accessible memory, messages made of
// long contiguous runs (the H or D faces of a LayoutRight array: one row of W per channel) go
// straight from and into the tensor, without packing (HaloTransfer). Requests are persistent:
// made on the first exchange of a tensor, restarted while the tensor is the same.
//
// Adjoint H^T: each halo cell's value is sent back to the cell it mirrors and ADDED there; then
// every halo cell (padding included) is zero. <H x, y> = <x, H^T y> over whole local arrays
// (halos included), summed over the ranks (with Padding::assume_zero: for x with zero padding).
// This is the backward pass of any layer that reads halos.
//
//   HaloExchange<float> halo(x);       // plan and buffers, reused for every call
//   halo.begin(x); interior_work(); halo.end(x);
//   halo.adjoint(grad_x);              // grad of the halo cells folded back into their owners
//
// Device buffers: faces are packed into contiguous buffers in the tensor's memory space by
// Kokkos kernels; the execution space is fenced before MPI sees a buffer; a memory space the
// host cannot read goes through host mirrors (no GPU-aware MPI assumed).
#include <cstdint>
#include <vector>

#include "hpart/tensor/impl/halo_routes.hpp"
#include "hpart/tensor/impl/shared_mailboxes.hpp"
#include "hpart/tensor/shard_tensor.hpp"

namespace hpart::tensor {

// A box of a local array (halo margins counted), as first index and counts.
struct LocalRegion {
  Index5 lo{0, 0, 0, 0, 0};
  Index5 count{0, 0, 0, 0, 0};
  [[nodiscard]] std::int64_t volume() const {
    std::int64_t v = 1;
    for (std::int64_t c : count) v *= c;
    return v;
  }
};

// What one halo exchange does on this rank: computed from the layout alone, identical logic on
// every rank, no communication.
struct HaloPlan {
  struct Message {
    int peer = -1;
    int tag = 0;
    LocalRegion region;  // sends: interior cells read; receives: halo cells written
  };
  struct SelfCopy {
    LocalRegion from;  // interior cells
    LocalRegion to;    // halo cells (periodic axis with one shard)
  };
  std::vector<Message> sends, receives;
  std::vector<SelfCopy> self_copies;
  std::vector<LocalRegion> edge_zeros;  // padding: halo cells past non-periodic global edges
  std::int64_t send_elements = 0;
  std::int64_t receive_elements = 0;
};

// Not collective; the layout and halo must be valid (ShardTensor checked them).
HaloPlan make_halo_plan(const ShardLayout& layout, const Halo& halo);

enum class Padding {
  // After the forward exchange the padding is zero (default). It is zeroed only when it may have
  // been written since it was last zero: ShardTensor::view() or mark_padding_dirty() was called.
  zero_each_exchange,
  assume_zero,  // the caller keeps the padding zero; the forward exchange leaves it
  zero_always,  // the forward exchange zeroes the padding every time (no tracking)
};

// How a message travels. Host-accessible memory only for the direct ones: elsewhere `pack`.
// Which is fastest depends on the MPI library and the machine more than on the plan: on the
// halo2d bench (docs/tensors.md) one machine ran 16 KiB rows fastest as one message each and
// the datatype 1.7x slower, another the datatype as fast as raw MPI and the rows 3x slower
// (Open MPI copies messages under its 32 KiB rendezvous limit through shared fragments). So
// `automatic` measures.
enum class HaloTransfer {
  // Measured: the first forward exchanges of the plan try each candidate policy, kTuneExchanges
  // each (the first to warm up, the fastest of the others timed), and keep the one whose slowest
  // rank was fastest. Candidates: the
  // rows rule (per message: direct_runs for at most kDirectMaxRuns runs of >=
  // kDirectMinRunBytesPerMessage, else direct_datatype for runs of >= kDirectMinRunBytes, else
  // pack), direct_datatype, pack_runs and, where a rank has a neighbour on its node and shared
  // memory could be set up on every rank, shared_memory.
  // The choice is agreed by an allreduce (on the plan's own duplicate of the communicator), so
  // those first exchanges are collective over the layout's communicator; after them nothing is
  // measured. The values moved are the same whichever policy runs.
  automatic,
  pack,             // packed into a contiguous buffer by a Kokkos kernel, unpacked at the end
  direct_datatype,  // sent from / received into the tensor through a committed MPI datatype
  direct_runs,      // one MPI message per contiguous run of the tensor, no datatype
  pack_runs,        // packed by one memcpy per contiguous run (long runs only, else pack), one message
  // Messages between ranks of one node through mailboxes in shared memory (impl/shared_mailboxes.hpp):
  // the sender copies the region into the receiver's mailbox, the receiver copies it out; no MPI
  // message. Messages to other nodes travel as `automatic`'s rows rule says, and so does every
  // message where shared memory cannot be set up (on any rank).
  shared_memory,
};
inline constexpr std::int64_t kDirectMinRunBytes = 1024;
inline constexpr std::int64_t kDirectMinRunBytesPerMessage = 4096;
inline constexpr std::int64_t kDirectMaxRuns = 64;
inline constexpr int kTuneExchanges = 4;  // per candidate of `automatic`: one to warm up, three timed

struct HaloOptions {
  Padding padding = Padding::zero_each_exchange;
  HaloTransfer transfer = HaloTransfer::automatic;
};

namespace impl {
// Collective, once per plan: the options every rank must pass alike (a transfer policy that
// differs between neighbours changes the messages each expects) and whether this rank can hold
// the plan's buffers (`buffer_bytes`), else the same hpart::Error on every rank; then, for
// `automatic`, whether any rank has messages (`messages`: this rank's), so that all tune or none.
bool agree_halo_exchange(const ShardLayout& layout, const HaloOptions& options, double buffer_bytes, bool automatic,
                         bool messages);
}  // namespace impl

template <class T, class MemorySpace = DefaultMemorySpace>
class HaloExchange {
 public:
  using tensor_type = ShardTensor<T, MemorySpace>;

  HaloExchange() = default;
  // The plan and buffers for tensors shaped like `like` (same layout and halo). Collective over
  // the layout's communicator: the options must be the same on every rank, and the buffers must
  // fit this rank's memory (else the same hpart::Error everywhere). For HaloTransfer::automatic
  // its first forward exchanges are collective too (they measure: see HaloTransfer).
  explicit HaloExchange(const tensor_type& like, Padding padding = Padding::zero_each_exchange)
      : HaloExchange(like, HaloOptions{padding, HaloTransfer::automatic}) {}
  HaloExchange(const tensor_type& like, const HaloOptions& options);
  HaloExchange(const HaloExchange&) = delete;
  HaloExchange& operator=(const HaloExchange&) = delete;
  HaloExchange(HaloExchange&&) noexcept = default;
  HaloExchange& operator=(HaloExchange&&) noexcept = default;
  ~HaloExchange();

  // Forward: begin() packs what is not sent directly and starts every receive and send; end()
  // waits, unpacks into the halos and zeroes the padding as `Padding` says (zero_each_exchange:
  // when t.view() or t.mark_padding_dirty() was called since it was last zero). Between the two,
  // `t`'s interior may be read but not written, its halo neither. Exchanges in flight together
  // on one communicator must be begun in the same order on every rank (shared tags, MPI order).
  void begin(tensor_type& t);
  void end(tensor_type& t);
  void exchange(tensor_type& t) {
    begin(t);
    end(t);
  }
  // Adjoint: begin_adjoint() packs the halos and posts; end_adjoint() adds what arrives into the
  // interior and zeroes the halo.
  void begin_adjoint(tensor_type& g);
  void end_adjoint(tensor_type& g);
  void adjoint(tensor_type& g) {
    begin_adjoint(g);
    end_adjoint(g);
  }

  // Sets the padding (halo cells past non-periodic global edges) to zero.
  void zero_edges(tensor_type& t) const;

  [[nodiscard]] const HaloPlan& plan() const { return plan_; }
  [[nodiscard]] std::int64_t bytes_sent() const { return plan_.send_elements * static_cast<std::int64_t>(sizeof(T)); }
  [[nodiscard]] bool in_flight() const { return pending_ != Pending::none; }
  // Messages of plan().sends / plan().receives that go without packing (direct_datatype, direct_runs).
  [[nodiscard]] int direct_messages() const;
  // The policy in use: for `automatic`, the candidate being tried while tuning() and the one
  // chosen after (automatic here names the rows rule).
  [[nodiscard]] HaloTransfer transfer() const { return policy_; }
  [[nodiscard]] bool tuning() const { return tune_step_ >= 0; }
  // The policies `automatic` tries (shared_memory among them where its mailboxes were set up).
  [[nodiscard]] const std::vector<HaloTransfer>& candidates() const { return candidates_; }

 private:
  enum class Pending { none, forward, adjoint };
  using buffer_type = Kokkos::View<T*, MemorySpace>;
  using host_buffer_type = typename buffer_type::HostMirror;

  void check(const tensor_type& t, Pending expect) const;
  // How one message of the plan travels: packed at `offset`, straight from the tensor, or
  // through its mailbox (`shared`: the same message's mailbox both ways, forward and adjoint).
  struct Route {
    bool direct = false;
    bool shared = false;
    std::int64_t offset = 0;  // pack: in the buffer; direct: the region's first element in the array
    impl::CommittedType type;  // direct_datatype
    std::vector<std::int64_t> runs;  // direct_runs, pack_runs: first element of each run in the array
    std::int64_t run = 0;
  };
  // out[0..] <- the region (memcpy per run when the route has runs, else a Kokkos kernel); `out`
  // is in the plan's buffer or a mailbox.
  void pack(const typename tensor_type::view_type& v, const LocalRegion& reg, const Route& r, T* out);
  // The region <- (or +=) in[0..].
  void unpack(const T* in, const typename tensor_type::view_type& v, const LocalRegion& reg, const Route& r, bool add);
  // Shared routes: copy into the peer's mailbox once it has taken exchange `seq - 1`, then
  // publish `seq`; receiving: wait for `seq`, copy out (or add), tell the sender.
  void send_shared(const typename tensor_type::view_type& v, const LocalRegion& reg, const Route& r,
                   const impl::SharedMailboxes::Box& box, std::uint64_t seq);
  void receive_shared(const impl::SharedMailboxes::Box& box, std::uint64_t seq, const typename tensor_type::view_type& v,
                      const LocalRegion& reg, const Route& r, bool add);
  void post(bool adjoint, T* data);
  void make_routes(HaloTransfer policy);  // send_route_, recv_route_ for `policy`; drops the requests
  void tune(double seconds);  // one forward exchange of `automatic` took `seconds` on this rank

  ShardLayout layout_;
  Halo halo_;
  Padding padding_ = Padding::zero_each_exchange;
  HaloPlan plan_;
  // One contiguous buffer each way, messages at offsets (sends in plan order, then receives).
  buffer_type send_buf_, recv_buf_;
  host_buffer_type send_host_, recv_host_;
  std::vector<std::int64_t> send_offset_, recv_offset_;
  HaloTransfer transfer_ = HaloTransfer::automatic;  // as asked
  HaloTransfer policy_ = HaloTransfer::automatic;    // in use (automatic: the rows rule)
  Index5 extent_{};                                  // of the local arrays
  std::vector<Route> send_route_, recv_route_;
  // Mailboxes for shared_memory (forward: in = plan.receives, out = plan.sends; the adjoint's
  // the other way), and the exchanges each direction has done through them.
  impl::SharedMailboxes forward_boxes_, adjoint_boxes_;
  std::uint64_t forward_seq_ = 0, adjoint_seq_ = 0;
  // automatic: the policies it tries, forward exchanges done while tuning (-1: not tuning), the
  // candidates' times.
  std::vector<HaloTransfer> candidates_;
  int tune_step_ = -1;
  double begin_seconds_ = 0.0;
  std::vector<double> tune_seconds_;
  impl::OwnedComm tune_comm_;  // for the one allreduce that ends the tuning
  // Built on the first exchange of a tensor, started again while the tensor stays the same.
  impl::PersistentRequests forward_requests_, adjoint_requests_;
  Pending pending_ = Pending::none;
  const void* tensor_data_ = nullptr;
};

}  // namespace hpart::tensor

#include "hpart/tensor/impl/halo_impl.hpp"
