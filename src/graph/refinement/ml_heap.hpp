#pragma once
// An addressable binary max-heap of vertices keyed by gain (FM and rebalancing): insert, update
// (either direction), remove, pop. Positions live in an n-sized array, so clear() only resets
// the entries it holds. Ties are broken by the heap's own (deterministic) order.
#include <cstdint>
#include <vector>

#include "core/huge_pages.hpp"

namespace hpart::graphk {

template <class Key>
class VertexHeap {
 public:
  struct Entry {
    Key key;
    std::int32_t v;
  };

  void resize(std::int32_t n) { pos_.assign(static_cast<std::size_t>(n), -1); heap_.clear(); }
  [[nodiscard]] bool empty() const { return heap_.empty(); }
  [[nodiscard]] std::size_t size() const { return heap_.size(); }
  [[nodiscard]] bool contains(std::int32_t v) const { return pos_[static_cast<std::size_t>(v)] >= 0; }
  [[nodiscard]] std::int32_t top() const { return heap_.front().v; }
  [[nodiscard]] Key top_key() const { return heap_.front().key; }
  [[nodiscard]] Key key(std::int32_t v) const { return heap_[static_cast<std::size_t>(pos_[static_cast<std::size_t>(v)])].key; }

  void clear() {
    for (const Entry& e : heap_) pos_[static_cast<std::size_t>(e.v)] = -1;
    heap_.clear();
  }
  void insert(std::int32_t v, Key key) {
    heap_.push_back({key, v});
    const auto i = static_cast<std::int32_t>(heap_.size() - 1);
    pos_[static_cast<std::size_t>(v)] = i;
    up(i);
  }
  void update(std::int32_t v, Key key) {
    const std::int32_t i = pos_[static_cast<std::size_t>(v)];
    const Key old = heap_[static_cast<std::size_t>(i)].key;
    heap_[static_cast<std::size_t>(i)].key = key;
    if (old < key) up(i);
    else if (key < old) down(i);
  }
  void insert_or_update(std::int32_t v, Key key) {
    if (contains(v)) update(v, key);
    else insert(v, key);
  }
  void remove(std::int32_t v) {
    const std::int32_t i = pos_[static_cast<std::size_t>(v)];
    if (i < 0) return;
    pos_[static_cast<std::size_t>(v)] = -1;
    const Entry moved = heap_.back();
    heap_.pop_back();
    if (moved.v == v) return;  // it was the last entry
    place(i, moved);
    up(i);
    down(pos_[static_cast<std::size_t>(moved.v)]);
  }
  void pop() { remove(top()); }
  // Replaces the contents by `entries` (distinct vertices) in linear time (Floyd's construction).
  void build(const std::vector<Entry>& entries) {
    clear();
    heap_ = entries;
    for (std::size_t i = 0; i < heap_.size(); ++i) pos_[static_cast<std::size_t>(heap_[i].v)] = static_cast<std::int32_t>(i);
    for (auto i = static_cast<std::int32_t>(heap_.size() / 2); i-- > 0;) down(i);
  }

 private:
  void place(std::int32_t i, const Entry& e) {
    heap_[static_cast<std::size_t>(i)] = e;
    pos_[static_cast<std::size_t>(e.v)] = i;
  }
  void up(std::int32_t i) {
    const Entry e = heap_[static_cast<std::size_t>(i)];
    while (i > 0) {
      const std::int32_t parent = (i - 1) / 2;
      if (!(heap_[static_cast<std::size_t>(parent)].key < e.key)) break;
      place(i, heap_[static_cast<std::size_t>(parent)]);
      i = parent;
    }
    place(i, e);
  }
  void down(std::int32_t i) {
    const auto n = static_cast<std::int32_t>(heap_.size());
    if (i >= n) return;
    const Entry e = heap_[static_cast<std::size_t>(i)];
    for (;;) {
      std::int32_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && heap_[static_cast<std::size_t>(child)].key < heap_[static_cast<std::size_t>(child + 1)].key) ++child;
      if (!(e.key < heap_[static_cast<std::size_t>(child)].key)) break;
      place(i, heap_[static_cast<std::size_t>(child)]);
      i = child;
    }
    place(i, e);
  }

  std::vector<Entry> heap_;
  HugeVector<std::int32_t> pos_;  // per vertex: fresh every level (see huge_pages.hpp)
};

}  // namespace hpart::graphk
