#pragma once
// Mailboxes in shared memory for the halo messages between ranks of one node
// (HaloTransfer::shared_memory).
//
// Why: a halo face of an NCHW tensor is one row per channel plane, far apart in memory. Through
// MPI it travels as many messages, a datatype or a packed copy, and on Open MPI's shared-memory
// transport each costs 1.6-6x one contiguous message of the same bytes (docs/torch.md). Through a
// mailbox the sender copies its rows straight into memory the receiver maps, and the receiver
// copies them into its halo: two memcpy of the face and two flag writes, no rendezvous.
//
// Each rank owns one POSIX shared-memory segment holding a mailbox per incoming message from a
// rank of its node; the sender maps the receiver's segment. A mailbox has two counters on their
// own cache lines: `filled` (written by the sender: the exchange whose data is in the box) and
// `consumed` (written by the receiver: the exchange it has copied out). Exchange k of a plan:
// the sender waits for consumed >= k - 1, copies, sets filled = k; the receiver waits for
// filled >= k, copies, sets consumed = k. Every rank runs a plan's exchanges in the same order,
// so the counters agree on k without messages.
//
// Not MPI_Win_allocate_shared: freeing a window is collective, and Python frees plans whenever its
// garbage collector runs, rank by rank. A POSIX segment is unmapped by each rank alone; its name
// is unlinked as soon as every rank has mapped it, so nothing is left in /dev/shm after setup.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hpart::tensor::impl {

class SharedMailboxes {
 public:
  struct Message {
    int peer = -1;            // rank in the communicator
    int tag = 0;              // the same on both ends of a message, unique per (receiver, direction)
    std::int64_t bytes = 0;
  };
  // One message's mailbox, or none (peer on another node, or no mailboxes at all).
  struct Box {
    std::byte* data = nullptr;
    std::uint64_t* filled = nullptr;
    std::uint64_t* consumed = nullptr;
    [[nodiscard]] bool usable() const { return data != nullptr; }
  };

  SharedMailboxes() = default;
  // Collective over `comm`: `incoming` are the messages this rank receives (each peer lists the
  // same message, with the same tag, in its `outgoing`). Mailboxes are made for the messages
  // whose two ends share a node. On failure anywhere (no shared memory, /dev/shm full) every
  // rank gets an object whose usable() is false; never an error. usable() is also false where no
  // rank has a message within its node.
  SharedMailboxes(MPI_Comm comm, const std::vector<Message>& incoming, const std::vector<Message>& outgoing);
  SharedMailboxes(const SharedMailboxes&) = delete;
  SharedMailboxes& operator=(const SharedMailboxes&) = delete;
  SharedMailboxes(SharedMailboxes&& o) noexcept;
  SharedMailboxes& operator=(SharedMailboxes&& o) noexcept;
  ~SharedMailboxes();

  [[nodiscard]] bool usable() const { return usable_; }
  [[nodiscard]] const Box& in(std::size_t i) const { return in_[i]; }
  [[nodiscard]] const Box& out(std::size_t i) const { return out_[i]; }

 private:
  void release();
  struct Mapping {
    void* base = nullptr;
    std::size_t bytes = 0;
  };
  std::vector<Mapping> maps_;  // this rank's segment first (if any), then the peers' it maps
  std::vector<Box> in_, out_;
  bool usable_ = false;
};

// Waits until `word` (shared with another process) reaches `value`: acquire, so the data written
// before the matching `publish` is visible. Spins briefly, then yields the core (ranks may
// outnumber cores).
void wait_for(std::uint64_t* word, std::uint64_t value);
// Sets `word` to `value` with release order: everything written before is visible to wait_for.
void publish(std::uint64_t* word, std::uint64_t value);

}  // namespace hpart::tensor::impl
