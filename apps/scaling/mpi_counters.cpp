#include "mpi_counters.hpp"

#include <atomic>
#include <mutex>
#include <string_view>

#include "mpi_counters_record.hpp"

namespace hpart_scaling {
namespace {
// Relaxed atomics: hpart calls MPI from one thread per rank (MPI_THREAD_FUNNELED), so they only
// guard against a future caller on another thread; no ordering between the counts is promised.
std::atomic<bool> counting{true};
std::atomic<long long> messages{0}, p2p_bytes{0}, collectives{0}, collective_bytes{0};
// Keyed by the wrappers' string literals: no allocation after a name's first call.
std::mutex by_collective_mutex;
std::map<std::string_view, long long> by_collective;
}  // namespace

namespace detail {
void record_message(long long bytes) {
  if (!counting.load(std::memory_order_relaxed)) return;
  messages.fetch_add(1, std::memory_order_relaxed);
  p2p_bytes.fetch_add(bytes, std::memory_order_relaxed);
}

void record_collective(std::string_view name, long long bytes) {
  if (!counting.load(std::memory_order_relaxed)) return;
  collectives.fetch_add(1, std::memory_order_relaxed);
  collective_bytes.fetch_add(bytes, std::memory_order_relaxed);
  const std::lock_guard lock(by_collective_mutex);
  ++by_collective[name];
}
}  // namespace detail

MpiCounts snapshot() {
  MpiCounts c;
  c.messages = messages.load(std::memory_order_relaxed);
  c.p2p_bytes = p2p_bytes.load(std::memory_order_relaxed);
  c.collectives = collectives.load(std::memory_order_relaxed);
  c.collective_bytes = collective_bytes.load(std::memory_order_relaxed);
  const std::lock_guard lock(by_collective_mutex);
  for (const auto& [name, calls] : by_collective) c.by_collective.emplace(name, calls);
  return c;
}

MpiCounts difference(const MpiCounts& later, const MpiCounts& earlier) {
  MpiCounts d;
  d.messages = later.messages - earlier.messages;
  d.p2p_bytes = later.p2p_bytes - earlier.p2p_bytes;
  d.collectives = later.collectives - earlier.collectives;
  d.collective_bytes = later.collective_bytes - earlier.collective_bytes;
  for (const auto& [name, calls] : later.by_collective) {
    const auto before = earlier.by_collective.find(name);
    const long long delta = calls - (before == earlier.by_collective.end() ? 0 : before->second);
    if (delta != 0) d.by_collective.emplace(name, delta);
  }
  return d;
}

void set_counting(bool on) { counting.store(on, std::memory_order_relaxed); }

}  // namespace hpart_scaling
