#include "core/huge_pages.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>
#include <unordered_map>

#include <omp.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace hpart::graphk {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
// Below this a huge page would be mostly padding, and malloc reuses small blocks anyway. From
// here up a 2 MiB page wastes at most half of what it backs and saves >= 256 faults.
constexpr std::size_t kHugeMin = std::size_t{1} << 20;
// Idle blocks kept for reuse while a scope is open, at most (bytes).
constexpr std::size_t kPoolMax = std::size_t{1} << 30;

// Large blocks freed while a HugeArrayScope is open, for reuse by later allocations of at most
// their size and at least half of it. Why: the kernel has to zero every fresh page, which on
// our 2-core development VM ran at ~0.6 GB/s (clear_page was 14% of an rgg2d profile with huge pages),
// while a block already in the process is reused as it is. One multilevel call frees each
// level's scratch before the next level asks for a little less.
struct Pool {
  std::mutex lock;
  int scopes = 0;
  std::size_t idle_bytes = 0;
  std::multimap<std::size_t, void*> idle;      // rounded size -> block
  std::unordered_map<void*, std::size_t> size;  // every live or idle large block -> rounded size
};

Pool& pool() {
  static Pool p;  // never destroyed before its users: function-local static
  return p;
}

void* fresh_block(std::size_t rounded) {
  void* p = std::aligned_alloc(kHugePage, rounded);
  if (p == nullptr) throw std::bad_alloc();
  advise_huge_pages(p, rounded);
  return p;
}

void release_idle(Pool& p) {
  for (auto& [bytes, block] : p.idle) {
    p.size.erase(block);
    std::free(block);
  }
  p.idle.clear();
  p.idle_bytes = 0;
}

}  // namespace

void advise_huge_pages(void* data, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const auto p = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (p + kHugePage - 1) & ~(kHugePage - 1), end = (p + bytes) & ~(kHugePage - 1);
  if (data != nullptr && end > first) (void)madvise(reinterpret_cast<void*>(first), end - first, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

void populate_in_parallel(void* data, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  // Below a few huge pages, a parallel region costs more than the faults it spreads.
  if (data == nullptr || bytes < 2 * kHugePage || omp_get_max_threads() < 2) return;
  const auto p = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t page = 4096, first = p & ~(page - 1), end = (p + bytes + page - 1) & ~(page - 1);
#pragma omp parallel
  {
    const auto t = static_cast<std::uintptr_t>(omp_get_thread_num());
    const auto T = static_cast<std::uintptr_t>(omp_get_num_threads());
    // Shares cut at huge page boundaries, so that no 2 MiB page is faulted by two threads at once.
    const auto cut = [&](std::uintptr_t k) {
      if (k == 0) return first;
      if (k == T) return end;
      return std::max(first, (first + (end - first) / T * k) & ~(kHugePage - 1));
    };
    const std::uintptr_t lo = cut(t), hi = cut(t + 1);
    // Advice only: a kernel without it (EINVAL) leaves the faults to the first writes.
    if (hi > lo) (void)madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_POPULATE_WRITE);
  }
#else
  (void)data;
  (void)bytes;
#endif
}

void* allocate_huge_array(std::size_t bytes) {
  if (bytes < kHugeMin) {
    void* p = std::malloc(bytes > 0 ? bytes : 1);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  Pool& p = pool();
  {
    const std::lock_guard<std::mutex> hold(p.lock);
    const auto it = p.idle.lower_bound(rounded);
    if (it != p.idle.end() && it->first / 2 <= rounded) {
      void* block = it->second;
      p.idle_bytes -= it->first;
      p.idle.erase(it);
      return block;
    }
  }
  void* block = fresh_block(rounded);
  const std::lock_guard<std::mutex> hold(p.lock);
  p.size.emplace(block, rounded);
  return block;
}

void free_huge_array(void* ptr) noexcept {
  if (ptr == nullptr) return;
  Pool& p = pool();
  const std::lock_guard<std::mutex> hold(p.lock);
  const auto it = p.size.find(ptr);
  if (it == p.size.end()) {  // a small block from malloc
    std::free(ptr);
    return;
  }
  if (p.scopes > 0 && p.idle_bytes + it->second <= kPoolMax) {
    p.idle.emplace(it->second, ptr);
    p.idle_bytes += it->second;
    return;
  }
  p.size.erase(it);
  std::free(ptr);
}

HugeArrayScope::HugeArrayScope() {
  Pool& p = pool();
  const std::lock_guard<std::mutex> hold(p.lock);
  ++p.scopes;
}

HugeArrayScope::~HugeArrayScope() {
  Pool& p = pool();
  const std::lock_guard<std::mutex> hold(p.lock);
  if (--p.scopes == 0) release_idle(p);
}

}  // namespace hpart::graphk
