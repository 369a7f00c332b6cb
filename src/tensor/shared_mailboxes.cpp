// SharedMailboxes: POSIX shared-memory segments for the halo messages within a node.
#include "hpart/tensor/impl/shared_mailboxes.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <string>
#include <utility>

namespace hpart::tensor::impl {

namespace {
constexpr std::size_t kLine = 64;
constexpr std::size_t kHeader = 2 * kLine;  // `filled` and `consumed`, each on its own cache line
constexpr int kSetupTag = 0x6a00;            // + the message's tag (halo tags are below 64)
constexpr int kSpinsBeforeYield = 200;

std::size_t round_up(std::int64_t bytes) { return (static_cast<std::size_t>(bytes) + kLine - 1) / kLine * kLine; }

// What a receiver tells the sender of one message: where its mailbox is. An empty name: none.
struct Address {
  char name[56] = {};
  std::int64_t offset = 0;
  std::int64_t segment_bytes = 0;
};

std::string segment_name() {
  static std::atomic<unsigned> counter{0};
  return "/hpart-halo-" + std::to_string(static_cast<long>(getpid())) + "-" + std::to_string(counter++);
}

void* map_segment(int fd, std::size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return p == MAP_FAILED ? nullptr : p;
}

SharedMailboxes::Box box_at(void* base, std::int64_t offset) {
  auto* at = static_cast<std::byte*>(base) + offset;
  return {at + kHeader, reinterpret_cast<std::uint64_t*>(at), reinterpret_cast<std::uint64_t*>(at + kLine)};
}
}  // namespace

SharedMailboxes::SharedMailboxes(MPI_Comm comm, const std::vector<Message>& incoming,
                                 const std::vector<Message>& outgoing)
    : in_(incoming.size()), out_(outgoing.size()) {
  // Which peers share this rank's node.
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Group group = MPI_GROUP_NULL, node_group = MPI_GROUP_NULL;
  MPI_Comm_group(comm, &group);
  MPI_Comm_group(node, &node_group);
  const auto local = [&](int peer) {
    int r = MPI_UNDEFINED;
    MPI_Group_translate_ranks(group, 1, &peer, node_group, &r);
    return r != MPI_UNDEFINED;
  };
  std::vector<char> in_local(incoming.size()), out_local(outgoing.size());
  for (std::size_t j = 0; j < incoming.size(); ++j) in_local[j] = local(incoming[j].peer) && incoming[j].bytes > 0;
  for (std::size_t i = 0; i < outgoing.size(); ++i) out_local[i] = local(outgoing[i].peer) && outgoing[i].bytes > 0;
  MPI_Group_free(&group);
  MPI_Group_free(&node_group);
  MPI_Comm_free(&node);

  // This rank's segment: a mailbox per incoming message from its node.
  bool ok = true, any_local = false;
  std::vector<std::int64_t> offset(incoming.size(), 0);
  std::size_t total = 0;
  for (std::size_t j = 0; j < incoming.size(); ++j)
    if (in_local[j]) offset[j] = static_cast<std::int64_t>(total), total += kHeader + round_up(incoming[j].bytes);
  std::string name;
  if (total > 0) {
    any_local = true;
    name = segment_name();
    const int fd = shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) {
      ok = false, name.clear();
    } else {
      // Reserved now, so a full /dev/shm is a clean failure here and not a SIGBUS at first touch.
      void* base = posix_fallocate(fd, 0, static_cast<off_t>(total)) == 0 ? map_segment(fd, total) : nullptr;
      close(fd);
      if (base == nullptr) ok = false;
      else maps_.push_back({base, total});
    }
  }
  // Tell each sender where its mailbox is; learn where ours go.
  std::vector<Address> told(incoming.size()), heard(outgoing.size());
  std::vector<MPI_Request> reqs;
  for (std::size_t i = 0; i < outgoing.size(); ++i)
    if (out_local[i]) {
      reqs.emplace_back();
      MPI_Irecv(&heard[i], sizeof(Address), MPI_BYTE, outgoing[i].peer, kSetupTag + outgoing[i].tag, comm, &reqs.back());
    }
  for (std::size_t j = 0; j < incoming.size(); ++j)
    if (in_local[j]) {
      if (ok) std::strncpy(told[j].name, name.c_str(), sizeof(told[j].name) - 1);
      told[j].offset = offset[j];
      told[j].segment_bytes = static_cast<std::int64_t>(total);
      reqs.emplace_back();
      MPI_Isend(&told[j], sizeof(Address), MPI_BYTE, incoming[j].peer, kSetupTag + incoming[j].tag, comm, &reqs.back());
    }
  MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
  if (ok)
    for (std::size_t j = 0; j < incoming.size(); ++j)
      if (in_local[j]) in_[j] = box_at(maps_.front().base, offset[j]);
  // Map each peer segment once (several messages may go to one peer).
  std::vector<std::string> mapped_names;
  for (std::size_t i = 0; i < outgoing.size() && ok; ++i) {
    if (!out_local[i]) continue;
    any_local = true;
    const Address& a = heard[i];
    if (a.name[0] == '\0') {
      ok = false;
      break;
    }
    const std::string peer_name(a.name, strnlen(a.name, sizeof(a.name)));
    std::size_t m = 0;
    while (m < mapped_names.size() && mapped_names[m] != peer_name) ++m;
    if (m == mapped_names.size()) {
      const int fd = shm_open(peer_name.c_str(), O_RDWR, 0);
      void* base = fd < 0 ? nullptr : map_segment(fd, static_cast<std::size_t>(a.segment_bytes));
      if (fd >= 0) close(fd);
      if (base == nullptr) {
        ok = false;
        break;
      }
      maps_.push_back({base, static_cast<std::size_t>(a.segment_bytes)});
      mapped_names.push_back(peer_name);
    }
    // The peers' mappings follow this rank's own (mapped whenever it has incoming mailboxes, ok
    // being true here), in the order of mapped_names.
    out_[i] = box_at(maps_[m + (total > 0 ? 1 : 0)].base, a.offset);
  }
  // Every rank has mapped what it needs (or failed): the names can go.
  int flags[2] = {ok ? 1 : 0, any_local ? -1 : 0};
  MPI_Allreduce(MPI_IN_PLACE, flags, 2, MPI_INT, MPI_MIN, comm);
  if (!name.empty()) shm_unlink(name.c_str());
  usable_ = flags[0] == 1 && flags[1] == -1;
  if (!usable_) release();
}

SharedMailboxes::SharedMailboxes(SharedMailboxes&& o) noexcept
    : maps_(std::move(o.maps_)), in_(std::move(o.in_)), out_(std::move(o.out_)), usable_(std::exchange(o.usable_, false)) {
  o.maps_.clear();
}

SharedMailboxes& SharedMailboxes::operator=(SharedMailboxes&& o) noexcept {
  if (this != &o) {
    release();
    maps_ = std::move(o.maps_), in_ = std::move(o.in_), out_ = std::move(o.out_);
    usable_ = std::exchange(o.usable_, false);
    o.maps_.clear();
  }
  return *this;
}

SharedMailboxes::~SharedMailboxes() { release(); }

void SharedMailboxes::release() {
  for (const Mapping& m : maps_) munmap(m.base, m.bytes);
  maps_.clear();
  for (Box& b : in_) b = Box{};
  for (Box& b : out_) b = Box{};
  usable_ = false;
}

void wait_for(std::uint64_t* word, std::uint64_t value) {
  const std::atomic_ref<std::uint64_t> w(*word);
  for (int spin = 0; w.load(std::memory_order_acquire) < value; ++spin) {
    if (spin < kSpinsBeforeYield) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    } else {
      sched_yield();
    }
  }
}

void publish(std::uint64_t* word, std::uint64_t value) {
  std::atomic_ref<std::uint64_t>(*word).store(value, std::memory_order_release);
}

}  // namespace hpart::tensor::impl
